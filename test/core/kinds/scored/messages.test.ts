import { describe, expect, test } from 'vitest'
import { applyCaseRule, summarizeCard } from '../../../../src/core/kinds/scored/case-rule.js'
import { DIMENSION_NAMES, type DimensionName } from '../../../../src/core/kinds/scored/dimensions/index.js'
import { formatFigure, formatThreshold, type DimensionScore } from '../../../../src/core/kinds/scored/dimensions/score.js'
import { formatCardFailure } from '../../../../src/core/kinds/scored/messages.js'
import { bindEdited, bindText, RUBRIC_TEXT } from './rubric-file.js'

const { rules } = bindText(RUBRIC_TEXT)

/** A card from six scores in the rubric's order (`null` for N/A), each with a detail naming it. */
function card(scores: readonly (number | null)[], rubricRules = rules) {
  const record = Object.fromEntries(
    DIMENSION_NAMES.map((name, index): [DimensionName, DimensionScore] => [name, { score: scores[index] ?? null, detail: `detail of ${name}` }]),
  ) as Record<DimensionName, DimensionScore>
  return applyCaseRule(record, rubricRules)
}

describe('formatCardFailure', () => {
  test('a failing card with every dimension applicable: N/A none', () => {
    expect(formatCardFailure(card([1, 1, 0.25, 1, 1, 1]), rules)).toMatchInlineSnapshot(`
      "fails the per-case rule: defense_calibration 0.25 is below per_dimension_pass 0.50
        mean 0.875 of 6 applicable dimensions (overall_case_pass 0.65, per_dimension_pass 0.50)
        ✓ issue_discovery_recall        1       detail of issue_discovery_recall
        ✓ issue_discovery_precision     1       detail of issue_discovery_precision
        ✗ defense_calibration           0.25    detail of defense_calibration
        ✓ debate_resolution_quality     1       detail of debate_resolution_quality
        ✓ empirical_test_diagnosticity  1       detail of empirical_test_diagnosticity
        ✓ final_verdict_correctness     1       detail of final_verdict_correctness
        N/A (excluded from the mean): none"
    `)
  })

  test('a card for manual review says it is not scoreable; with no applicable dimension there is no mean', () => {
    expect(formatCardFailure(card([null, null, null, null, null, null]), rules)).toMatchInlineSnapshot(`
      "not scoreable: manual review: only 0 of 6 dimensions applicable (at least 4 needed)
        no applicable dimension (overall_case_pass 0.65, per_dimension_pass 0.50)
        – issue_discovery_recall        N/A     detail of issue_discovery_recall
        – issue_discovery_precision     N/A     detail of issue_discovery_precision
        – defense_calibration           N/A     detail of defense_calibration
        – debate_resolution_quality     N/A     detail of debate_resolution_quality
        – empirical_test_diagnosticity  N/A     detail of empirical_test_diagnosticity
        – final_verdict_correctness     N/A     detail of final_verdict_correctness
        N/A (excluded from the mean): issue_discovery_recall, issue_discovery_precision, defense_calibration, debate_resolution_quality, empirical_test_diagnosticity, final_verdict_correctness"
    `)
  })

  test("marks a score equal to per_dimension_pass as passing, and follows the rubric's threshold", () => {
    const strict = bindEdited((rubric) => {
      rubric.score_thresholds['per_dimension_pass'] = 0.8
    }).rules
    const lines = formatCardFailure(card([0.5, 0.8, 1, 1, null, 0.75], strict), strict).split('\n')
    expect(lines.slice(2, 8).map((line) => line.slice(0, 4))).toEqual(['  ✗ ', '  ✓ ', '  ✓ ', '  ✓ ', '  – ', '  ✗ '])
    expect(lines[1]).toBe('  mean 0.81 of 5 applicable dimensions (overall_case_pass 0.65, per_dimension_pass 0.80)')
  })
})

describe('formatCardFailure of a card scored under other rules', () => {
  test('a dimension the card lacks is shown without a score or detail, and is not counted N/A', () => {
    const { rules: withoutVerdict } = bindEdited((rubric) => {
      delete rubric.scoring_dimensions['final_verdict_correctness']
      rubric['pass_fail_rule'] = String(rubric['pass_fail_rule']).replace('at least 4 of the 6', 'at least 4 of the 5')
    })
    const lines = formatCardFailure(card([1, 1, 0.25, 1, null, 1], withoutVerdict), rules).split('\n')
    expect(lines.at(-2)).toBe('  – final_verdict_correctness     N/A     ')
    expect(lines.at(-1)).toBe('  N/A (excluded from the mean): empirical_test_diagnosticity')
  })
})

describe('summarizeCard', () => {
  test('a passing card: its mean, how many dimensions apply, the threshold none is below', () => {
    expect(summarizeCard(card([1, 1, 0.5, 1, null, 1]), rules)).toBe('mean 0.9 of 5 applicable dimensions; none below 0.50')
  })

  test('a failing card: every failure', () => {
    expect(summarizeCard(card([1, 0, 0, 1, 1, 1]), rules)).toBe(
      'issue_discovery_precision 0 is below per_dimension_pass 0.50; defense_calibration 0 is below per_dimension_pass 0.50',
    )
  })
})

describe('figures in messages', () => {
  test('formatFigure: at most four decimals, no trailing zeros', () => {
    expect([0.375, 2 / 3, 1, 0, 0.10000000000000002, 0.84735].map(formatFigure)).toEqual(['0.375', '0.6667', '1', '0', '0.1', '0.8474'])
  })

  test('formatThreshold: at least two decimals, more when the threshold has them', () => {
    expect([0.1, 0.65, 0.125, 1, 0, 0.5].map(formatThreshold)).toEqual(['0.10', '0.65', '0.125', '1.00', '0.00', '0.50'])
  })
})
