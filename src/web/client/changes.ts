// A fixture edited on disk while the page is open: the server says so over /api/events, and the
// page reads the overview again; a case whose form is being filled in is shown as it is now, with
// the form kept, and a save waits until the user says the form was checked against the change.
import type { VersionAnswer } from '../protocol.js'
import { disputesOf } from './adjudication.js'
import { api, loadOverview, readCase } from './api.js'
import { compareRoute, forgetComparison } from './comparison.js'
import { el, messageOf } from './dom.js'
import { header } from './header.js'
import { mode, redraw, saveBlocked, state, token, type ShownCase } from './state.js'

/**
 * The open case is read again while its form is being filled in: the page shows the case as it is
 * now and keeps the form. A save still sends the versions the form was begun on, so it is refused
 * until the user says the form was checked against what changed.
 */
export async function rereadKept(): Promise<void> {
  const old = state.current
  if (old === null || mode !== 'serve') return
  let fresh: ShownCase
  try {
    fresh = await readCase(old.fixture, old.id)
  } catch (error) {
    state.kept = { changes: [...(state.kept?.changes ?? []), `the case could not be read again (${messageOf(error)})`], versions: null }
    redraw.case()
    return
  }
  if (state.current !== old) return
  const changes = caseChanges(old, fresh)
  if (changes.length === 0) return
  // The drafts follow their criteria, wherever the rubric now puts them.
  const byCriterion = new Map(old.criteria.map((item, index) => [item.criterion, state.drafts[index]!]))
  const activeCriterion = old.criteria[state.active]?.criterion
  // A criterion left empty that the reviewers now agree on starts from their judgement, as when a case is opened.
  const agreed = disputesOf(fresh)?.agreed
  state.drafts = fresh.criteria.map((item) => {
    const draft = byCriterion.get(item.criterion)
    const now = agreed?.get(item.criterion)
    if ((draft === undefined || draft.rating === '') && now !== undefined) return { rating: now.rating, reason: now.reason, span: now.answer_span }
    return draft ?? { rating: '', reason: '', span: '' }
  })
  state.active = Math.max(
    0,
    fresh.criteria.findIndex((item) => item.criterion === activeCriterion),
  )
  const changedVersions = JSON.stringify(fresh.versions) !== JSON.stringify(old.versions)
  state.kept = {
    changes: [...new Set([...(state.kept?.changes ?? []), ...changes])],
    versions: changedVersions ? fresh.versions : (state.kept?.versions ?? null),
  }
  state.current = { ...fresh, versions: old.versions }
  redraw.case()
}

/** What differs between two reads of a case, in a few words each: `the answer`, `bob's review`, `the decision (now refused)`. */
function caseChanges(old: ShownCase, fresh: ShownCase): string[] {
  const changes: string[] = []
  if (old.question !== fresh.question) changes.push('the question')
  if (old.answer !== fresh.answer) changes.push('the answer')
  if (old.source !== fresh.source) changes.push('the source')
  const oldCriteria = new Map(old.criteria.map((item) => [item.criterion, item]))
  const reworded = fresh.criteria
    .filter((item) => {
      const before = oldCriteria.get(item.criterion)
      return before === undefined || before.rule !== item.rule || before.referenceQuote !== item.referenceQuote
    })
    .map((item) => item.criterion)
  const removed = old.criteria.filter((item) => !fresh.criteria.some((now) => now.criterion === item.criterion)).map((item) => item.criterion)
  if (reworded.length + removed.length > 0) changes.push(`the rubric (${[...reworded, ...removed].join(', ')})`)
  const judged = (data: ShownCase) => JSON.stringify(data.criteria.map((item) => [item.criterion, item.rating, item.reason, item.answerSpan]))
  if (judged(old) !== judged(fresh)) changes.push(fresh.shows === 'own' ? 'your review' : 'the adopted review')
  const reviews = (data: ShownCase) =>
    new Map(data.reviewers === 'hidden' ? [] : data.reviewers.map((review) => [review.reviewer, JSON.stringify(review.judgements)]))
  const before = reviews(old)
  const now = reviews(fresh)
  for (const [reviewer, judgements] of now) {
    const earlier = before.get(reviewer)
    if (earlier === undefined) changes.push(`${reviewer}'s review (new)`)
    else if (earlier !== judgements) changes.push(`${reviewer}'s review`)
  }
  for (const reviewer of before.keys()) if (!now.has(reviewer)) changes.push(`${reviewer}'s review (withdrawn)`)
  const labels = (data: ShownCase) => JSON.stringify(data.judges)
  if (labels(old) !== labels(fresh)) changes.push('the judges’ labels')
  // The decision itself is drawn above: a few words say that it moved.
  if (old.decision.status !== fresh.decision.status) changes.push(`the decision (now ${fresh.decision.status})`)
  else if (old.decision.reason !== fresh.decision.reason) changes.push(`why it is ${fresh.decision.status}`)
  return changes
}

/** Above a form kept over a change on disk: what changed, and how to save from here, or why the form cannot be saved now. */
export function keptNotice(data: ShownCase): HTMLElement {
  const kept = state.kept!
  const notice = el(
    'div',
    { class: 'kept', id: 'kept', role: 'alert' },
    el('strong', {}, 'Changed on disk while you filled in the form: '),
    `${kept.changes.join('; ')}. The page shows the case as it is now; your form is kept as you left it.`,
  )
  const blocked = saveBlocked(data)
  if (blocked !== null) notice.append(` It cannot be saved now: ${blocked}.`)
  else if (kept.versions !== null) {
    const checked = el('button', { type: 'button', id: 'kept-checked' }, 'My form is checked: save over this version')
    checked.addEventListener('click', () => {
      data.versions = kept.versions!
      kept.versions = null
      redraw.case()
    })
    notice.append(' Check your form against it; until you say so, a save is refused. ', checked)
  }
  return notice
}

/** The server says a fixture changed (and nothing of what): its version is compared, and the overview read again. */
async function changed(): Promise<void> {
  try {
    const { versions } = await api<VersionAnswer>('/api/version')
    const edited = state.fixtures.filter((entry, index) => versions[index] !== entry.version)
    const changed = edited.map((entry) => entry.dir)
    if (changed.length > 0) {
      await loadOverview()
      state.notice = `Re-read from disk: ${changed.join(', ')} changed.${state.dirty ? ' Your form is kept.' : ''}`
      // The comparison view is read again, and stays open.
      if (compareRoute() !== null) {
        forgetComparison()
        await redraw.page()
      } else if (state.current !== null && !state.dirty) {
        // The case is drawn as it is now, with its status line (the answer to the save just made, often the change heard).
        await redraw.page()
      } else if (state.current === null) redraw.overview()
      else {
        const bar = document.querySelector('header.bar')
        if (bar !== null) bar.replaceWith(header())
        // The case is shown as it is now, beside the form kept as it was.
        const current = state.current
        if (edited.some((entry) => entry.index === current.fixture)) await rereadKept()
      }
    }
  } catch {
    // the server stopped: keep the page as it is
  }
}

/** Changes are pushed by the server, not polled: an idle page sends nothing. */
export function listen(): void {
  const events = new EventSource(`/api/events?token=${encodeURIComponent(token)}`)
  let checking = Promise.resolve()
  events.addEventListener('changed', () => {
    checking = checking.then(changed)
  })
  // Reconnected after the server was away: what changed meanwhile was not heard.
  events.addEventListener('open', () => {
    if (state.fixtures.length > 0) checking = checking.then(changed)
  })
}
