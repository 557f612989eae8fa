import type { PlannedCase, PlannedCheck, TestPlan } from '../plan.js'
import type { ScoreCard } from './case-rule.js'
import type { ScoredDecision } from './decision.js'
import { formatThreshold } from './dimensions/score.js'
import type { ScoredEvaluation } from './evaluate.js'
import { formatCardFailure } from './messages.js'
import type { RubricRules } from './rubric.js'

/** The name of the benchmark gate's test. */
export const BENCHMARK_CHECK = 'benchmark passes'

/** The name of the baseline comparison's test, with the margin read from the rubric: `beats the trivial baseline by ≥ 0.10`. */
export function baselineCheckName(rules: RubricRules): string {
  return `beats the trivial baseline by ≥ ${formatThreshold(rules.baselineMargin)}`
}

/**
 * The tests of a scored fixture: one per case (passed, failed, todo for manual review or no review,
 * failed with the error when refused), the benchmark gate and the baseline comparison, and the
 * benchmark figures for the reporter.
 */
export function planScoredTests(evaluation: ScoredEvaluation): TestPlan {
  const { fixture, benchmark } = evaluation
  const { rules } = fixture.rubric
  const checks: PlannedCheck[] = [
    { name: BENCHMARK_CHECK, ok: benchmark.gates.benchmark.passed, message: benchmark.gates.benchmark.message },
    { name: baselineCheckName(rules), ok: benchmark.gates.baseline.passed, message: benchmark.gates.baseline.message },
  ]
  return {
    kind: 'scored',
    dir: fixture.displayDir,
    name: fixture.name,
    coverage: evaluation.coverage,
    identities: evaluation.identities,
    cases: evaluation.decisions.map((decision) => planCase(decision, rules)),
    checks,
    benchmark,
  }
}

function planCase(decision: ScoredDecision, rules: RubricRules): PlannedCase {
  const base = { id: decision.id, split: decision.split, status: decision.status, reason: decision.reason }
  switch (decision.status) {
    case 'accepted':
      return { ...base, scores: scoresOf(decision.card) }
    case 'rejected':
      return { ...base, scores: scoresOf(decision.card), message: formatCardFailure(decision.card, rules) }
    case 'pending':
      return decision.card === null ? base : { ...base, scores: scoresOf(decision.card) }
    case 'refused':
      return { ...base, message: decision.error.message }
  }
}

/** Scores by dimension, in the rubric's order; `null` for N/A. */
export function scoresOf(card: ScoreCard): Record<string, number | null> {
  return Object.fromEntries(Object.entries(card.dimensions).map(([name, dimension]) => [name, dimension.score]))
}
