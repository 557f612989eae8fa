import type { Coverage } from '../coverage.js'
import type { SerializedRubricError } from '../errors.js'
import type { Split } from './schemas.js'
import type { CriteriaDecision, JudgedCriterion, Ratings } from './decision.js'
import type { CriteriaEvaluation } from './evaluate.js'

/** One case's decision as JSON. */
export interface DecisionRecord {
  readonly status: CriteriaDecision['status']
  readonly split: Split
  readonly reason: string
  readonly ratings: Ratings
  readonly failed?: readonly JudgedCriterion[]
  readonly missing?: readonly string[]
  readonly uncertain?: readonly JudgedCriterion[]
  readonly error?: SerializedRubricError
}

/**
 * The revisions a set of decisions was made from: both identities — the full case set and the
 * graded subset — and the hash of every file.
 */
export interface FixtureIdentities {
  /** Fingerprint of the full case set (the whole `cases.json` document); `null` if a case has no canonical form. */
  readonly caseSetSha256: string | null
  /** Fingerprint of the array of graded cases (accepted or rejected), as they stand in `cases.json`. */
  readonly gradedSetSha256: string | null
  /** SHA-256 of the raw bytes of each fixture file. */
  readonly files: Readonly<Record<string, string>>
}

/** A criteria fixture's evaluation as plain JSON: what `vitest-rubric evaluate --json` prints. */
export interface CriteriaRecord {
  readonly fixture: { readonly kind: 'criteria'; readonly dir: string; readonly name: string; readonly rubric: string; readonly origin: string }
  readonly identities: FixtureIdentities
  readonly coverage: Coverage
  readonly decisions: Readonly<Record<string, DecisionRecord>>
}

export function criteriaRecord(evaluation: CriteriaEvaluation): CriteriaRecord {
  const { fixture } = evaluation
  return {
    fixture: {
      kind: 'criteria',
      dir: fixture.displayDir,
      name: fixture.name,
      rubric: `${fixture.bound.rubric.id}@${fixture.bound.rubric.version}`,
      origin: fixture.origin,
    },
    identities: evaluation.identities,
    coverage: evaluation.coverage,
    decisions: Object.fromEntries(evaluation.decisions.map((decision) => [decision.id, decisionRecord(decision)])),
  }
}

export function decisionRecord(decision: CriteriaDecision): DecisionRecord {
  switch (decision.status) {
    case 'accepted':
      return { status: decision.status, split: decision.split, reason: decision.reason, ratings: decision.ratings }
    case 'rejected':
      return { status: decision.status, split: decision.split, reason: decision.reason, ratings: decision.ratings, failed: decision.failed }
    case 'pending':
      return {
        status: decision.status,
        split: decision.split,
        reason: decision.reason,
        ratings: decision.ratings,
        missing: decision.missing,
        uncertain: decision.uncertain,
        failed: decision.failed,
      }
    case 'refused':
      return { status: decision.status, split: decision.split, reason: decision.reason, ratings: {}, error: decision.error }
  }
}
