import type { Coverage } from '../coverage.js'
import type { FixtureIdentities } from '../criteria/record.js'
import type { Split } from '../criteria/schemas.js'
import type { DecisionStatus } from '../decision.js'
import type { SerializedRubricError } from '../errors.js'
import type { BenchmarkFigures } from './benchmark.js'
import type { CaseVerdict, ScoreCard } from './case-rule.js'
import type { BaselineOutcome, ScoredDecision } from './decision.js'
import type { ScoredEvaluation } from './evaluate.js'
import { scoresOf } from './plan.js'

/** One system's card as JSON; every field `null` (and no failures) when there is no card. */
export interface CardRecord {
  /** What the per-case rule makes of the case: `pass`, `fail` or `manual_review`. */
  readonly verdict: CaseVerdict | null
  /** Scores by dimension, in the rubric's order; `null` for N/A. */
  readonly scores: Readonly<Record<string, number | null>> | null
  readonly mean: number | null
  readonly applicable: number | null
  /** How each score was reached, or why it is N/A. */
  readonly details: Readonly<Record<string, string>> | null
  readonly failures: readonly string[]
}

/** The baseline on one case as JSON. */
export type BaselineRecord =
  | ({ readonly status: 'scored' } & CardRecord)
  | { readonly status: 'not_reviewed' }
  | { readonly status: 'refused'; readonly reason: string; readonly error: SerializedRubricError }

/** One case as JSON: the debate system's decision and card, the baseline beside it. */
export interface ScoredCaseRecord extends CardRecord {
  readonly status: DecisionStatus
  readonly split: Split
  readonly reason: string
  readonly baseline: BaselineRecord
  readonly error?: SerializedRubricError
}

/** A scored fixture's evaluation as plain JSON: what `vitest-rubric evaluate --json` prints. */
export interface ScoredRecord {
  readonly fixture: { readonly kind: 'scored'; readonly dir: string; readonly name: string; readonly rubric: string; readonly origin: string }
  readonly identities: FixtureIdentities
  readonly coverage: Coverage
  readonly decisions: Readonly<Record<string, ScoredCaseRecord>>
  readonly benchmark: BenchmarkFigures
}

/** A scored evaluation as the JSON record `vitest-rubric evaluate --json` prints. */
export function scoredRecord(evaluation: ScoredEvaluation): ScoredRecord {
  const { fixture } = evaluation
  return {
    fixture: {
      kind: 'scored',
      dir: fixture.displayDir,
      name: fixture.name,
      rubric: `evaluation_rubric.json@sha256:${fixture.rubric.sha256.slice(0, 12)}`,
      origin: fixture.origin,
    },
    identities: evaluation.identities,
    coverage: evaluation.coverage,
    decisions: Object.fromEntries(evaluation.decisions.map((decision) => [decision.id, scoredCaseRecord(decision)])),
    benchmark: evaluation.benchmark,
  }
}

/** One case's decision as JSON, with `null` for every score it has not got. */
export function scoredCaseRecord(decision: ScoredDecision): ScoredCaseRecord {
  const base = { status: decision.status, split: decision.split, reason: decision.reason }
  const baseline = baselineRecord(decision.baseline)
  if (decision.status === 'refused') return { ...base, ...cardRecord(null), baseline, error: decision.error }
  return { ...base, ...cardRecord(decision.card), baseline }
}

function baselineRecord(outcome: BaselineOutcome): BaselineRecord {
  switch (outcome.status) {
    case 'scored':
      return { status: 'scored', ...cardRecord(outcome.card) }
    case 'not_reviewed':
      return { status: 'not_reviewed' }
    case 'refused':
      return { status: 'refused', reason: outcome.reason, error: outcome.error }
  }
}

function cardRecord(card: ScoreCard | null): CardRecord {
  if (card === null) return { verdict: null, scores: null, mean: null, applicable: null, details: null, failures: [] }
  return {
    verdict: card.verdict,
    scores: scoresOf(card),
    mean: card.mean,
    applicable: card.applicable,
    details: Object.fromEntries(Object.entries(card.dimensions).map(([name, dimension]) => [name, dimension.detail])),
    failures: card.failures,
  }
}
