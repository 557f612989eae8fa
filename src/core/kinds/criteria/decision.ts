import type { RefusedDecision } from '../../contract/decision.js'
import type { Split } from '../../common/primitives.js'
import type { Rating } from './schemas.js'

/** Ratings by criterion id, in the rubric's order; only the criteria the review judged. */
export type Ratings = Readonly<Record<string, Rating>>

/** A criterion judged `does_not_meet` (or `uncertain`), with the reviewer's evidence. */
export interface JudgedCriterion {
  readonly criterion: string
  readonly rule: string
  readonly reason: string
  readonly referenceQuote: string
  /** The answer excerpt; `""` for an omission. */
  readonly answerSpan: string
}

/** What every decision of a graded criteria case says: the case, its split and each criterion's rating. */
export interface GradedBase {
  readonly id: string
  readonly split: Split
  readonly ratings: Ratings
}

/** Every criterion judged, none uncertain, all `meets`. */
export interface AcceptedDecision extends GradedBase {
  readonly status: 'accepted'
  readonly reason: ''
}

/** Every criterion judged, none uncertain, at least one `does_not_meet`. */
export interface RejectedDecision extends GradedBase {
  readonly status: 'rejected'
  /** The failed criterion ids, comma-separated, in the rubric's order. */
  readonly reason: string
  readonly failed: readonly JudgedCriterion[]
}

/** No review, a criterion without a judgement, or an `uncertain` rating: not a pass, not a fail. */
export interface PendingDecision extends GradedBase {
  readonly status: 'pending'
  /** `no review`, `missing criterion verification`, `uncertain on support`, … */
  readonly reason: string
  readonly reviewed: boolean
  readonly missing: readonly string[]
  readonly uncertain: readonly JudgedCriterion[]
  /** `does_not_meet` ratings already known: kept in the record, not yet a rejection. */
  readonly failed: readonly JudgedCriterion[]
}

/** The decision of a criteria case: accepted, rejected, pending or refused. */
export type CriteriaDecision = AcceptedDecision | RejectedDecision | PendingDecision | RefusedDecision
