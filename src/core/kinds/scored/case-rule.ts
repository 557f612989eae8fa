import { plural } from '../../common/primitives.js'
import type { DimensionName } from './dimensions/index.js'
import { formatFigure, formatThreshold, mean, type DimensionScore } from './dimensions/score.js'
import type { RubricRules } from './rubric.js'

/**
 * Scores are sums and quotients of binary fractions: a mean that is exactly 0.65 on paper can come
 * out as 0.6499999999999999. Comparisons with a threshold allow this much rounding error.
 */
export const TOLERANCE = 1e-9

/** `value ≥ threshold`, allowing {@link TOLERANCE} for floating-point rounding. */
export function atLeast(value: number, threshold: number): boolean {
  return value >= threshold - TOLERANCE
}

/** What the per-case rule makes of a case for one system. */
export type CaseVerdict = 'pass' | 'fail' | 'manual_review'

/** One system's scores on one case, with the per-case rule applied. */
export interface ScoreCard {
  /** Every dimension of the rubric, in its order; `score: null` for N/A. */
  readonly dimensions: Readonly<Record<string, DimensionScore>>
  /** How many dimensions are applicable (not N/A). */
  readonly applicable: number
  /** The mean of the applicable dimensions; `null` when none is applicable. */
  readonly mean: number | null
  readonly verdict: CaseVerdict
  /** Why the case fails, or why it needs manual review; empty when it passes. */
  readonly failures: readonly string[]
}

/**
 * The per-case rule. A case with fewer than the rubric's minimum of applicable dimensions is not
 * scoreable: it goes to manual review, whatever its scores. Otherwise it passes when the mean of
 * its applicable dimensions is at least `overall_case_pass` and none of them is below
 * `per_dimension_pass`. The rule's "(i.e., no dimension may be zero)" is read as an illustration:
 * the threshold is the rule, so 0.375 fails against 0.5 although it is not zero.
 */
export function applyCaseRule(scores: Readonly<Record<DimensionName, DimensionScore>>, rules: RubricRules): ScoreCard {
  const dimensions = Object.fromEntries(rules.dimensions.map((name) => [name, scores[name]]))
  const applicable = rules.dimensions.filter((name) => scores[name].score !== null)
  const values = applicable.map((name) => scores[name].score ?? 0)
  if (applicable.length < leastApplicable(rules)) {
    return {
      dimensions,
      applicable: applicable.length,
      mean: values.length === 0 ? null : mean(values),
      verdict: 'manual_review',
      failures: [manualReviewReason(applicable.length, rules)],
    }
  }
  const caseMean = mean(values)
  const { perDimensionPass, overallCasePass } = rules.thresholds
  const failures: string[] = []
  for (const name of applicable) {
    const score = scores[name].score ?? 0
    if (!atLeast(score, perDimensionPass)) {
      failures.push(`${name} ${formatFigure(score)} is below per_dimension_pass ${formatThreshold(perDimensionPass)}`)
    }
  }
  if (!atLeast(caseMean, overallCasePass)) {
    failures.push(`mean ${formatFigure(caseMean)} is below overall_case_pass ${formatThreshold(overallCasePass)}`)
  }
  return { dimensions, applicable: applicable.length, mean: caseMean, verdict: failures.length === 0 ? 'pass' : 'fail', failures }
}

/**
 * The fewest applicable dimensions that make a case scoreable: the rubric's minimum, and never
 * fewer than one, since a case with no applicable dimension has no score to pass or fail on.
 */
function leastApplicable(rules: RubricRules): number {
  return Math.max(1, rules.minApplicable)
}

/** `manual review: only 3 of 6 dimensions applicable (at least 4 needed)`. */
export function manualReviewReason(applicable: number, rules: RubricRules): string {
  return `manual review: only ${applicable} of ${plural(rules.dimensions.length, 'dimension')} applicable (at least ${leastApplicable(rules)} needed)`
}

/** The one-line summary of a card: why it fails, why it awaits manual review, or its passing mean. */
export function summarizeCard(card: ScoreCard, rules: RubricRules): string {
  if (card.verdict !== 'pass') return card.failures.join('; ')
  return `mean ${formatFigure(card.mean ?? 0)} of ${card.applicable} applicable dimensions; none below ${formatThreshold(rules.thresholds.perDimensionPass)}`
}
