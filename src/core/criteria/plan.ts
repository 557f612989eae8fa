import type { PlannedCase, TestPlan } from '../plan.js'
import type { CriteriaDecision, JudgedCriterion } from './decision.js'
import type { CriteriaEvaluation } from './evaluate.js'

/** The tests of a criteria fixture: one per case, no fixture-level checks. */
export function planCriteriaTests(evaluation: CriteriaEvaluation): TestPlan {
  const { fixture } = evaluation
  return {
    kind: 'criteria',
    dir: fixture.displayDir,
    name: fixture.name,
    coverage: evaluation.coverage,
    identities: evaluation.identities,
    cases: evaluation.decisions.map(planCase),
    checks: [],
  }
}

function planCase(decision: CriteriaDecision): PlannedCase {
  const base = { id: decision.id, split: decision.split, status: decision.status, reason: decision.reason }
  switch (decision.status) {
    case 'accepted':
    case 'pending':
      return { ...base, ratings: decision.ratings }
    case 'rejected':
      return { ...base, ratings: decision.ratings, message: formatRejection(decision.failed) }
    case 'refused':
      return { ...base, message: decision.error.message }
  }
}

/**
 * The message of a rejected case: each failed criterion with its rule, the reviewer's reason, the
 * criterion's reference quote and the answer span (or that the failure is an omission).
 */
export function formatRejection(failed: readonly JudgedCriterion[]): string {
  const lines = [`rejected: ${failed.length} ${failed.length === 1 ? 'criterion does' : 'criteria do'} not meet the rubric`]
  for (const item of failed) lines.push(...formatJudged(item))
  return lines.join('\n')
}

export function formatJudged(item: JudgedCriterion): string[] {
  return [
    `  ✗ ${item.criterion}: ${item.rule}`,
    `      reason: ${item.reason}`,
    `      quote:  ${JSON.stringify(item.referenceQuote)}`,
    `      span:   ${item.answerSpan === '' ? 'no span: omission' : JSON.stringify(item.answerSpan)}`,
  ]
}
