import type { SerializedRubricError } from './errors.js'
import type { Split } from './criteria/schemas.js'

/**
 * What became of one case. `accepted` and `rejected` are graded decisions; `pending` awaits
 * review and is neither; `refused` is a binding or provenance failure, never a decision.
 */
export type DecisionStatus = 'accepted' | 'rejected' | 'pending' | 'refused'

/** A refused case: its error instead of a decision. */
export interface RefusedDecision {
  readonly status: 'refused'
  readonly id: string
  readonly split: Split
  /** The error's one-line summary. */
  readonly reason: string
  readonly error: SerializedRubricError
}
