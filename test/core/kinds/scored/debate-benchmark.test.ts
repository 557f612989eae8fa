import { describe, expect, test } from 'vitest'
import { evaluateFixture } from '../../../../src/core/engine/evaluate.js'
import type { ScoreCard } from '../../../../src/core/kinds/scored/case-rule.js'
import type { ScoredDecision } from '../../../../src/core/kinds/scored/decision.js'
import { ROOT } from '../../../helpers/fixture-copy.js'
import { loadFixtureOfKind } from '../../../helpers/load-kind.js'
import { pythonFingerprints } from '../../../helpers/python-reference.js'
import { copyDebate, DEBATE, type AnnotationsJson, type CasesJson } from '../../../helpers/scored-copy.js'

async function evaluate() {
  return evaluateFixture(await loadFixtureOfKind('scored', DEBATE, ROOT))
}

function byId(decisions: readonly ScoredDecision[], id: string): ScoredDecision {
  const decision = decisions.find((item) => item.id === id)
  if (decision === undefined) throw new Error(`no decision for ${id}`)
  return decision
}

/** `0.75 1 1 1 N/A 1` in the rubric's order. */
function row(card: ScoreCard | null): string {
  if (card === null) return '-'
  return Object.values(card.dimensions)
    .map(({ score }) => (score === null ? 'N/A' : String(Number(score.toFixed(4)))))
    .join(' ')
}

describe('the bundled debate benchmark', () => {
  test('binds every case to the rubric revision the specification publishes', async () => {
    const { fixture, coverage, identities } = await evaluate()
    expect(fixture.files.rubric!.sha256).toBe('be89f77dd9c03442e7f5333d6dcf1b906512792f030048390e7a9bc66309c0e0')
    expect(identities.files['evaluation_rubric.json']).toBe(fixture.files.rubric!.sha256)
    expect(coverage).toMatchObject({ candidates: 10, graded: 9, pending: 1, refused: 0, outcomes: { accepted: 6, rejected: 3 } })
  })

  test("every recorded fingerprint is the reference definition's, computed by Python", async () => {
    const copy = await copyDebate()
    const { cases } = await copy.readJson<CasesJson>('cases.json')
    const { reviews } = await copy.readJson<AnnotationsJson>('annotations.json')
    const { fingerprints } = pythonFingerprints(reviews)
    const recorded = cases.flatMap((entry) => [entry.expected.debate_review_sha256, entry.expected.baseline_review_sha256])
    expect(fingerprints).toEqual(recorded)
    const specs = pythonFingerprints(cases.map((entry) => entry.spec)).fingerprints
    expect(reviews.map((review) => review.spec_sha256)).toEqual(specs.flatMap((sha) => [sha, sha]))
  })

  test('decides each case of the debate system by the per-case rule, with its scores', async () => {
    const { decisions } = await evaluate()
    expect(
      Object.fromEntries(decisions.map((decision) => [decision.id, `${decision.status}: ${row(decision.status === 'refused' ? null : decision.card)}`])),
    ).toEqual({
      'partial-recall': 'accepted: 0.75 1 1 1 N/A 1',
      'zero-planted-issues': 'accepted: N/A 0.5 1 1 N/A 1',
      'false-claim-conceded': 'accepted: 1 0.6667 0.8 1 N/A 1',
      'concession-without-update': 'rejected: 1 1 0.375 1 N/A 1',
      'inefficient-resolution': 'accepted: 1 1 1 0.5 0.5 1',
      'never-terminates': 'rejected: 1 1 0 0 N/A 0',
      'empirical-test-agreed': 'accepted: 1 1 1 1 1 N/A',
      'verdict-normalization': 'accepted: 1 1 1 1 N/A 1',
      'unscoreable-silent-critique': 'pending: N/A N/A N/A 1 N/A 1',
      'required-test-missing': 'rejected: 1 1 1 1 0 N/A',
    })
  })

  test('two cases fail on one dimension although their mean is at least 0.65', async () => {
    const { decisions } = await evaluate()
    expect(byId(decisions, 'concession-without-update')).toMatchObject({
      status: 'rejected',
      reason: 'defense_calibration 0.375 is below per_dimension_pass 0.50',
      card: { mean: 0.875 },
    })
    expect(byId(decisions, 'required-test-missing')).toMatchObject({
      status: 'rejected',
      reason: 'empirical_test_diagnosticity 0 is below per_dimension_pass 0.50',
      card: { mean: 0.8 },
    })
  })

  test('the case with two applicable dimensions awaits manual review, visible in coverage', async () => {
    const { decisions, coverage } = await evaluate()
    expect(byId(decisions, 'unscoreable-silent-critique')).toMatchObject({
      status: 'pending',
      reason: 'manual review: only 2 of 6 dimensions applicable (at least 4 needed)',
    })
    expect(coverage.pendingCases).toEqual([
      { id: 'unscoreable-silent-critique', split: 'development', reason: 'manual review: only 2 of 6 dimensions applicable (at least 4 needed)' },
    ])
  })

  test('each N/A says why, and each score how it was reached', async () => {
    const decision = byId((await evaluate()).decisions, 'partial-recall')
    if (decision.status === 'refused' || decision.card === null) throw new Error('expected a card')
    expect(Object.fromEntries(Object.entries(decision.card.dimensions).map(([name, { detail }]) => [name, detail]))).toEqual({
      issue_discovery_recall: '1.5 of 2 planted issues found: P1 full (C1), P2 partial (C2)',
      issue_discovery_precision: '2 of 2 claims valid',
      defense_calibration: 'mean of 4 instances: (A) C1 concede 1, (C) C1 updated 1, (A) C2 concede 1, (C) C2 updated 1',
      debate_resolution_quality: 'both agents state critique_wins as ideal, in 2 of at most 4 rounds',
      empirical_test_diagnosticity: 'N/A: no test proposed and the ideal resolution is critique_wins',
      final_verdict_correctness: '"request changes" matches "request changes" (trimmed, case-insensitive)',
    })
  })

  test('scores the trivial baseline beside each case under its adaptations', async () => {
    const { decisions } = await evaluate()
    const baselines = Object.fromEntries(
      decisions.map(({ id, baseline }) => [id, baseline.status === 'scored' ? `${baseline.card.verdict}: ${row(baseline.card)}` : baseline.status]),
    )
    expect(baselines).toEqual({
      'partial-recall': 'fail: 0.5 1 0 0.5 N/A 0',
      'zero-planted-issues': 'manual_review: N/A 0 N/A 0.5 N/A 1',
      'false-claim-conceded': 'pass: 1 0.5 0.5 0.5 N/A 1',
      'concession-without-update': 'fail: 0.5 1 0 0.5 N/A 0',
      'inefficient-resolution': 'fail: 1 1 0 0.5 0.5 0',
      'never-terminates': 'pass: 1 1 0.5 0.5 N/A 1',
      'empirical-test-agreed': 'fail: 1 1 0 0 N/A N/A',
      'verdict-normalization': 'fail: 1 1 0.5 0.5 N/A 0',
      'unscoreable-silent-critique': 'manual_review: N/A N/A N/A 0.5 N/A 1',
      'required-test-missing': 'fail: 1 1 0 0.5 0.5 N/A',
    })
  })

  test('the benchmark gate fails on its pass fraction; the system beats the baseline by more than 0.10', async () => {
    const { summary: benchmark } = await evaluate()
    expect(benchmark.system).toMatchObject({ scoreable: 9, passed: 6, unscoreable: 1, notReviewed: 0, refused: 0 })
    expect(benchmark.system.passFraction).toBeCloseTo(6 / 9, 12)
    expect(benchmark.system.mean).toBeCloseTo(7.626666666666667 / 9, 12)
    expect(benchmark.baseline).toMatchObject({ scoreable: 8, passed: 2, unscoreable: 2, mean: 0.5625 })
    expect(benchmark.margin).toBeCloseTo(7.626666666666667 / 9 - 0.5625, 12)
    expect(benchmark.gates).toEqual({
      benchmark: {
        passed: false,
        message:
          'fails: 6 of 9 scoreable cases pass, 0.6667 < benchmark_pass_fraction 0.75; mean score 0.8474 ≥ overall_case_pass 0.65; 1 case excluded for manual review',
      },
      baseline: {
        passed: true,
        message: 'beats the baseline: debate mean 0.8474 − baseline mean 0.5625 = margin 0.2849 ≥ 0.10 (debate over 9 scoreable cases, baseline over 8)',
      },
    })
  })

  test('per-dimension means skip N/A scores and unscoreable cases', async () => {
    const { summary: benchmark } = await evaluate()
    const rounded = (means: Readonly<Record<string, number | null>>) =>
      Object.fromEntries(Object.entries(means).map(([name, value]) => [name, value === null ? null : Number(value.toFixed(4))]))
    expect(rounded(benchmark.system.dimensionMeans)).toEqual({
      issue_discovery_recall: 0.9688, // 7.75 / 8: zero-planted-issues has none
      issue_discovery_precision: 0.9074,
      defense_calibration: 0.7972,
      debate_resolution_quality: 0.8333,
      empirical_test_diagnosticity: 0.5, // (0.5 + 1 + 0) / 3
      final_verdict_correctness: 0.8571,
    })
    expect(rounded(benchmark.baseline.dimensionMeans)).toEqual({
      issue_discovery_recall: 0.875,
      issue_discovery_precision: 0.9375,
      defense_calibration: 0.1875,
      debate_resolution_quality: 0.4375,
      empirical_test_diagnosticity: 0.5,
      final_verdict_correctness: 0.3333,
    })
  })
})
