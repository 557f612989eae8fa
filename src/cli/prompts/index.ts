import type { FixtureKind } from '../../core/registry.js'
import { promptCriteriaAdjudication } from './criteria-adjudicate.js'
import { promptCriteriaReview } from './criteria-review.js'
import type { InteractiveAdjudication, InteractiveReview } from './prompt.js'
import { promptScoredAdjudication } from './scored-adjudicate.js'
import { promptScoredReview } from './scored-review.js'

/**
 * The interactive review of each kind, asked on a terminal when no --rating or --from is given;
 * `undefined` for a kind whose reviews come only from options or a file.
 */
export const INTERACTIVE_REVIEW: Readonly<Record<FixtureKind, InteractiveReview | undefined>> = {
  criteria: promptCriteriaReview,
  scored: promptScoredReview,
}

/**
 * The interactive adjudication of each kind, asked on a terminal when nothing to adopt is given;
 * `undefined` for a kind adjudicated only from options or a file.
 */
export const INTERACTIVE_ADJUDICATION: Readonly<Record<FixtureKind, InteractiveAdjudication | undefined>> = {
  criteria: promptCriteriaAdjudication,
  scored: promptScoredAdjudication,
}
