import { describe, expect, test } from 'vitest'
import { applyCaseRule, atLeast, TOLERANCE } from '../../../../src/core/kinds/scored/case-rule.js'
import type { DimensionName } from '../../../../src/core/kinds/scored/dimensions/index.js'
import type { DimensionScore } from '../../../../src/core/kinds/scored/dimensions/score.js'
import { bindEdited, bindText, RUBRIC_TEXT } from './rubric-file.js'

const { rules } = bindText(RUBRIC_TEXT)

type Scores = [
  recall: number | null,
  precision: number | null,
  calibration: number | null,
  resolution: number | null,
  diagnosticity: number | null,
  verdict: number | null,
]

function card(scores: Scores, rubricRules = rules) {
  const names: DimensionName[] = [
    'issue_discovery_recall',
    'issue_discovery_precision',
    'defense_calibration',
    'debate_resolution_quality',
    'empirical_test_diagnosticity',
    'final_verdict_correctness',
  ]
  const record = Object.fromEntries(
    names.map((name, index): [DimensionName, DimensionScore] => [name, { score: scores[index] ?? null, detail: `authored ${name}` }]),
  ) as Record<DimensionName, DimensionScore>
  return applyCaseRule(record, rubricRules)
}

describe('the per-case rule', () => {
  test('passes with a mean of at least overall_case_pass and no dimension below per_dimension_pass', () => {
    expect(card([1, 1, 0.5, 1, null, 1])).toMatchObject({ verdict: 'pass', applicable: 5, mean: 0.9, failures: [] })
  })

  test('a score equal to per_dimension_pass is not below it', () => {
    expect(card([0.5, 0.5, 1, 1, 0.5, 1]).verdict).toBe('pass')
  })

  test('fails on one dimension below per_dimension_pass although the mean is well above overall_case_pass', () => {
    expect(card([1, 1, 0.375, 1, null, 1])).toMatchObject({
      verdict: 'fail',
      mean: 0.875,
      failures: ['defense_calibration 0.375 is below per_dimension_pass 0.50'],
    })
  })

  test('"(i.e., no dimension may be zero)" is an illustration: a non-zero score below the threshold fails too', () => {
    expect(card([1, 1, 0.25, 1, 1, 1])).toMatchObject({ verdict: 'fail', failures: ['defense_calibration 0.25 is below per_dimension_pass 0.50'] })
    expect(card([1, 1, 1, 1, 0, 1])).toMatchObject({ verdict: 'fail', failures: ['empirical_test_diagnosticity 0 is below per_dimension_pass 0.50'] })
  })

  test('fails on a mean below overall_case_pass although no dimension is below per_dimension_pass', () => {
    expect(card([0.5, 0.5, 0.5, 1, null, 0.5])).toMatchObject({ verdict: 'fail', mean: 0.6, failures: ['mean 0.6 is below overall_case_pass 0.65'] })
  })

  test('lists every reason a case fails', () => {
    expect(card([1, 1, 0, 0, null, 0]).failures).toEqual([
      'defense_calibration 0 is below per_dimension_pass 0.50',
      'debate_resolution_quality 0 is below per_dimension_pass 0.50',
      'final_verdict_correctness 0 is below per_dimension_pass 0.50',
      'mean 0.4 is below overall_case_pass 0.65',
    ])
  })

  test('N/A dimensions are excluded from the mean and from the per-dimension check', () => {
    expect(card([null, 0.5, 1, 1, null, 1])).toMatchObject({ verdict: 'pass', applicable: 4, mean: 0.875 })
  })

  test('a mean that is 0.65 on paper passes although binary floating point makes it 0.6499999999999999', () => {
    const scores: Scores = [0.7, 0.6, 0.65, 0.65, 0.65, 0.65]
    const naive = scores.reduce<number>((sum, score) => sum + (score ?? 0), 0) / scores.length
    expect(naive).toBeLessThan(0.65)
    expect(card(scores)).toMatchObject({ verdict: 'pass', failures: [] })
    expect(atLeast(0.6499999, 0.65)).toBe(false)
  })

  test('a value exactly the tolerance below a threshold is at least the threshold', () => {
    expect(atLeast(0.65 - TOLERANCE, 0.65)).toBe(true)
    expect(atLeast(0.65 - 2 * TOLERANCE, 0.65)).toBe(false)
  })

  test('with fewer applicable dimensions than the rubric requires, a case is not scoreable, whatever its scores', () => {
    expect(card([null, null, null, 1, 1, 1])).toEqual(
      expect.objectContaining({
        verdict: 'manual_review',
        applicable: 3,
        mean: 1,
        failures: ['manual review: only 3 of 6 dimensions applicable (at least 4 needed)'],
      }),
    )
    expect(card([null, null, null, 0, null, 0]).verdict).toBe('manual_review')
  })

  test('exactly the minimum number of applicable dimensions is scoreable', () => {
    expect(card([null, 1, 1, 1, null, 0])).toMatchObject({ verdict: 'fail', applicable: 4 })
    expect(card([null, 1, 1, 1, null, 1]).verdict).toBe('pass')
  })

  test('a case with no applicable dimension is never scoreable, even under rules that ask for none', () => {
    const none = { ...rules, minApplicable: 0 }
    expect(card([null, null, null, null, null, null], none)).toEqual(
      expect.objectContaining({
        verdict: 'manual_review',
        applicable: 0,
        mean: null,
        failures: ['manual review: only 0 of 6 dimensions applicable (at least 1 needed)'],
      }),
    )
    expect(card([null, null, null, null, null, 1], none)).toMatchObject({ verdict: 'pass', applicable: 1, mean: 1 })
  })

  test("the thresholds are the rubric file's: other figures, other outcomes", () => {
    const lenient = bindEdited((rubric) => {
      rubric.score_thresholds = { per_dimension_pass: 0.25, overall_case_pass: 0.6, benchmark_pass_fraction: 0.75 }
      rubric['pass_fail_rule'] = String(rubric['pass_fail_rule']).replace('at least 4 of the 6', 'at least 3 of the 6')
    }).rules
    expect(card([1, 1, 0.375, 1, null, 1], lenient).verdict).toBe('pass')
    expect(card([0.5, 0.5, 0.5, 1, null, 0.5], lenient).verdict).toBe('pass')
    expect(card([null, null, null, 1, 1, 1], lenient).verdict).toBe('pass')
  })
})
