import { atLeast, type ScoreCard } from './case-rule.js'
import { formatFigure, formatThreshold } from './dimensions/score.js'
import type { RubricRules } from './rubric.js'

/**
 * The failure text of a case: why it fails, then every dimension with its score (✗ below
 * `per_dimension_pass`, N/A excluded), the computation behind it, and which dimensions are N/A.
 */
export function formatCardFailure(card: ScoreCard, rules: RubricRules): string {
  const { perDimensionPass, overallCasePass } = rules.thresholds
  const failures = card.failures.join('; ')
  const head = card.verdict === 'manual_review' ? `not scoreable: ${failures}` : `fails the per-case rule: ${failures}`
  const mean = card.mean === null ? 'no applicable dimension' : `mean ${formatFigure(card.mean)} of ${card.applicable} applicable dimensions`
  const lines = [head, `  ${mean} (overall_case_pass ${formatThreshold(overallCasePass)}, per_dimension_pass ${formatThreshold(perDimensionPass)})`]
  lines.push(...formatDimensionLines(card, rules).map((line) => `  ${line}`))
  const notApplicable = rules.dimensions.filter((name) => card.dimensions[name]?.score === null)
  lines.push(`  N/A (excluded from the mean): ${notApplicable.length === 0 ? 'none' : notApplicable.join(', ')}`)
  return lines.join('\n')
}

/** One line per dimension: mark, name, score and how it was reached. */
export function formatDimensionLines(card: ScoreCard, rules: RubricRules): string[] {
  const width = Math.max(...rules.dimensions.map((name) => name.length))
  return rules.dimensions.map((name) => {
    const dimension = card.dimensions[name]
    const score = dimension?.score ?? null
    const mark = score === null ? '–' : atLeast(score, rules.thresholds.perDimensionPass) ? '✓' : '✗'
    const shown = score === null ? 'N/A' : formatFigure(score)
    return `${mark} ${name.padEnd(width)}  ${shown.padEnd(6)}  ${dimension?.detail ?? ''}`
  })
}
