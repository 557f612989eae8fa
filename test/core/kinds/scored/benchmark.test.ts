import { describe, expect, test } from 'vitest'
import { benchmarkFigures } from '../../../../src/core/kinds/scored/benchmark.js'
import { applyCaseRule, type ScoreCard } from '../../../../src/core/kinds/scored/case-rule.js'
import type { BaselineOutcome, ScoredDecision } from '../../../../src/core/kinds/scored/decision.js'
import { DIMENSION_NAMES, type DimensionName } from '../../../../src/core/kinds/scored/dimensions/index.js'
import type { DimensionScore } from '../../../../src/core/kinds/scored/dimensions/score.js'
import { bindEdited, bindText, RUBRIC_TEXT } from './rubric-file.js'

const { rules } = bindText(RUBRIC_TEXT)

/** A card from six scores in the rubric's order (`null` for N/A). */
function card(scores: readonly (number | null)[]): ScoreCard {
  const record = Object.fromEntries(
    DIMENSION_NAMES.map((name, index): [DimensionName, DimensionScore] => [name, { score: scores[index] ?? null, detail: 'authored' }]),
  ) as Record<DimensionName, DimensionScore>
  return applyCaseRule(record, rules)
}

const PASS = [1, 1, 1, 1, null, 1] // mean 1
const FAIL = [1, 1, 0, 1, null, 1] // mean 0.8, calibration 0
const UNSCOREABLE = [null, null, null, 1, null, 1]

function scored(baseline: readonly (number | null)[] = PASS): BaselineOutcome {
  return { status: 'scored', card: card(baseline) }
}

let next = 0
function decided(scores: readonly (number | null)[], baseline: BaselineOutcome = scored()): ScoredDecision {
  const theCard = card(scores)
  const id = `case-${++next}`
  const base = { id, split: 'development' as const, reason: theCard.failures.join('; '), card: theCard, baseline }
  if (theCard.verdict === 'manual_review') return { status: 'pending', ...base }
  return theCard.verdict === 'pass' ? { status: 'accepted', ...base } : { status: 'rejected', ...base }
}

function refused(id: string): ScoredDecision {
  const error = { name: 'BindingError', code: 'CASE_RUBRIC_STALE' as const, file: 'cases.json', path: '', caseId: id, message: 'stale' }
  return { status: 'refused', id, split: 'development', reason: 'stale', error, baseline: { status: 'refused', reason: 'stale', error } }
}

describe('the benchmark gate', () => {
  test('passes at exactly benchmark_pass_fraction', () => {
    const figures = benchmarkFigures([decided(PASS), decided(PASS), decided(PASS), decided(FAIL)], rules)
    expect(figures.system).toMatchObject({ scoreable: 4, passed: 3, passFraction: 0.75, mean: 0.95 })
    expect(figures.gates.benchmark).toEqual({
      passed: true,
      message:
        'passes: 3 of 4 scoreable cases pass, 0.75 ≥ benchmark_pass_fraction 0.75; mean score 0.95 ≥ overall_case_pass 0.65; 0 cases excluded for manual review',
    })
  })

  test('fails below benchmark_pass_fraction', () => {
    const figures = benchmarkFigures([decided(PASS), decided(PASS), decided(FAIL)], rules)
    expect(figures.gates.benchmark.passed).toBe(false)
    expect(figures.gates.benchmark.message).toContain('2 of 3 scoreable cases pass, 0.6667 < benchmark_pass_fraction 0.75')
  })

  test('fails on a mean below overall_case_pass although enough cases pass', () => {
    const low = [0.5, 0.5, 0.5, 1, null, 1] // passes with mean 0.7
    const figures = benchmarkFigures([decided(low), decided(low), decided(low), decided([0, 0, 0, 0, 0, 0])], rules)
    expect(figures.system.passFraction).toBe(0.75)
    expect(figures.gates.benchmark).toEqual({
      passed: false,
      message:
        'fails: 3 of 4 scoreable cases pass, 0.75 ≥ benchmark_pass_fraction 0.75; mean score 0.525 < overall_case_pass 0.65; 0 cases excluded for manual review',
    })
  })

  test('cases flagged for manual review are excluded from every figure', () => {
    const figures = benchmarkFigures([decided(PASS), decided(PASS), decided(PASS), decided(FAIL), decided(UNSCOREABLE), decided(UNSCOREABLE)], rules)
    expect(figures.system).toMatchObject({ scoreable: 4, passed: 3, unscoreable: 2, passFraction: 0.75, mean: 0.95 })
    expect(figures.gates.benchmark.passed).toBe(true)
    expect(figures.gates.benchmark.message).toContain('2 cases excluded for manual review')
  })

  test('with no scoreable case there is no figure and no pass', () => {
    const figures = benchmarkFigures([decided(UNSCOREABLE)], rules)
    expect(figures.system).toMatchObject({ scoreable: 0, passFraction: null, mean: null })
    expect(figures.gates.benchmark).toEqual({
      passed: false,
      message: 'cannot pass: no scoreable case (1 flagged for manual review), so there is no benchmark figure',
    })
  })

  test('a refused case is unknown, not excluded: the gate cannot pass until it is decided', () => {
    const figures = benchmarkFigures([decided(PASS), decided(PASS), decided(PASS), refused('stale-case')], rules)
    expect(figures.system).toMatchObject({ scoreable: 3, passed: 3, refused: 1, passFraction: 1 })
    expect(figures.gates.benchmark).toEqual({
      passed: false,
      message: 'cannot pass: 1 case refused (stale-case); the gate counts the whole benchmark, so every case must be decided',
    })
  })

  test('per-dimension means count only the scoreable cases where the dimension applies', () => {
    const figures = benchmarkFigures([decided([1, 0.5, 1, 1, null, 1]), decided([0.5, 1, 1, 1, 0.5, null]), decided([null, null, null, 0, null, 0])], rules)
    expect(figures.system.dimensionMeans).toEqual({
      issue_discovery_recall: 0.75,
      issue_discovery_precision: 0.75,
      defense_calibration: 1,
      debate_resolution_quality: 1,
      empirical_test_diagnosticity: 0.5,
      final_verdict_correctness: 1,
    })
  })
})

describe('undecided cases', () => {
  function unreviewed(id: string, baseline: BaselineOutcome = scored()): ScoredDecision {
    return { status: 'pending', id, split: 'development', reason: 'no review', card: null, baseline }
  }

  test('the gate names refused and unreviewed cases, three at most, and counts the rest', () => {
    const figures = benchmarkFigures(
      [decided(PASS), refused('r1'), refused('r2'), refused('r3'), refused('r4'), refused('r5'), unreviewed('u1'), unreviewed('u2')],
      rules,
    )
    expect(figures.system).toMatchObject({ scoreable: 1, refused: 5, notReviewed: 2, unscoreable: 0 })
    expect(figures.gates.benchmark).toEqual({
      passed: false,
      message:
        'cannot pass: 5 cases refused (r1, r2, r3 and 2 more) and 2 cases not reviewed (u1, u2); the gate counts the whole benchmark, so every case must be decided',
    })
    expect(figures.gates.baseline).toEqual({
      passed: false,
      message: 'cannot compare: the debate system has 5 cases refused (r1, r2, r3 and 2 more) and 2 cases not reviewed (u1, u2)',
    })
  })

  test('exactly three ids are listed without "more"', () => {
    const figures = benchmarkFigures([unreviewed('u1'), unreviewed('u2'), unreviewed('u3')], rules)
    expect(figures.gates.benchmark.message).toBe(
      'cannot pass: 3 cases not reviewed (u1, u2, u3); the gate counts the whole benchmark, so every case must be decided',
    )
  })

  test('an unreviewed case keeps its baseline in the baseline figures', () => {
    const figures = benchmarkFigures([unreviewed('u1', scored(FAIL))], rules)
    expect(figures.system).toMatchObject({ scoreable: 0, notReviewed: 1, passFraction: null, mean: null })
    expect(figures.baseline).toMatchObject({ scoreable: 1, passed: 0, notReviewed: 0, refused: 0, passFraction: 0, mean: 0.8 })
  })

  test('with no scoreable debate case the comparison has no debate mean', () => {
    const figures = benchmarkFigures([decided(UNSCOREABLE)], rules)
    expect(figures.margin).toBeNull()
    expect(figures.gates.baseline).toEqual({ passed: false, message: 'cannot compare: the debate system has no scoreable case, so no benchmark mean' })
  })

  test('a dimension that never applies to a scoreable case has no mean', () => {
    const figures = benchmarkFigures([decided(PASS), decided([1, 1, 1, 1, 1, null])], rules)
    expect(figures.system.dimensionMeans).toMatchObject({ empirical_test_diagnosticity: 1, final_verdict_correctness: 1 })
    const none = benchmarkFigures([decided(PASS), decided(FAIL)], rules)
    expect(none.system.dimensionMeans['empirical_test_diagnosticity']).toBeNull()
    expect(none.system.dimensionMeans['defense_calibration']).toBe(0.5)
  })
})

describe('cards scored under other rules', () => {
  test("a card without a dimension adds nothing to that dimension's mean", () => {
    const { rules: withoutVerdict } = bindEdited((rubric) => {
      delete rubric.scoring_dimensions['final_verdict_correctness']
      rubric['pass_fail_rule'] = String(rubric['pass_fail_rule']).replace('at least 4 of the 6', 'at least 4 of the 5')
    })
    const partial = Object.fromEntries(DIMENSION_NAMES.map((name): [DimensionName, DimensionScore] => [name, { score: 0.5, detail: 'authored' }])) as Record<
      DimensionName,
      DimensionScore
    >
    const theCard = applyCaseRule(partial, withoutVerdict)
    expect(Object.keys(theCard.dimensions)).not.toContain('final_verdict_correctness')
    const decision: ScoredDecision = { status: 'rejected', id: 'other', split: 'development', reason: '', card: theCard, baseline: scored() }
    const figures = benchmarkFigures([decided(PASS), decision], rules)
    expect(figures.system.dimensionMeans).toMatchObject({ defense_calibration: 0.75, final_verdict_correctness: 1 })
  })
})

describe('the baseline comparison', () => {
  const BASELINE_065 = [0.65, 0.65, 0.65, 0.65, null, 0.65]
  const SYSTEM_075 = [0.75, 0.75, 0.75, 0.75, null, 0.75]

  test('a margin of exactly 0.10 beats the baseline, although 0.75 − 0.65 is 0.09999999999999998 in binary', () => {
    const figures = benchmarkFigures([decided(SYSTEM_075, scored(BASELINE_065))], rules)
    expect(0.75 - 0.65).toBeLessThan(0.1)
    expect(figures.gates.baseline).toEqual({
      passed: true,
      message: 'beats the baseline: debate mean 0.75 − baseline mean 0.65 = margin 0.1 ≥ 0.10 (debate over 1 scoreable cases, baseline over 1)',
    })
  })

  test('a smaller margin does not', () => {
    const figures = benchmarkFigures([decided(SYSTEM_075, scored([0.7, 0.7, 0.7, 0.7, null, 0.7]))], rules)
    expect(figures.gates.baseline).toEqual({
      passed: false,
      message: 'does not beat the baseline: debate mean 0.75 − baseline mean 0.7 = margin 0.05 < 0.10 (debate over 1 scoreable cases, baseline over 1)',
    })
  })

  test("each mean is taken over that system's own scoreable cases", () => {
    const figures = benchmarkFigures([decided(PASS, scored(UNSCOREABLE)), decided(SYSTEM_075, scored(BASELINE_065))], rules)
    expect(figures.system).toMatchObject({ scoreable: 2, mean: 0.875 })
    expect(figures.baseline).toMatchObject({ scoreable: 1, unscoreable: 1, mean: 0.65 })
    expect(figures.margin).toBeCloseTo(0.225, 12)
  })

  test('a missing or refused baseline review leaves the comparison undecided', () => {
    const error = { name: 'BindingError', code: 'REVIEW_OUTPUT_STALE' as const, file: 'annotations.json', path: '', caseId: 'x', message: 'stale' }
    const figures = benchmarkFigures(
      [decided(PASS, { status: 'not_reviewed' }), decided(PASS, { status: 'refused', reason: 'stale', error }), decided(PASS, scored([0, 0, 0, 0, 0, 0]))],
      rules,
    )
    expect(figures.gates.benchmark.passed).toBe(true)
    expect(figures.gates.baseline.passed).toBe(false)
    expect(figures.gates.baseline.message).toMatch(/^cannot compare: the baseline has 1 case refused \(case-\d+\) and 1 case not reviewed \(case-\d+\)$/)
  })

  test('no scoreable baseline case, no comparison', () => {
    const figures = benchmarkFigures([decided(PASS, scored(UNSCOREABLE))], rules)
    expect(figures.margin).toBeNull()
    expect(figures.gates.baseline).toEqual({ passed: false, message: 'cannot compare: the baseline has no scoreable case, so no benchmark mean' })
  })

  test('the margin comes from the rubric file', () => {
    const strict = bindEdited((rubric) => {
      rubric['trivial_baseline_definition'] = String(rubric['trivial_baseline_definition']).replace('by >= 0.10', 'by >= 0.25')
    }).rules
    const figures = benchmarkFigures([decided(PASS, scored(BASELINE_065))], strict)
    expect(figures.thresholds.baselineMargin).toBe(0.25)
    expect(figures.gates.baseline).toMatchObject({ passed: true, message: expect.stringContaining('margin 0.35 ≥ 0.25') })
    const tighter = benchmarkFigures([decided(SYSTEM_075, scored(BASELINE_065))], strict)
    expect(tighter.gates.baseline).toMatchObject({ passed: false, message: expect.stringContaining('margin 0.1 < 0.25') })
  })
})
