import type { Split } from '../../common/primitives.js'
import type { RefusedDecision } from '../../contract/decision.js'
import type { SerializedRubricError } from '../../common/errors.js'
import type { ScoreCard } from './case-rule.js'

/**
 * What became of the trivial baseline on one case. It never decides the case's own status (the
 * case tests the debate system); it feeds the baseline comparison, which a missing or refused
 * baseline review leaves undecided.
 */
export type BaselineOutcome =
  | { readonly status: 'scored'; readonly card: ScoreCard }
  | { readonly status: 'not_reviewed' }
  | { readonly status: 'refused'; readonly reason: string; readonly error: SerializedRubricError }

/** What every decision of a scored case says: the case, its split and the baseline's outcome. */
export interface CaseBase {
  readonly id: string
  readonly split: Split
  readonly baseline: BaselineOutcome
}

/** Scoreable, mean ≥ `overall_case_pass`, no applicable dimension below `per_dimension_pass`. */
export interface PassedCaseDecision extends CaseBase {
  readonly status: 'accepted'
  /** `mean 0.95 of 5 applicable dimensions; none below 0.50`. */
  readonly reason: string
  readonly card: ScoreCard
}

/** Scoreable, and the per-case rule fails. */
export interface FailedCaseDecision extends CaseBase {
  readonly status: 'rejected'
  /** Each failure, `; `-separated: `defense_calibration 0.375 is below per_dimension_pass 0.50`. */
  readonly reason: string
  readonly card: ScoreCard
}

/** Not scoreable (manual review, with its card) or not reviewed (no card): never a pass, never a fail. */
export interface PendingCaseDecision extends CaseBase {
  readonly status: 'pending'
  /** `manual review: only 2 of 6 dimensions applicable (at least 4 needed)` or `no review`. */
  readonly reason: string
  /** `null` when the debate system has no review. */
  readonly card: ScoreCard | null
}

/** A binding or provenance failure of the case or of its debate review. */
export interface RefusedCaseDecision extends RefusedDecision {
  readonly baseline: BaselineOutcome
}

/** One case of a scored fixture, decided for the debate system, with the baseline beside it. */
export type ScoredDecision = PassedCaseDecision | FailedCaseDecision | PendingCaseDecision | RefusedCaseDecision
