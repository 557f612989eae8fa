import type { Split } from '../common/primitives.js'
import { outcomesOf, type CountedDecision } from './coverage.js'
import type { Coverage, CoverageCounts } from '../contract/results.js'
import type { DecisionStatus } from '../contract/decision.js'

type Counts = Record<DecisionStatus, number>

const SPLITS = ['development', 'held_out'] as const satisfies readonly Split[]

/**
 * Review coverage kept up to date one decision at a time: a decision decided again is taken out
 * and its successor added, so that the counts of a fixture of 100,000 cases move by one case, not
 * by a recount. {@link coverage} gives exactly what {@link countCoverage} gives for the same decisions.
 */
export class CoverageTally {
  private readonly counts: Record<Split, Counts> = { development: empty(), held_out: empty() }

  add(decision: CountedDecision): void {
    this.counts[decision.split][decision.status]++
  }

  remove(decision: CountedDecision): void {
    this.counts[decision.split][decision.status]--
  }

  /** The coverage of `decisions`, which must be the decisions added and not removed, in the order of `cases.json`. */
  coverage(decisions: readonly CountedDecision[]): Coverage {
    return this.coverageListing({
      pendingCases: decisions.filter((decision) => decision.status === 'pending').map(({ id, split, reason }) => ({ id, split, reason })),
      refusedCases: decisions.flatMap((decision) =>
        decision.status === 'refused' ? [{ id: decision.id, split: decision.split, code: decision.error.code, message: decision.error.message }] : [],
      ),
    })
  }

  /** The coverage of the decisions added and not removed, whose pending and refused cases are `lists`. */
  coverageListing(lists: Pick<Coverage, 'pendingCases' | 'refusedCases'>): Coverage {
    const all = empty()
    for (const split of SPLITS) for (const status of STATUSES) all[status] += this.counts[split][status]
    return {
      ...countsOf(all),
      pendingCases: lists.pendingCases,
      refusedCases: lists.refusedCases,
      splits: { development: countsOf(this.counts.development), held_out: countsOf(this.counts.held_out) },
    }
  }
}

const STATUSES = ['accepted', 'rejected', 'pending', 'refused'] as const satisfies readonly DecisionStatus[]

function empty(): Counts {
  return { accepted: 0, rejected: 0, pending: 0, refused: 0 }
}

function countsOf(count: Counts): CoverageCounts {
  const graded = count.accepted + count.rejected
  return {
    candidates: graded + count.pending + count.refused,
    graded,
    pending: count.pending,
    refused: count.refused,
    outcomes: outcomesOf(count.accepted, count.rejected),
  }
}
