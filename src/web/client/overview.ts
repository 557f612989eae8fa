// The overview: the filters, the way to the comparison view, and per fixture its figures, its
// pending and failed cases one click from their lists, a window of its cases and its statistics.
import { rateText } from '../../core/common/rate-percent.js'
import type { Counts, PageFixture } from '../protocol.js'
import { progressBlock, queueNotice } from './assignment.js'
import { badge, counted, el, headRow } from './dom.js'
import { header } from './header.js'
import { gatesBlock, gatesOfReport } from './report-mode.js'
import { statisticsBlocks } from './statistics.js'
import { estimateBlock, sampleProgressBlock } from './estimate.js'
import { app, caseIndex, filtersChanged, fixtureAt, mode, PAGE_SIZE, state, visibleCases } from './state.js'

export function renderOverview(): void {
  const main = el('main', { class: 'overview' })
  main.append(filtersBar())
  const offer = compareOffer()
  if (offer !== null) main.append(offer)
  const progress = progressBlock() ?? queueNotice()
  if (progress !== null) main.append(progress)
  const gates = gatesOfReport()
  if (gates !== null) main.append(gates)
  for (const entry of state.fixtures) {
    if ('refused' in entry) {
      main.append(el('section', { class: 'fixture refused' }, el('h2', {}, entry.dir), el('pre', { class: 'error' }, entry.refused)))
      continue
    }
    main.append(fixtureSection(entry))
  }
  app.replaceChildren(header(), main)
}

/**
 * With two or more fixtures of one kind served, the way to the comparison view (`#/compare/<a>/<b>`):
 * which is A and which is B, the first two by default. The static report has no comparison.
 */
function compareOffer(): HTMLElement | null {
  if (mode !== 'serve') return null
  const loaded = state.fixtures.flatMap((entry) => ('refused' in entry ? [] : [entry]))
  const kinds = new Map<string, PageFixture[]>()
  for (const fixture of loaded) kinds.set(fixture.kind, [...(kinds.get(fixture.kind) ?? []), fixture])
  const comparable = [...kinds.values()].find((same) => same.length >= 2)
  if (comparable === undefined) return null
  const choose = (label: string, chosen: number) => {
    const node = el('select', { 'aria-label': label, id: `compare-${label.toLowerCase()}` })
    for (const fixture of comparable) {
      const option = el('option', { value: String(fixture.index) }, fixture.dir)
      if (fixture.index === chosen) option.selected = true
      node.append(option)
    }
    return node
  }
  const a = choose('A', comparable[0]!.index)
  const b = choose('B', comparable[1]!.index)
  const link = el('a', { id: 'compare-link', class: 'compare-link' }, 'compare B with A')
  const point = () => link.setAttribute('href', `#/compare/${a.value}/${b.value}`)
  point()
  a.addEventListener('change', point)
  b.addEventListener('change', point)
  return el('p', { class: 'compare-offer', id: 'compare-offer' }, 'Compare two systems, case by case: A ', a, ' B ', b, ' ', link)
}

/** The filters changed: only the lists are drawn again, so a field keeps its focus and its caret. */
function listsChanged(): void {
  filtersChanged()
  for (const entry of state.fixtures) {
    const fixture = fixtureAt(entry.index)
    const holder = document.getElementById(`cases-${entry.index}`)
    if (fixture !== null && holder !== null) holder.replaceChildren(...caseList(fixture))
  }
}

function filtersBar(): HTMLElement {
  const fixtures = state.fixtures.flatMap((entry) => ('refused' in entry ? [] : [entry]))
  const waits = new Set<string>()
  const splits = new Set<string>()
  for (const { row } of caseIndex().all) {
    if (row.waiting !== null) waits.add(row.waiting)
    splits.add(row.split)
  }
  const criteria = [...new Set(fixtures.flatMap((fixture) => fixture.criteria))]
  const select = (key: 'status' | 'waiting' | 'split' | 'criterion', label: string, values: readonly string[]) => {
    const node = el('select', { 'aria-label': label, id: `filter-${key}` }, el('option', { value: '' }, `any ${label}`))
    for (const value of values) {
      const option = el('option', { value }, value)
      if (state.filters[key] === value) option.selected = true
      node.append(option)
    }
    node.addEventListener('change', () => {
      state.filters[key] = node.value
      listsChanged()
    })
    return node
  }
  const check = (key: 'disagreement' | 'stale', label: string) => {
    const box = el('input', { type: 'checkbox', id: `filter-${key}` })
    box.checked = state.filters[key]
    box.addEventListener('change', () => {
      state.filters[key] = box.checked
      listsChanged()
    })
    return el('label', {}, box, ` ${label}`)
  }
  const search = el('input', {
    type: 'search',
    id: 'filter-search',
    placeholder: 'search id or answer text',
    value: state.filters.search,
    'aria-label': 'search',
  })
  // Only the lists are drawn again: the field keeps its focus and its caret.
  search.addEventListener('input', () => {
    state.filters.search = search.value
    listsChanged()
  })
  return el(
    'div',
    { class: 'filters' },
    select('status', 'status', ['accepted', 'rejected', 'pending', 'refused']),
    select('waiting', 'pending reason', [...waits]),
    select('split', 'split', [...splits]),
    select('criterion', 'criterion', criteria),
    check('disagreement', 'disagreement'),
    check('stale', 'stale binding'),
    search,
  )
}

function fixtureSection(fixture: PageFixture): HTMLElement {
  const section = el(
    'section',
    { class: 'fixture' },
    el('h2', {}, `${fixture.name} `, el('span', { class: 'dim' }, `${fixture.dir} · ${fixture.kind}`)),
    el('p', { class: 'origin' }, fixture.origin === null ? 'Judgements by: not given (annotations.json › origin)' : `Judgements by: ${fixture.origin}`),
  )
  const table = el('table', { class: 'figures' }, headRow('split', 'graded', 'pending', 'refused', 'outcomes'))
  const rows: [string, Counts][] = [['all', fixture.coverage], ...Object.entries(fixture.coverage.splits).filter(([, counts]) => counts.candidates > 0)]
  for (const [split, counts] of rows) {
    const outcome =
      counts.outcomes === null
        ? 'no completed reviews: no quality figure'
        : `${counts.outcomes.accepted} accepted · ${counts.outcomes.rejected} rejected · ${rateText(counts.outcomes, 'accepted')}`
    table.append(
      el(
        'tr',
        {},
        el('td', {}, split),
        el('td', {}, `${counts.graded} of ${counts.candidates}`),
        // Only a pending count above zero is drawn as one to act on.
        el('td', counts.pending > 0 ? { class: 'pending' } : {}, String(counts.pending)),
        el('td', {}, String(counts.refused)),
        el('td', {}, outcome),
      ),
    )
  }
  section.append(table)
  const sampled = sampleProgressBlock(fixture)
  if (sampled !== null) section.append(sampled)
  const estimate = estimateBlock(fixture)
  if (estimate !== null) section.append(estimate)
  if (fixture.gates !== undefined) section.append(gatesBlock(fixture, fixture.gates))
  // The pending and the failed cases, each group one click from its list.
  const byReason = new Map<string, number>()
  const byFailed = new Map<string, number>()
  for (const row of fixture.cases) {
    if (row.waiting !== null) byReason.set(row.waiting, (byReason.get(row.waiting) ?? 0) + 1)
    if (row.status === 'rejected') for (const criterion of row.failed) byFailed.set(criterion, (byFailed.get(criterion) ?? 0) + 1)
  }
  const quick = (label: string, filters: Partial<typeof state.filters>) => {
    const button = el('button', { type: 'button', class: 'quick-filter' }, label)
    button.addEventListener('click', () => {
      Object.assign(state.filters, filters)
      filtersChanged()
      renderOverview()
    })
    return button
  }
  if (byReason.size > 0)
    section.append(
      el(
        'p',
        { class: 'pending-reasons' },
        'pending: ',
        // The count is of cases, whatever the reason's own grammar: `reviewers disagree: 1 case`.
        ...[...byReason].map(([reason, count]) => quick(`${reason}: ${counted(count, 'case')}`, { status: 'pending', waiting: reason, criterion: '' })),
      ),
    )
  if (byFailed.size > 0)
    section.append(
      el(
        'p',
        { class: 'failed-criteria' },
        'rejected on: ',
        ...[...byFailed].map(([criterion, count]) => quick(`${criterion} ${count}`, { status: 'rejected', waiting: '', criterion })),
      ),
    )
  // The cases come before the long tables of statistics, which fold away.
  section.append(el('div', { class: 'case-list', id: `cases-${fixture.index}` }, ...caseList(fixture)))
  section.append(...statisticsBlocks(fixture))
  return section
}

/** A fixture's filtered cases, one window of them drawn: its count, the rows, and the way to the other windows. */
function caseList(fixture: PageFixture): HTMLElement[] {
  const rows = visibleCases().byFixture.get(fixture.index) ?? []
  const first = Math.min(state.pages[fixture.index] ?? 0, Math.max(0, rows.length - 1))
  const last = Math.min(rows.length, first + PAGE_SIZE)
  const list = el('table', { class: 'cases' }, headRow('case', 'split', 'decision', 'why'))
  for (let at = first; at < last; at++) {
    const { row } = rows[at]!
    const link = el('a', { href: `#/f/${fixture.index}/c/${encodeURIComponent(row.id)}` }, row.id)
    const why = el('td', {}, row.reason)
    if (row.stale) why.append(' ', el('span', { class: 'badge refused' }, 'stale'))
    list.append(
      el('tr', { class: `case-row ${row.status}`, 'data-case': row.id }, el('td', {}, link), el('td', {}, row.split), el('td', {}, badge(row.status)), why),
    )
  }
  const count = el('p', { class: 'dim list-count' }, `${rows.length} of ${counted(fixture.cases.length, 'case')} shown`)
  if (rows.length <= PAGE_SIZE) return [count, list]
  return [count, pager(fixture, first, last, rows.length, false), list, pager(fixture, first, last, rows.length, true)]
}

/** Buttons to the previous and next window of a fixture's list; under the list, a turn scrolls back to its top. */
function pager(fixture: PageFixture, first: number, last: number, total: number, below: boolean): HTMLElement {
  const turn = (label: string, to: number, id: string) => {
    const button = el('button', { type: 'button', class: 'page-turn', ...(below ? {} : { id: `${id}-${fixture.index}` }) }, label)
    if (to < 0 || to >= total) button.setAttribute('disabled', '')
    button.addEventListener('click', () => {
      state.pages[fixture.index] = to
      const holder = document.getElementById(`cases-${fixture.index}`)
      holder?.replaceChildren(...caseList(fixture))
      if (below) holder?.scrollIntoView({ block: 'start' })
    })
    return button
  }
  return el(
    'p',
    { class: 'pager' },
    turn('‹ previous', first - PAGE_SIZE, 'page-previous'),
    ` rows ${first + 1}–${last} of ${total} `,
    turn('next ›', first + PAGE_SIZE, 'page-next'),
  )
}
