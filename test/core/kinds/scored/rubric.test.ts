import { describe, expect, test } from 'vitest'
import { sha256Hex } from '../../../../src/core/json/canonical-json.js'
import { loadFixtureOfKind } from '../../../helpers/load-kind.js'
import { bindEdited, bindText, DEBATE, RUBRIC_BYTES, RUBRIC_TEXT } from './rubric-file.js'

describe('evaluation_rubric.json', () => {
  test("the bundled file is the specification's rubric, byte for byte, without a final newline", () => {
    expect(sha256Hex(RUBRIC_BYTES)).toBe('be89f77dd9c03442e7f5333d6dcf1b906512792f030048390e7a9bc66309c0e0')
    expect(RUBRIC_TEXT.endsWith('}')).toBe(true)
  })

  test('every rule and figure is read from the file', async () => {
    const bound = bindText(RUBRIC_TEXT)
    expect((await loadFixtureOfKind('scored', DEBATE)).files.rubric!.sha256).toBe('be89f77dd9c03442e7f5333d6dcf1b906512792f030048390e7a9bc66309c0e0')
    expect(bound.rules).toEqual({
      dimensions: [
        'issue_discovery_recall',
        'issue_discovery_precision',
        'defense_calibration',
        'debate_resolution_quality',
        'empirical_test_diagnosticity',
        'final_verdict_correctness',
      ],
      thresholds: { perDimensionPass: 0.5, overallCasePass: 0.65, benchmarkPassFraction: 0.75 },
      minApplicable: 4,
      baselineMargin: 0.1,
    })
  })

  test('other thresholds in the file are other rules', () => {
    const bound = bindEdited((rubric) => {
      rubric.score_thresholds = { per_dimension_pass: 0.25, overall_case_pass: 0.8, benchmark_pass_fraction: 0.5 }
      rubric['pass_fail_rule'] = String(rubric['pass_fail_rule']).replace('at least 4 of the 6', 'at least 3 of the 6')
      rubric['trivial_baseline_definition'] = String(rubric['trivial_baseline_definition']).replace('by >= 0.10', 'by >= 0.2')
    })
    expect(bound.rules).toMatchObject({
      thresholds: { perDimensionPass: 0.25, overallCasePass: 0.8, benchmarkPassFraction: 0.5 },
      minApplicable: 3,
      baselineMargin: 0.2,
    })
  })

  test('the dimensions are those the file names, in its order', () => {
    const bound = bindEdited((rubric) => {
      const { final_verdict_correctness: verdict, ...rest } = rubric.scoring_dimensions
      rubric.scoring_dimensions = { final_verdict_correctness: verdict, ...rest }
    })
    expect(bound.rules.dimensions[0]).toBe('final_verdict_correctness')
  })

  test('an unknown dimension is refused', () => {
    expect(() =>
      bindEdited((rubric) => {
        rubric.scoring_dimensions['tone'] = 'How polite the critique is.'
      }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: evaluation_rubric.json › scoring_dimensions › tone: the rubric names a dimension this package cannot compute.
        expected: one of "issue_discovery_recall", "issue_discovery_precision", "defense_calibration", "debate_resolution_quality", "empirical_test_diagnosticity", "final_verdict_correctness"
        found:    "tone"
        fix:      correct the dimension name; a dimension with another definition needs its computation added to vitest-rubric first.]
    `)
  })

  test('a missing threshold is refused', () => {
    expect(() =>
      bindEdited((rubric) => {
        delete rubric.score_thresholds['overall_case_pass']
      }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: evaluation_rubric.json › score_thresholds › overall_case_pass: a required value is missing.
        expected: a number
        found:    nothing (the key is missing)
        fix:      an evaluation rubric holds scoring_dimensions (name → definition), pass_fail_rule, score_thresholds { per_dimension_pass, overall_case_pass, benchmark_pass_fraction } (numbers in 0..1), trivial_baseline_definition and optional notes.]
    `)
  })

  test('thresholds of exactly 0 and 1 are in range', () => {
    const bound = bindEdited((rubric) => {
      rubric.score_thresholds = { per_dimension_pass: 0, overall_case_pass: 1, benchmark_pass_fraction: 1 }
    })
    expect(bound.rules.thresholds).toEqual({ perDimensionPass: 0, overallCasePass: 1, benchmarkPassFraction: 1 })
    expect(() =>
      bindEdited((rubric) => {
        rubric.score_thresholds['per_dimension_pass'] = -0.01
      }),
    ).toThrow(/score_thresholds › per_dimension_pass: the value breaks a rule of the format\.\n {2}expected: a number from 0 to 1/)
  })

  test('an unknown threshold or one outside 0..1 is refused', () => {
    expect(() =>
      bindEdited((rubric) => {
        rubric.score_thresholds['per_case_pass'] = 0.6
      }),
    ).toThrow(/score_thresholds: unexpected key "per_case_pass"/)
    expect(() =>
      bindEdited((rubric) => {
        rubric.score_thresholds['benchmark_pass_fraction'] = 75
      }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: evaluation_rubric.json › score_thresholds › benchmark_pass_fraction: the value breaks a rule of the format.
        expected: a number from 0 to 1
        found:    75
        fix:      an evaluation rubric holds scoring_dimensions (name → definition), pass_fail_rule, score_thresholds { per_dimension_pass, overall_case_pass, benchmark_pass_fraction } (numbers in 0..1), trivial_baseline_definition and optional notes.]
    `)
  })

  test('a scoreable minimum that the rule no longer states is refused, not assumed', () => {
    expect(() =>
      bindEdited((rubric) => {
        rubric['pass_fail_rule'] = 'A case passes when its mean is high enough.'
      }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: evaluation_rubric.json › pass_fail_rule: the pass/fail rule does not state how many dimensions make a case scoreable.
        expected: the phrase "at least N of the M dimensions are applicable"
        found:    "A case passes when its mean is high enough."
        fix:      keep that phrase in pass_fail_rule: the program reads the scoreable minimum from it rather than assuming one.]
    `)
  })

  test('a rule that counts another number of dimensions than the file names is refused', () => {
    expect(() =>
      bindEdited((rubric) => {
        delete rubric.scoring_dimensions['empirical_test_diagnosticity']
      }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: evaluation_rubric.json › pass_fail_rule: the pass/fail rule asks for at least 4 of 6 dimensions, but scoring_dimensions names 5.
        expected: "at least N of the 5 dimensions are applicable" with 1 ≤ N ≤ 5
        found:    "at least 4 of the 6 dimensions are applicable"
        fix:      make the rule and scoring_dimensions agree.]
    `)
  })

  test('the scoreable minimum runs from 1 to the number of dimensions', () => {
    const minimum = (least: number) =>
      bindEdited((rubric) => {
        rubric['pass_fail_rule'] = String(rubric['pass_fail_rule']).replace('at least 4 of the 6', `at least ${least} of the 6`)
      }).rules.minApplicable
    expect(minimum(1)).toBe(1)
    expect(minimum(6)).toBe(6)
    expect(() => minimum(0)).toThrow('the pass/fail rule asks for at least 0 of 6 dimensions, but scoring_dimensions names 6.')
    expect(() => minimum(7)).toThrow('the pass/fail rule asks for at least 7 of 6 dimensions, but scoring_dimensions names 6.')
  })

  test('the baseline margin may be written with ≥ and without a space', () => {
    const margin = (phrase: string) =>
      bindEdited((rubric) => {
        rubric['trivial_baseline_definition'] = String(rubric['trivial_baseline_definition']).replace('by >= 0.10', phrase)
      }).rules.baselineMargin
    expect(margin('by ≥ 0.15')).toBe(0.15)
    expect(margin('by >=0.2')).toBe(0.2)
    expect(margin('by >= 1')).toBe(1)
  })

  test('a rubric without a dimension is refused', () => {
    expect(() =>
      bindEdited((rubric) => {
        rubric.scoring_dimensions = {}
      }),
    ).toThrow(/evaluation_rubric\.json › scoring_dimensions: the value breaks a rule of the format\.\n {2}expected: at least one dimension/)
  })

  test('a baseline margin that the definition no longer states is refused', () => {
    expect(() =>
      bindEdited((rubric) => {
        rubric['trivial_baseline_definition'] = 'The debate system must beat the baseline.'
      }),
    ).toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: evaluation_rubric.json › trivial_baseline_definition: the baseline definition does not state the margin by which the system must beat the baseline.
        expected: the phrase "exceed the baseline mean score by >= X"
        found:    "The debate system must beat the baseline."
        fix:      keep that phrase in trivial_baseline_definition: the program reads the margin from it rather than assuming one.]
    `)
  })

  test('malformed JSON is refused with its line and column', () => {
    expect(() => bindText(RUBRIC_TEXT.replace('"notes":', '"notes"'))).toThrow(/evaluation_rubric\.json: the file is not valid JSON \(line \d+, column \d+\)/)
  })
})
