// The criteria form: a card per criterion with its rule and reference quote, and, where this
// viewer can save, the kind's ratings, a reason and an answer span; the keys and the mouse fill it in.
import { disputesOf, panelMark } from './adjudication.js'
import { el } from './dom.js'
import { setViewer } from './header.js'
import { saveReview, saveStatusLine } from './save.js'
import { identity, kindOf, mode, saveBlocked, state, type Draft, type ShownCase } from './state.js'

/** A reader's case that only an adjudication adopts: no form that cannot save, and the role that can, one click away. */
function adjudicationPointer(data: ShownCase): HTMLElement {
  const names = data.reviewers === 'hidden' || data.reviewers.length === 0 ? '' : ` (${data.reviewers.map((review) => review.reviewer).join(', ')})`
  const adjudicate = el('button', { type: 'button', id: 'switch-to-adjudicator' }, 'Adjudicate this case')
  adjudicate.addEventListener('click', () => setViewer({ role: 'adjudicator', name: state.viewer.name }))
  return el(
    'p',
    { class: 'role-hint', id: 'role-hint' },
    `This case has independent reviews${names}: only an adjudication adopts its review, so reading, you save nothing here. `,
    adjudicate,
    ' or add a review of your own under "reviewing (blind) as".',
  )
}

export function criteriaBlock(data: ShownCase): HTMLElement {
  const blocked = saveBlocked(data)
  const form = kindOf(data.fixture).view === 'form'
  // A form kept over a change on disk stays, even when it can no longer be saved: what was typed is never taken away.
  // A team's reader saves nothing: the server refuses it, so the page offers no form.
  const editable =
    mode === 'serve' &&
    form &&
    (state.viewer.role === 'reviewer' ? state.viewer.name !== '' : identity?.role !== 'reader') &&
    (blocked === null || state.kept !== null)
  const block = el(
    'section',
    { class: 'criteria', id: 'criteria' },
    el('h3', {}, editable ? (state.viewer.role === 'adjudicator' ? 'Criteria: adjudicate' : 'Criteria: review') : 'Criteria'),
  )
  if (mode === 'serve' && identity === null && form && state.viewer.role === 'reader' && data.adjudicationOnly && state.kept === null)
    block.append(adjudicationPointer(data))
  data.criteria.forEach((item, index) => {
    const draft = state.drafts[index]!
    const card = el('div', {
      class: `criterion${index === state.active ? ' active' : ''} ${item.rating ?? 'none'}`,
      'data-criterion': item.criterion,
      id: `criterion-${item.criterion}`,
    })
    card.append(
      el(
        'h4',
        {},
        el('span', { class: `marker m${item.marker % 8}` }, String(item.marker)),
        ` ${item.criterion} `,
        // Adjudicating a case nobody adopted yet, the mark says what the reviewers did instead.
        item.rating === null
          ? disputesOf(data) === null
            ? el('span', { class: 'badge pending' }, 'not judged')
            : null
          : el('span', { class: `badge ${item.rating}` }, disputesOf(data) === null ? item.rating : `adopted: ${item.rating}`),
        ...panelMark(data, item.criterion),
      ),
      el('p', { class: 'rule' }, item.rule),
      el('blockquote', {}, item.referenceQuote),
    )
    if (item.reason !== null && !editable) card.append(el('p', { class: 'reason' }, `reason: ${item.reason}`))
    if (item.answerSpan !== null && !editable)
      card.append(
        el(
          'p',
          { class: 'span' },
          item.answerSpan === '' ? 'span: none (an omission)' : `span: “${item.answerSpan}”${item.spanAt === null ? ' (not in the answer)' : ''}`,
        ),
      )
    if (editable) card.append(criterionForm(data, index, draft))
    block.append(card)
  })
  if (editable) {
    const save = el(
      'button',
      { id: 'save', type: 'button' },
      state.viewer.role === 'adjudicator' ? 'Adopt (s)' : data.existing ? 'Save revision (s)' : 'Save review (s)',
    )
    save.addEventListener('click', () => void saveReview())
    if (blocked !== null) save.setAttribute('disabled', '')
    block.append(el('div', { class: 'actions' }, save, saveStatusLine(data, blocked)))
  }
  return block
}

function criterionForm(data: ShownCase, index: number, draft: Draft): HTMLElement {
  const form = el('div', { class: 'form' })
  const group = el('div', { class: 'ratings', role: 'radiogroup', 'aria-label': `rating of ${data.criteria[index]!.criterion}` })
  kindOf(data.fixture).ratings.forEach((rating, at) => {
    const input = el('input', { type: 'radio', name: `rating-${index}`, value: rating, id: `rating-${index}-${rating}` })
    input.checked = draft.rating === rating
    input.addEventListener('change', () => setRating(index, rating))
    group.append(el('label', { for: `rating-${index}-${rating}` }, input, ` ${at + 1} ${rating}`))
  })
  const none = el('input', { type: 'radio', name: `rating-${index}`, value: '', id: `rating-${index}-none` })
  none.checked = draft.rating === ''
  none.addEventListener('change', () => setRating(index, ''))
  group.append(el('label', { for: `rating-${index}-none` }, none, ' leave out'))
  const reason = el('textarea', { id: `reason-${index}`, rows: '2', placeholder: 'reason', 'aria-label': `reason for ${data.criteria[index]!.criterion}` })
  reason.value = draft.reason
  reason.addEventListener('input', () => {
    draft.reason = reason.value
    state.dirty = true
  })
  reason.addEventListener('focus', () => activate(index))
  const span = el('input', {
    id: `span-${index}`,
    placeholder: 'answer span: select it in the answer, or type it; empty for an omission',
    'aria-label': `answer span for ${data.criteria[index]!.criterion}`,
  })
  span.value = draft.span
  const hint = el('span', { class: 'span-hint', id: `span-hint-${index}` }, '')
  const check = () => {
    const bad = span.value !== '' && data.answer !== null && !data.answer.includes(span.value)
    span.classList.toggle('invalid', bad)
    hint.textContent = bad ? 'not in the answer: select or type an exact excerpt' : ''
  }
  span.addEventListener('input', () => {
    draft.span = span.value
    state.dirty = true
    check()
  })
  span.addEventListener('focus', () => activate(index))
  check()
  form.append(group, reason, span, hint)
  if (draft.carried === true) {
    const box = el('input', { type: 'checkbox', id: `carried-${index}` })
    box.checked = draft.confirmed === true
    box.addEventListener('change', () => {
      draft.confirmed = box.checked
      state.dirty = true
    })
    form.append(el('label', { class: 'carried', for: `carried-${index}` }, box, ' carried over, confirm (the criterion is unchanged since this review)'))
  }
  return form
}

export function activate(index: number): void {
  if (state.active === index) return
  state.active = index
  document.querySelectorAll('.criterion').forEach((node, at) => {
    node.classList.toggle('active', at === index)
  })
}

export function setRating(index: number, rating: string): void {
  state.drafts[index]!.rating = rating
  // Rating a carried-over criterion again is the reviewer's own judgement of it.
  if (state.drafts[index]!.carried === true) {
    state.drafts[index]!.confirmed = true
    const box = document.querySelector<HTMLInputElement>(`#carried-${index}`)
    if (box !== null) box.checked = true
  }
  state.dirty = true
  activate(index)
  const input = document.querySelector<HTMLInputElement>(rating === '' ? `#rating-${index}-none` : `#rating-${index}-${rating}`)
  if (input !== null) input.checked = true
}

export function focusActive(): void {
  document.getElementById(`criterion-${state.current?.criteria[state.active]?.criterion ?? ''}`)?.scrollIntoView({ block: 'nearest' })
}

export function takeSelection(answer: HTMLElement): void {
  const selection = window.getSelection()
  if (selection === null || selection.isCollapsed || state.current === null) return
  const range = selection.getRangeAt(0)
  if (!answer.contains(range.commonAncestorContainer)) return
  const text = selection.toString()
  const input = document.querySelector<HTMLInputElement>(`#span-${state.active}`)
  if (input === null || text === '') return
  input.value = text
  input.dispatchEvent(new Event('input'))
}
