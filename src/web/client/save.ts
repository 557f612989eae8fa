// Opening a case into the form, and saving the form: a review, a revision or an adoption.
import { followsQueue, isAssigned } from './assignment.js'
import type { SaveAnswer, SaveRequest, SavedFixture } from '../save-protocol.js'
import { disputesOf } from './adjudication.js'
import { api, readAhead } from './api.js'
import { rereadKept } from './changes.js'
import { el, messageOf } from './dom.js'
import { dataChanged, fixtureAt, mode, nextPending, redraw, saveBlocked, state, type ShownCase } from './state.js'

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

export function setStatus(text: string, kind: 'ok' | 'error'): void {
  const node = document.getElementById('save-status')
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
  setStatus('saving…', 'ok')
  try {
    const result = await api<SaveAnswer>(adjudicating ? '/api/adjudicate' : '/api/review', body)
    savedInto(result.fixture)
    openCase(result.case)
    const next = nextPending()
    setStatus(
      `saved: ${result.decision}.${isAssigned() ? ' Press n for your next case.' : followsQueue() ? ' Press n for the next case in the review queue.' : next === null ? ' No pending case is left.' : ' Press n for the next pending case.'}`,
      'ok',
    )
  } catch (error) {
    // The form is kept: a conflict or a refusal never loses what was typed.
    const conflict = typeof error === 'object' && error !== null && 'code' in error && error.code === 'CASE_CHANGED_MEANWHILE'
    setStatus(`${conflict ? 'not saved: ' : 'refused: '}${messageOf(error)}`, 'error')
    if (conflict && state.kept === null) {
      const reread = el('button', { type: 'button', id: 'reread' }, 're-read the case (your form is kept)')
      reread.addEventListener('click', () => void rereadKept())
      document.getElementById('save-status')?.append(' ', reread)
    } else if (conflict) document.getElementById('save-status')?.append(' What changed is shown above the form.')
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
