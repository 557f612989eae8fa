import type { RubricErrorCode } from '../common/errors.js'
import type { Split } from '../common/primitives.js'
import type { DecisionStatus } from '../contract/decision.js'
import { wilsonInterval } from '../stats/intervals.js'
import type { Coverage, CoverageCounts, Outcomes } from '../contract/results.js'

/** The least a decision must say for coverage to be counted from it: a refused one, its error. */
export type CountedDecision =
  | { readonly id: string; readonly split: Split; readonly status: Exclude<DecisionStatus, 'refused'>; readonly reason: string }
  | {
      readonly id: string
      readonly split: Split
      readonly status: 'refused'
      readonly reason: string
      readonly error: { readonly code: RubricErrorCode; readonly message: string }
    }

/** The outcomes of graded cases, with the acceptance rate and its Wilson 95% interval; `null` when nothing was graded. */
export function outcomesOf(accepted: number, rejected: number): Outcomes | null {
  const graded = accepted + rejected
  if (graded === 0) return null
  const interval = wilsonInterval(accepted, graded)!
  return { accepted, rejected, rate: accepted / graded, interval: [interval.low, interval.high] }
}

/** Counts review coverage from a fixture's decisions. */
export function countCoverage(decisions: readonly CountedDecision[]): Coverage {
  const ofSplit = (split: Split) => countOf(decisions.filter((decision) => decision.split === split))
  const splits: Record<Split, CoverageCounts> = { development: ofSplit('development'), held_out: ofSplit('held_out') }
  return {
    ...countOf(decisions),
    pendingCases: decisions.filter((decision) => decision.status === 'pending').map(({ id, split, reason }) => ({ id, split, reason })),
    refusedCases: decisions.flatMap((decision) =>
      decision.status === 'refused' ? [{ id: decision.id, split: decision.split, code: decision.error.code, message: decision.error.message }] : [],
    ),
    splits,
  }
}

function countOf(decisions: readonly CountedDecision[]): CoverageCounts {
  const count: Record<DecisionStatus, number> = { accepted: 0, rejected: 0, pending: 0, refused: 0 }
  for (const decision of decisions) count[decision.status]++
  const graded = count.accepted + count.rejected
  return {
    candidates: decisions.length,
    graded,
    pending: count.pending,
    refused: count.refused,
    outcomes: outcomesOf(count.accepted, count.rejected),
  }
}
