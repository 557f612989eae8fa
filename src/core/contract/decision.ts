// What a kind decides of a case: the status every kind shares. Types only, importing no engine module.
import type { SerializedRubricError } from '../common/errors.js'
import type { Split } from '../common/primitives.js'

/**
 * What became of one case. `accepted` and `rejected` are graded decisions; `pending` awaits
 * review and is neither; `refused` is a binding or provenance failure, never a decision.
 */
export type DecisionStatus = 'accepted' | 'rejected' | 'pending' | 'refused'

/** What every decision of every kind says. */
export interface DecisionCommon {
  readonly id: string
  readonly split: Split
  readonly status: DecisionStatus
  /** One line: the failed criteria, the pending reason or the refusal summary. */
  readonly reason: string
}

/** A case decided (accepted or rejected) or waiting for review. */
export interface UnrefusedDecision extends DecisionCommon {
  readonly status: Exclude<DecisionStatus, 'refused'>
}

/** A refused case: its error instead of a decision. */
export interface RefusedDecision extends DecisionCommon {
  readonly status: 'refused'
  /** The error's one-line summary. */
  readonly reason: string
  readonly error: SerializedRubricError
}

/** What every decision of every kind says: a refused one carries its error. */
export type Decision = UnrefusedDecision | RefusedDecision
