// Adjudicating a case with independent reviews: the disputed criteria first, each reviewer's
// judgement with a button taking it into the form, and the judges' labels as predictions.
import type { PageJudgement } from '../protocol.js'
import { counted, el } from './dom.js'
import { kindOf, mode, redraw, state, type ShownCase } from './state.js'

export interface Disputes {
  /** The criteria the reviewers rate differently, leave unrated or all leave undecided, in the rubric's order. */
  disputed: string[]
  /** Each criterion every reviewer rated alike, with the first reviewer's judgement of it. */
  agreed: Map<string, PageJudgement & { by: string }>
}

/** What the adjudicator settles: `null` unless adjudicating a case with independent reviews on the criteria form. */
export function disputesOf(data: ShownCase): Disputes | null {
  if (
    mode !== 'serve' ||
    state.viewer.role !== 'adjudicator' ||
    kindOf(data.fixture).view !== 'form' ||
    data.reviewers === 'hidden' ||
    data.reviewers.length === 0 ||
    data.refusal !== null
  )
    return null
  const reviewers = data.reviewers
  const disputed: string[] = []
  const agreed = new Map<string, PageJudgement & { by: string }>()
  for (const item of data.criteria) {
    const first = reviewers[0]!.judgements[item.criterion]
    // The server says which criteria the reviewers agree on, as the terminal's adjudication sorts them.
    if (item.dispute === null && first !== undefined) agreed.set(item.criterion, { ...first, by: reviewers[0]!.reviewer })
    else disputed.push(item.criterion)
  }
  return { disputed, agreed }
}

/** A criterion card's mark while adjudicating: disputed, or agreed by every reviewer. */
export function panelMark(data: ShownCase, criterion: string): HTMLElement[] {
  const disputes = disputesOf(data)
  if (disputes === null) return []
  const agreed = disputes.agreed.get(criterion)
  return agreed === undefined
    ? [el('span', { class: 'badge disputed' }, data.criteria.find((item) => item.criterion === criterion)?.dispute ?? 'disputed')]
    : [el('span', { class: 'badge agreed', title: `every reviewer rated it ${agreed.rating}; the form holds ${agreed.by}'s reason and span` }, 'agreed')]
}

/** The disputed criteria first, each reviewer's judgement inline with a button taking it into the form, and the judges' labels as predictions. */
export function disputesBlock(data: ShownCase, disputes: Disputes): HTMLElement {
  const reviewers = data.reviewers === 'hidden' ? [] : data.reviewers
  const names = reviewers.map((review) => review.reviewer).join(', ')
  const words = kindOf(data.fixture)
  const block = el(
    'section',
    { class: 'disputes', id: 'disputes' },
    el(
      'h3',
      {},
      disputes.disputed.length === 0
        ? 'Adjudicate: the reviewers agree'
        : `Adjudicate first: ${disputes.disputed.length} of ${counted(data.criteria.length, words.item, words.items)}`,
    ),
    el(
      'p',
      { class: 'dim' },
      disputes.agreed.size === 0
        ? `Reviews by ${names}. No criterion is rated alike by every reviewer.`
        : `Reviews by ${names}. The ${disputes.agreed.size === 1 ? words.item : `${disputes.agreed.size} ${words.items}`} they rate alike ${disputes.agreed.size === 1 ? 'is' : 'are'} pre-filled in the form below (marked agreed); Adopt records the form as it is.`,
    ),
  )
  const judges = data.judges
  for (const criterion of disputes.disputed) {
    const index = data.criteria.findIndex((item) => item.criterion === criterion)
    const item = data.criteria[index]!
    const card = el(
      'div',
      { class: 'dispute', 'data-criterion': criterion, id: `dispute-${criterion}` },
      el(
        'h4',
        {},
        el('span', { class: `marker m${item.marker % 8}` }, String(item.marker)),
        ` ${criterion} `,
        el('span', { class: 'badge disputed' }, item.dispute ?? 'disputed'),
      ),
      el('p', { class: 'rule' }, item.rule),
    )
    const list = el('ul', { class: 'judgements' })
    for (const review of reviewers) {
      const judgement = review.judgements[criterion]
      const line = el('li', { 'data-reviewer': review.reviewer }, el('strong', {}, review.reviewer), ' ')
      if (judgement === undefined) line.append(el('span', { class: 'dim' }, 'not judged'))
      else {
        const take = el('button', { type: 'button', class: 'take' }, `take ${review.reviewer}'s`)
        take.addEventListener('click', () => {
          state.drafts[index] = { rating: judgement.rating, reason: judgement.reason, span: judgement.answer_span }
          state.dirty = true
          state.active = index
          redraw.case()
        })
        line.append(
          el('span', { class: `badge ${judgement.rating}` }, judgement.rating),
          ' ',
          judgement.reason,
          ' ',
          spanText(judgement.answer_span, data),
          ' ',
          take,
        )
      }
      list.append(line)
    }
    for (const hint of judges) {
      const label = hint.current ? hint.judgements[criterion] : undefined
      if (label === undefined) continue
      list.append(
        judgeHint(
          'li',
          hint.judge,
          el('strong', {}, `judge ${hint.judge}`),
          ' ',
          el('span', { class: `badge ${label.rating}` }, label.rating),
          ' ',
          label.reason,
          ' ',
          el('span', { class: 'dim' }, '(an automated label: a hint, never adopted by itself)'),
        ),
      )
    }
    card.append(list)
    block.append(card)
  }
  for (const hint of judges)
    block.append(
      judgeHint(
        'p',
        hint.judge,
        hint.current
          ? `judge ${hint.judge}${hint.origin === '' ? '' : ` (${hint.origin})`} predicts ${hint.prediction}. An automated label is a hint: it is never adopted by itself.`
          : `judge ${hint.judge}'s label is stale and not shown: ${hint.reason}`,
      ),
    )
  return block
}

/** An automated judge's hint, marked as a prediction: never a review. */
function judgeHint(tag: 'li' | 'p', judge: string, ...content: (string | Node)[]): HTMLElement {
  return el(tag, { class: 'judge-hint', 'data-judge': judge }, el('span', { class: 'badge prediction' }, 'prediction'), ' ', ...content)
}

function spanText(span: string, data: ShownCase): HTMLElement {
  return el(
    'span',
    { class: 'span' },
    span === '' ? 'span: none (an omission)' : `span: “${span}”${data.answer !== null && !data.answer.includes(span) ? ' (not in the answer)' : ''}`,
  )
}
