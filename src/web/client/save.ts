// Opening a case into the form, and saving the form: a review, a revision or an adoption.
import { followsQueue, isAssigned } from './assignment.js'
import type { SaveAnswer, SaveRequest, SavedFixture } from '../save-protocol.js'
import { disputesOf } from './adjudication.js'
import { api, readAhead } from './api.js'
import { rereadKept } from './changes.js'
import { el, messageOf } from './dom.js'
import { dataChanged, fixtureAt, keyOf, mode, nextPending, redraw, saveBlocked, state, type ShownCase } from './state.js'

export function openCase(data: ShownCase): void {
  state.current = data
  state.drafts = data.criteria.map((item) => ({
    rating: item.prefill?.rating ?? '',
    reason: item.prefill?.reason ?? '',
    span: item.prefill?.answerSpan ?? '',
    carried: item.prefill?.carried === true,
    confirmed: false,
  }))
  // Adjudicating, a criterion every reviewer rated alike starts from their judgement, unless an
  // earlier adoption judged it (it may have overruled them); the form opens on the first disputed one.
  const disputes = disputesOf(data)
  if (disputes !== null)
    data.criteria.forEach((item, index) => {
      const agreed = disputes.agreed.get(item.criterion)
      const draft = state.drafts[index]!
      if (agreed !== undefined && draft.rating === '') state.drafts[index] = { rating: agreed.rating, reason: agreed.reason, span: agreed.answer_span }
    })
  state.active =
    disputes === null
      ? 0
      : Math.max(
          0,
          data.criteria.findIndex((item) => disputes.disputed.includes(item.criterion)),
        )
  state.dirty = false
  state.kept = null
  redraw.case()
  // n asks the server for the next case when it follows the review queue or hands out cases: the next pending one is not read ahead then.
  readAhead(data, { pending: !(isAssigned() || followsQueue()) })
}

/**
 * The save's status line of the case drawn. Every drawing of one case (its save's answer, a change
 * heard on disk) shows the same element, so what a save writes in it stays, whichever comes first.
 */
let statusLine: { key: string; node: HTMLElement } | null = null

/** The status line to draw under the form of `data`: the one already shown for this case, or a new one. */
export function saveStatusLine(data: ShownCase, blocked: string | null): HTMLElement {
  const key = keyOf(data.fixture, data.id)
  if (statusLine?.key !== key) statusLine = { key, node: el('span', { id: 'save-status', role: 'status' }, '') }
  const node = statusLine.node
  if (blocked !== null) {
    node.className = 'error'
    node.textContent = `Cannot be saved now: ${blocked}.`
    node.dataset['blocked'] = ''
  } else if (node.dataset['blocked'] !== undefined) {
    delete node.dataset['blocked']
    node.className = ''
    node.textContent = ''
  }
  return node
}

/** The page shows no case: a case opened again starts with an empty status line. */
export function forgetStatusLine(): void {
  statusLine = null
}

export function setStatus(text: string, kind: 'ok' | 'error', node = document.getElementById('save-status')): void {
  if (node !== null) {
    node.textContent = text
    node.className = kind
  }
}

/**
 * Saves the form. An empty form is never sent; a form that leaves criteria out is sent only once
 * the user confirms it (a key press never does), and for a blind reviewer it does not unblind.
 */
export async function saveReview(confirmed = false): Promise<void> {
  const data = state.current
  if (data === null || mode !== 'serve' || document.getElementById('save') === null || saveBlocked(data) !== null) return
  const draft: Record<string, { rating: string; reason: string; answer_span: string }> = {}
  const left: string[] = []
  const unconfirmed: string[] = []
  data.criteria.forEach((item, index) => {
    const value = state.drafts[index]!
    if (value.rating !== '' && (value.carried !== true || value.confirmed === true))
      draft[item.criterion] = { rating: value.rating, reason: value.reason, answer_span: value.span }
    else left.push(item.criterion)
    if (value.rating !== '' && value.carried === true && value.confirmed !== true) unconfirmed.push(item.criterion)
  })
  if (left.length === data.criteria.length) {
    setStatus(
      unconfirmed.length === 0
        ? 'Nothing to save: no criterion is rated. Rate one with 1, 2 or 3.'
        : `Nothing to save: ${unconfirmed.join(', ')} ${unconfirmed.length === 1 ? 'is' : 'are'} carried over, not confirmed. Tick "carried over, confirm" to keep a judgement, or rate it again.`,
      'error',
    )
    return
  }
  if (left.length > 0 && !confirmed) {
    const blind = state.viewer.role === 'reviewer'
    setStatus(
      `Not saved yet: ${left.join(', ')} ${left.length === 1 ? 'is' : 'are'} not rated${unconfirmed.length === 0 ? '' : ` (${unconfirmed.join(', ')} carried over, not confirmed)`} and would be left out${blind ? '; the other reviews stay hidden until every criterion is rated' : ''}. `,
      'error',
    )
    const anyway = el('button', { type: 'button', id: 'save-anyway' }, 'Save anyway')
    anyway.addEventListener('click', () => void saveReview(true))
    const keep = el('button', { type: 'button', id: 'save-cancel' }, 'Keep reviewing')
    keep.addEventListener('click', () => setStatus('', 'ok'))
    document.getElementById('save-status')?.append(anyway, ' ', keep)
    return
  }
  const adjudicating = state.viewer.role === 'adjudicator'
  const body: SaveRequest = {
    fixture: data.fixture,
    id: data.id,
    draft,
    versions: data.versions,
    replace: data.existing,
    ...(state.viewer.role === 'reviewer' ? { reviewer: state.viewer.name } : {}),
    ...(adjudicating ? { adjudicator: state.viewer.name || 'page' } : {}),
    // The estimate shown is made again with the save, so the overview moves with the sample's review.
    ...(fixtureAt(data.fixture)?.estimate ? { estimate: true } : {}),
    // So is the judges' calibration, only where the overview shows it: each is a pass over every case.
    ...(fixtureAt(data.fixture)?.calibration ? { calibration: true } : {}),
  }
  // The answer is written in this case's status line, even when the page has moved on meanwhile (then it is not seen).
  const line = document.getElementById('save-status')
  setStatus('saving…', 'ok', line)
  try {
    const result = await api<SaveAnswer>(adjudicating ? '/api/adjudicate' : '/api/review', body)
    savedInto(result.fixture)
    // A page that opened another case meanwhile stays on it: the answer's case is not drawn over it.
    if (state.current?.fixture === data.fixture && state.current.id === data.id) openCase(result.case)
    const next = nextPending()
    setStatus(
      `saved: ${result.decision}.${isAssigned() ? ' Press n for your next case.' : followsQueue() ? ' Press n for the next case in the review queue.' : next === null ? ' No pending case is left.' : ' Press n for the next pending case.'}`,
      'ok',
      line,
    )
  } catch (error) {
    // The form is kept: a conflict or a refusal never loses what was typed.
    const conflict = typeof error === 'object' && error !== null && 'code' in error && error.code === 'CASE_CHANGED_MEANWHILE'
    setStatus(`${conflict ? 'not saved: ' : 'refused: '}${messageOf(error)}`, 'error', line)
    if (conflict && state.kept === null) {
      const reread = el('button', { type: 'button', id: 'reread' }, 're-read the case (your form is kept)')
      reread.addEventListener('click', () => void rereadKept())
      line?.append(' ', reread)
    } else if (conflict) line?.append(' What changed is shown above the form.')
  }
}

/** A save's answer: the saved case's row and its fixture's figures, put in place of the old ones. */
function savedInto(saved: SavedFixture): void {
  const fixture = fixtureAt(saved.index)
  if (fixture === null) return
  const { row, estimate, calibration, ...figures } = saved
  const cases = row === null ? fixture.cases : fixture.cases.map((each) => (each.id === row.id ? row : each))
  // An estimate or a calibration the save did not ask for is kept as shown.
  const shown = {
    ...fixture,
    ...figures,
    cases,
    estimate: estimate === undefined ? fixture.estimate : estimate,
    calibration: calibration === undefined ? fixture.calibration : calibration,
  }
  state.fixtures = state.fixtures.map((entry) => (entry.index === saved.index ? shown : entry))
  dataChanged()
}
