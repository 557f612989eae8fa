import { fixtureHistory, carriedOver } from '../fixture-history.js'
import { REVIEWS_DIR } from '../panel.js'
import type { KindRegistry } from '../registry.js'
import { FixtureRevision } from '../revision.js'
import { checkReviewer, refuseCaseTwin } from './authors.js'
import { refuseDirectReview } from './refusals.js'
import { reviewTarget, type ReviewTarget } from './target.js'

// What an interactive front end opens before it asks a reviewer anything: the case to review, and,
// of a review being replaced, what of it may be carried over (from the fixture's git history).

/** Opens a fixture and finds the case (and slot) to review, refusing what cannot be reviewed now. */
export async function openReviewTarget(
  kinds: KindRegistry,
  dir: string,
  caseId: string,
  slot: string | undefined,
  cwd: string,
  reviewer?: string,
): Promise<ReviewTarget> {
  // A judge's labels come from its own run (--from, --rating): there is no interactive judge.
  const { base } = await FixtureRevision.open(kinds, dir, cwd)
  const name = reviewer === undefined ? undefined : checkReviewer(reviewer, '--reviewer')
  refuseCaseTwin(base.fixture, name, REVIEWS_DIR, '--reviewer')
  const target = reviewTarget(base, caseId, slot, name)
  if (reviewer === undefined) refuseDirectReview(target)
  if (target.existing === undefined) return target
  const existing = { ...target.existing, slot: target.slot, file: target.file }
  return { ...target, carried: carriedOver(base.fixture, target.entry, existing, await fixtureHistory(base.fixture, [existing])) }
}
