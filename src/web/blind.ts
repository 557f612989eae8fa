import type { RubricError } from '../core/common/errors.js'
import type { SomeFixture } from '../core/engine/fixture.js'
import { REVIEWS_DIR } from '../core/engine/panel.js'
import type { ReviewerView } from '../core/engine/panel-rule.js'
import type { Viewer } from './viewer.js'

// What a blind reviewer may see of a case. Until their own review of it is complete (every
// criterion or dimension judged, and not refused), nothing about another reviewer's review, the
// adopted review or a judge's labels: the case is shown with the decision their own review alone
// gives. A partial review does not unblind its reviewer.

/** Whether `view`, one reviewer's review of a case, judges every item and is not refused. */
export function isComplete(view: ReviewerView | undefined, items: readonly string[]): boolean {
  return view !== undefined && view.decision.status !== 'refused' && items.every((item) => Object.hasOwn(view.items, item))
}

/** The fixture with only the independent reviews of the cases in `cases`: what agreement may be computed over. */
export function withReviewsOf(fixture: SomeFixture, cases: ReadonlySet<string>): SomeFixture {
  const reviews = new Map([...fixture.panel.reviews].filter(([id]) => cases.has(id)))
  return { ...fixture, panel: { ...fixture.panel, reviews } }
}

/** The files holding someone's ratings and reasons: an error quoting one may quote those. */
const REVIEW_FILES = /(^|\/)(annotations\.json|adjudications\.json|(reviews|judges)\/[^/]+\.json)$/

/**
 * A refusal as `viewer` may read it. For a blind reviewer, an error in a file of ratings other than
 * their own keeps its place, its summary and its fix, but not what it expected and found, which
 * may quote another reviewer's rating or reason.
 */
export function refusalFor(error: RubricError, viewer: Viewer): string {
  if (viewer.role !== 'reviewer' || error.file === undefined || !REVIEW_FILES.test(error.file)) return error.message
  if (error.file === `${REVIEWS_DIR}/${viewer.name}.json` || error.file.endsWith(`/${REVIEWS_DIR}/${viewer.name}.json`)) return error.message
  return `${error.message.split('\n')[0]}\n  fix:      ${error.hint} (What was found there is not shown to a blind reviewer.)`
}
