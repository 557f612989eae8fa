// A case: where it is, its decision, its question, answer and source with each criterion's marks,
// then the kind's view of it (the criteria form, or its table), the reviews side by side and its bindings.
import { disputesBlock, disputesOf } from './adjudication.js'
import { assignmentLine } from './assignment.js'
import { keptNotice } from './changes.js'
import { criteriaBlock, focusActive, takeSelection } from './criteria-form.js'
import { badge, el, headRow, highlighted } from './dom.js'
import { header } from './header.js'
import { app, fixtureAt, keyOf, kindOf, state, visibleCases, type ShownCase } from './state.js'

export function renderCase(): void {
  const data = state.current!
  const fixture = fixtureAt(data.fixture)
  const main = el('main', { class: 'case' })
  const { list, at } = visibleCases()
  const position = at.get(keyOf(data.fixture, data.id)) ?? -1
  main.append(
    el(
      'nav',
      { class: 'crumbs' },
      el('a', { href: '#/' }, 'overview'),
      ` › ${fixture?.name ?? ''} › `,
      el('strong', {}, data.id),
      el('span', { class: 'dim' }, ` ${position === -1 ? '' : `(${position + 1} of ${list.length} shown)`} · ${data.split}`),
    ),
    el(
      'div',
      { class: 'decision', id: 'decision' },
      badge(data.decision.status),
      ' ',
      data.decision.reason === '' ? kindOf(data.fixture).noReason : data.decision.reason,
    ),
  )
  const assigned = assignmentLine(data)
  if (assigned !== null) main.append(assigned)
  if (state.kept !== null) main.append(keptNotice(data))
  if (data.shows === 'own') main.append(el('p', { class: 'dim' }, `Blind review: you see your own review and its decision only.`))
  if (data.refusal !== null) main.append(el('pre', { class: 'error refusal', role: 'alert' }, data.refusal))
  if (data.question !== null) main.append(el('h3', {}, 'Question'), el('p', { class: 'question' }, data.question))
  if (data.answer !== null) {
    const ranges = data.criteria.flatMap((item) => (item.spanAt === null ? [] : [{ at: item.spanAt, marker: item.marker, label: item.criterion }]))
    const answer = highlighted(data.answer, ranges, 'answer')
    answer.addEventListener('mouseup', () => takeSelection(answer))
    main.append(el('h3', {}, 'Answer'), answer)
    if (data.citation !== null) main.append(el('p', { class: 'dim' }, `citation: ${data.citation}`))
  }
  if (data.source !== null) {
    const ranges = data.criteria.flatMap((item) => (item.quoteAt === null ? [] : [{ at: item.quoteAt, marker: item.marker, label: item.criterion }]))
    main.append(
      el(
        'details',
        { class: 'source-block', open: '' },
        el('summary', {}, "Source, with each criterion's reference quote"),
        highlighted(data.source, ranges, 'source'),
      ),
    )
  }
  const disputes = disputesOf(data)
  if (disputes !== null) main.append(disputesBlock(data, disputes))
  if (kindOf(data.fixture).view === 'form') main.append(criteriaBlock(data))
  else main.append(...tableBlock(data))
  if (data.reviewers === 'hidden')
    main.append(el('p', { class: 'hidden-reviews' }, "The other reviewers' judgements are shown once you have saved your own review of every criterion."))
  else if (data.reviewers.length > 0) {
    // Adjudicating, the table is the whole record behind the disputes shown above the form.
    const table = reviewersBlock(data, data.reviewers)
    main.append(disputesOf(data) === null ? table : el('details', { class: 'side-by-side-block' }, el('summary', {}, 'Every review, side by side'), table))
  }
  if (data.bindings.length > 0) {
    const bindings = el('ul', { class: 'bindings' })
    for (const binding of data.bindings)
      bindings.append(
        el(
          'li',
          { class: binding.stale ? 'stale' : 'current' },
          `${binding.stale ? 'stale' : 'current'} · ${binding.location}${binding.stale ? `: ${binding.meaning}` : ''}`,
        ),
      )
    main.append(
      el(
        'details',
        { class: 'bindings-block' },
        el('summary', {}, `Bindings: ${data.bindings.filter((item) => item.stale).length} stale of ${data.bindings.length}`),
        bindings,
      ),
    )
  }
  app.replaceChildren(header(), main)
  focusActive()
}

/** A case its kind shows as a table (a scored case: each dimension's score and why, beside the baseline's); the whole decision under it. */
function tableBlock(data: ShownCase): HTMLElement[] {
  const blocks: HTMLElement[] = []
  if (data.table !== null) {
    const table = el('table', { class: 'scores', id: 'scores' }, el('caption', {}, data.table.caption))
    table.append(headRow(...data.table.head))
    for (const row of data.table.rows) table.append(el('tr', { class: row.low ? 'low' : '' }, ...row.cells.map((cell) => el('td', {}, cell))))
    blocks.push(table)
  }
  blocks.push(
    el('details', { class: 'detail' }, el('summary', {}, 'The decision as evaluate --json shows it'), el('pre', {}, JSON.stringify(data.decision, null, 2))),
  )
  return blocks
}

function reviewersBlock(data: ShownCase, reviewers: Exclude<ShownCase['reviewers'], 'hidden'>): HTMLElement {
  const table = el('table', { class: 'side-by-side', id: 'side-by-side' }, el('caption', {}, 'Independent reviews, side by side'))
  table.append(
    el(
      'tr',
      {},
      el('th', {}, 'criterion'),
      ...reviewers.map((review) => el('th', {}, review.reviewer, el('br'), el('span', { class: 'dim' }, review.decision))),
    ),
  )
  data.criteria.forEach((item) => {
    const ratings = reviewers.map((review) => review.judgements[item.criterion]?.rating ?? 'not judged')
    const row = el('tr', { class: new Set(ratings).size > 1 ? 'disagree' : 'agree' }, el('td', {}, item.criterion))
    for (const review of reviewers) {
      const judgement = review.judgements[item.criterion]
      const cell = el(
        'td',
        {},
        judgement === undefined
          ? el('span', { class: 'dim' }, 'not judged')
          : el('span', {}, el('span', { class: `badge ${judgement.rating}` }, judgement.rating), ' ', judgement.reason),
      )
      row.append(cell)
    }
    table.append(row)
  })
  return table
}
