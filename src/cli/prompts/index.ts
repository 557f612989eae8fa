import type { FixtureKind } from '../../core/kinds/index.js'
import { promptCriteriaAdjudication } from './criteria-adjudicate.js'
import { promptCriteriaReview } from './criteria-review.js'
import type { InteractiveAdjudication, InteractiveReview } from './prompt.js'

/**
 * The interactive review of each kind; `undefined` for a kind whose reviews are too structured to
 * ask for one question at a time (a scored review's claims), which is recorded from a file.
 */
export const INTERACTIVE_REVIEW: Readonly<Record<FixtureKind, InteractiveReview | undefined>> = {
  criteria: promptCriteriaReview,
  scored: undefined,
}

/** The interactive adjudication of each kind; `undefined` where a review is adopted whole (`--take`). */
export const INTERACTIVE_ADJUDICATION: Readonly<Record<FixtureKind, InteractiveAdjudication | undefined>> = {
  criteria: promptCriteriaAdjudication,
  scored: undefined,
}
