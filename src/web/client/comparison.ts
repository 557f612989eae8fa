// Two served fixtures' systems compared, read-only: the figures as `vitest-rubric compare` words
// them, each task's two decisions, and a selected task's two answers side by side.
import type { CompareSide, PageComparison } from '../protocol.js'
import { api, readCase } from './api.js'
import { badge, el, headRow, highlighted, messageOf } from './dom.js'
import { header } from './header.js'
import { app, kindOf, mode, type ShownCase } from './state.js'

/** `#/compare/<A>/<B>`, and `…/<task>` with a task selected: two served fixtures' systems compared, read-only. */
export function compareRoute(): { a: number; b: number; id: string | null } | null {
  const match = /^#\/compare\/(\d+)\/(\d+)(?:\/(.+))?$/.exec(location.hash)
  if (match === null) return null
  let id: string | null = null
  try {
    id = match[3] === undefined ? null : decodeURIComponent(match[3])
  } catch {
    id = null
  }
  return { a: Number(match[1]), b: Number(match[2]), id }
}

let comparison: { key: string; data: PageComparison } | null = null

/** A fixture changed: the comparison is read again when next drawn. */
export function forgetComparison(): void {
  comparison = null
}

/** Draws the comparison the address names, unless `latest` says a later drawing of the page began while it read. */
export async function renderComparison(at: { a: number; b: number; id: string | null }, latest: () => boolean = () => true): Promise<void> {
  if (mode !== 'serve') throw new Error('The comparison view is served by vitest-rubric serve; the static report has none.')
  const key = `${at.a}/${at.b}`
  if (comparison?.key !== key) comparison = { key, data: await api<PageComparison>(`/api/compare?a=${at.a}&b=${at.b}`) }
  const data = comparison.data
  const { accepted, rejected } = data.nouns
  const main = el(
    'main',
    { class: 'compare', id: 'compare' },
    el('nav', { class: 'crumbs' }, el('a', { href: '#/' }, 'overview'), ' › compare'),
    el(
      'h2',
      {},
      `A: ${data.a.name} `,
      el('span', { class: 'dim' }, `(${data.a.dir})`),
      ` · B: ${data.b.name} `,
      el('span', { class: 'dim' }, `(${data.b.dir})`),
    ),
    el('p', { class: 'dim' }, data.same),
    ...data.notes.map((note) => el('p', { class: 'dim' }, note)),
  )
  for (const section of data.sections) {
    const block = el(
      'section',
      { class: `compare-split ${section.standing}`, id: `compare-${section.split}`, 'data-split': section.split },
      el('h3', {}, section.label === null ? `${section.split}: the result` : section.split),
    )
    if (section.label !== null) block.append(el('p', { class: 'development-label' }, section.label))
    block.append(el('p', { class: 'coverage' }, section.coverage), el('p', { class: 'difference' }, section.difference))
    if (section.worstCase !== null) block.append(el('p', { class: 'worst-case' }, section.worstCase))
    for (const leak of section.leaks) block.append(el('p', { class: 'leak' }, leak))
    if (section.rates !== null) block.append(el('p', { class: 'rates' }, section.rates))
    if (section.judgeAssisted !== null) block.append(el('div', { class: 'judge-assisted' }, ...section.judgeAssisted.map((line) => el('p', {}, line.trim()))))
    if (section.table !== null) {
      const t = section.table
      const table = el('table', { class: 'paired' }, el('caption', {}, 'Paired table: tasks decided in both'))
      table.append(
        headRow('', `B ${accepted}`, `B ${rejected}`),
        el('tr', {}, el('th', {}, `A ${accepted}`), el('td', {}, String(t.both)), el('td', { class: 'discordant' }, String(t.a_only))),
        el('tr', {}, el('th', {}, `A ${rejected}`), el('td', { class: 'discordant' }, String(t.b_only)), el('td', {}, String(t.neither))),
      )
      block.append(table)
    }
    if (section.criteria.length > 0) {
      const table = el('table', { class: 'compare-criteria' }, el('caption', {}, 'Per criterion, over the same pairs'))
      table.append(headRow(...data.itemHead))
      for (const row of section.criteria) table.append(el('tr', {}, el('td', {}, row.criterion), ...row.cells.map((cell) => el('td', {}, cell))))
      block.append(table)
    }
    if (section.scores !== null) block.append(el('p', { class: 'scores' }, section.scores))
    main.append(block)
  }
  const tasks = el(
    'table',
    { class: 'compare-tasks', id: 'compare-tasks' },
    el('caption', {}, `Both systems' decisions per task: A ${accepted} and B ${rejected} first, then B ${accepted} and A ${rejected}`),
    headRow('task', 'split', 'A', 'B'),
  )
  const sideCell = (side: CompareSide | null) =>
    el('td', {}, ...(side === null ? [el('span', { class: 'dim' }, 'not in this fixture')] : [badge(side.status), ' ', side.reason]))
  for (const task of data.tasks) {
    const link = el('a', { href: `#/compare/${at.a}/${at.b}/${encodeURIComponent(task.id)}` }, task.id)
    const mark = task.discordant === null ? '' : ` discordant ${task.discordant}`
    tasks.append(
      el(
        'tr',
        { class: `task-row${mark}${task.id === at.id ? ' selected' : ''}`, 'data-id': task.id },
        el('td', {}, link),
        el('td', {}, task.split),
        sideCell(task.a),
        sideCell(task.b),
      ),
    )
  }
  const chosen = at.id === null ? undefined : data.tasks.find((task) => task.id === at.id)
  if (chosen !== undefined) main.append(await sideBySide(data, at, chosen))
  main.append(tasks)
  if (latest()) app.replaceChildren(header(), main)
  document.getElementById('compare-case')?.scrollIntoView({ block: 'nearest' })
}

/** The selected task: both answers side by side, each with its decision and the criteria it failed. Read-only. */
async function sideBySide(data: PageComparison, at: { a: number; b: number }, task: PageComparison['tasks'][number]): Promise<HTMLElement> {
  const read = (fixture: number) => readCase(fixture, task.id, 'reader').catch((error: unknown) => messageOf(error))
  const [left, right] = await Promise.all([task.a === null ? null : read(at.a), task.b === null ? null : read(at.b)])
  const column = (label: string, fixture: PageComparison['a'], shown: ShownCase | string | null) => {
    const block = el('div', { class: 'compare-side', 'data-system': label }, el('h3', {}, `${label}: ${fixture.name}`))
    if (shown === null || typeof shown === 'string') {
      block.append(shown === null ? el('p', { class: 'dim' }, 'This task is not in this fixture.') : el('p', { class: 'error' }, shown))
      return block
    }
    const kind = kindOf(fixture.fixture)
    block.append(el('div', { class: 'decision' }, badge(shown.decision.status), ' ', shown.decision.reason === '' ? kind.noReason : shown.decision.reason))
    if (shown.answer !== null) {
      const failed = shown.criteria.filter((item) => item.rating !== kind.passing)
      const ranges = failed.flatMap((item) => (item.spanAt === null ? [] : [{ at: item.spanAt, marker: item.marker, label: item.criterion }]))
      block.append(highlighted(shown.answer, ranges, 'answer'))
      const list = el('ul', { class: 'failed' })
      for (const item of failed)
        list.append(
          el(
            'li',
            { 'data-criterion': item.criterion },
            el('strong', {}, item.criterion),
            ' ',
            item.rating === null ? el('span', { class: 'badge pending' }, 'not judged') : badge(item.rating),
            item.reason === null ? '' : ` ${item.reason}`,
          ),
        )
      block.append(el('h4', {}, failed.length === 0 ? 'No failed criterion' : 'Failed criteria'), list)
    }
    return block
  }
  return el(
    'section',
    { class: 'compare-case', id: 'compare-case' },
    el('h3', {}, `Task ${task.id}`, el('span', { class: 'dim' }, ` · ${task.split}`)),
    el('div', { class: 'compare-sides' }, column('A', data.a, left), column('B', data.b, right)),
  )
}
