import type { Decision, DecisionStatus } from '../contract/decision.js'

/** The statuses, in the order reports list them. */
export const DECISION_STATUSES = ['accepted', 'rejected', 'pending', 'refused'] as const satisfies readonly DecisionStatus[]

/** Whether a decision is graded: accepted or rejected, the cases a quality figure counts. */
export function isGraded(decision: Decision): boolean {
  return decision.status === 'accepted' || decision.status === 'rejected'
}
