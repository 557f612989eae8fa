import { describe, expect, test } from 'vitest'
import { evaluateFixture } from '../../../../src/core/engine/evaluate.js'
import { planFixtureTests } from '../../../../src/core/engine/plan.js'
import type { PlannedCase } from '../../../../src/core/contract/results.js'
import { ROOT } from '../../../helpers/fixture-copy.js'
import { loadFixtureOfKind } from '../../../helpers/load-kind.js'
import { copyDebate, DEBATE } from '../../../helpers/scored-copy.js'

async function plan(dir = DEBATE, cwd = ROOT) {
  return planFixtureTests(evaluateFixture(await loadFixtureOfKind('scored', dir, cwd)))
}

function planned(cases: readonly PlannedCase[], id: string): PlannedCase {
  const found = cases.find((item) => item.id === id)
  if (found === undefined) throw new Error(`no planned case ${id}`)
  return found
}

describe('the tests a scored fixture becomes', () => {
  test('one test per case, in order, with its status, reason and scores (null for N/A)', async () => {
    const { kind, dir, name, cases } = await plan()
    expect({ kind, dir, name }).toEqual({ kind: 'scored', dir: 'fixtures/debate-benchmark', name: 'debate-benchmark' })
    expect(cases.map(({ id, status }) => `${id}: ${status}`)).toEqual([
      'partial-recall: accepted',
      'zero-planted-issues: accepted',
      'false-claim-conceded: accepted',
      'concession-without-update: rejected',
      'inefficient-resolution: accepted',
      'never-terminates: rejected',
      'empirical-test-agreed: accepted',
      'verdict-normalization: accepted',
      'unscoreable-silent-critique: pending',
      'required-test-missing: rejected',
    ])
    expect(planned(cases, 'zero-planted-issues')).toEqual({
      id: 'zero-planted-issues',
      split: 'development',
      status: 'accepted',
      reason: 'mean 0.875 of 4 applicable dimensions; none below 0.50',
      detail: {
        scores: {
          issue_discovery_recall: null,
          issue_discovery_precision: 0.5,
          defense_calibration: 1,
          debate_resolution_quality: 1,
          empirical_test_diagnosticity: null,
          final_verdict_correctness: 1,
        },
      },
    })
  })

  test('an unscoreable case is planned as pending (todo) with the manual-review reason and no failure text', async () => {
    const { cases } = await plan()
    expect(planned(cases, 'unscoreable-silent-critique')).toMatchObject({
      status: 'pending',
      reason: 'manual review: only 2 of 6 dimensions applicable (at least 4 needed)',
      detail: { scores: { debate_resolution_quality: 1, final_verdict_correctness: 1, issue_discovery_recall: null } },
    })
    expect(planned(cases, 'unscoreable-silent-critique').message).toBeUndefined()
  })

  test('a failure lists every dimension score, which are N/A, and why the case fails', async () => {
    const { cases } = await plan()
    expect(planned(cases, 'concession-without-update').message).toMatchInlineSnapshot(`
      "fails the per-case rule: defense_calibration 0.375 is below per_dimension_pass 0.50
        mean 0.875 of 5 applicable dimensions (overall_case_pass 0.65, per_dimension_pass 0.50)
        ✓ issue_discovery_recall        1       2 of 2 planted issues found: P1 full (C1), P2 full (C2)
        ✓ issue_discovery_precision     1       2 of 2 claims valid
        ✗ defense_calibration           0.375   mean of 4 instances: (A) C1 concede 1, (C) C1 not updated 0, (A) C2 hedged_concession 0.5, (C) C2 not updated 0
        ✓ debate_resolution_quality     1       both agents state critique_wins as ideal, in 2 of at most 4 rounds
        – empirical_test_diagnosticity  N/A     N/A: no test proposed and the ideal resolution is critique_wins
        ✓ final_verdict_correctness     1       "request changes" matches "request changes" (trimmed, case-insensitive)
        N/A (excluded from the mean): empirical_test_diagnosticity"
    `)
    expect(planned(cases, 'never-terminates').message).toMatchInlineSnapshot(`
      "fails the per-case rule: defense_calibration 0 is below per_dimension_pass 0.50; debate_resolution_quality 0 is below per_dimension_pass 0.50; final_verdict_correctness 0 is below per_dimension_pass 0.50; mean 0.4 is below overall_case_pass 0.65
        mean 0.4 of 5 applicable dimensions (overall_case_pass 0.65, per_dimension_pass 0.50)
        ✓ issue_discovery_recall        1       1 of 1 planted issue found: P1 full (C1)
        ✓ issue_discovery_precision     1       1 of 1 claim valid
        ✗ defense_calibration           0       mean of 1 instance: (A) C1 reject_with_reasoning 0
        ✗ debate_resolution_quality     0       no agreement after 4 of at most 4 rounds (critique states critique_wins, defense states defense_wins): the loop did not terminate with a resolution
        – empirical_test_diagnosticity  N/A     N/A: no test proposed and the ideal resolution is critique_wins
        ✗ final_verdict_correctness     0       no final verdict emitted; expected "request changes"
        N/A (excluded from the mean): empirical_test_diagnosticity"
    `)
  })

  test('a failure on a required but missing empirical test', async () => {
    const { cases } = await plan()
    expect(planned(cases, 'required-test-missing').message).toMatchInlineSnapshot(`
      "fails the per-case rule: empirical_test_diagnosticity 0 is below per_dimension_pass 0.50
        mean 0.8 of 5 applicable dimensions (overall_case_pass 0.65, per_dimension_pass 0.50)
        ✓ issue_discovery_recall        1       1 of 1 planted issue found: P1 full (C1)
        ✓ issue_discovery_precision     1       1 of 1 claim valid
        ✓ defense_calibration           1       mean of 2 instances: (A) C1 concede 1, (C) C1 updated 1
        ✓ debate_resolution_quality     1       both agents state empirical_test_agreed as ideal, in 2 of at most 4 rounds
        ✗ empirical_test_diagnosticity  0       required (the ideal resolution is empirical_test_agreed), but no concrete test is proposed
        – final_verdict_correctness     N/A     N/A: ground_truth.final_verdict is absent
        N/A (excluded from the mean): final_verdict_correctness"
    `)
  })

  test('two benchmark-level checks with the figures, and the figures for the reporter', async () => {
    const { checks, summary: benchmark } = await plan()
    expect(checks).toMatchInlineSnapshot(`
      [
        {
          "message": "fails: 6 of 9 scoreable cases pass, 0.6667 < benchmark_pass_fraction 0.75; mean score 0.8474 ≥ overall_case_pass 0.65; 1 case excluded for manual review",
          "name": "benchmark passes",
          "ok": false,
        },
        {
          "message": "beats the baseline: debate mean 0.8474 − baseline mean 0.5625 = margin 0.2849 ≥ 0.10 (debate over 9 scoreable cases, baseline over 8)",
          "name": "beats the trivial baseline by ≥ 0.10",
          "ok": true,
        },
      ]
    `)
    expect(benchmark).toMatchObject({
      thresholds: { perDimensionPass: 0.5, overallCasePass: 0.65, benchmarkPassFraction: 0.75, baselineMargin: 0.1, minApplicable: 4 },
      system: { scoreable: 9, passed: 6, unscoreable: 1 },
      baseline: { scoreable: 8, passed: 2, unscoreable: 2, mean: 0.5625 },
    })
    expect(JSON.parse(JSON.stringify(benchmark))).toEqual(benchmark)
  })

  test('a refused case carries its error as the failure text and no scores', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases[0]!.outputs.debate.transcript.pop()
    })
    const { cases, checks } = await plan(copy.dir, copy.dir)
    const refused = planned(cases, 'partial-recall')
    expect(refused).toMatchObject({ status: 'refused', reason: expect.stringContaining('the output changed since it was reviewed') })
    expect(refused.detail['scores']).toBeUndefined()
    expect(refused.message).toContain('annotations.json › reviews[0] › output_sha256 (case "partial-recall")')
    expect(checks.map(({ ok }) => ok)).toEqual([false, false])
  })

  test('a case whose debate review was withdrawn is pending with no scores', async () => {
    const copy = await copyDebate()
    await copy.editAnnotations((annotations) => {
      annotations.reviews = annotations.reviews.filter((review) => !(review.case_id === 'partial-recall' && review.system === 'debate'))
    })
    await copy.acknowledge('partial-recall', 'debate')
    const { cases } = await plan(copy.dir, copy.dir)
    expect(planned(cases, 'partial-recall')).toEqual({ id: 'partial-recall', split: 'development', status: 'pending', reason: 'no review', detail: {} })
  })

  test('a criteria fixture has no benchmark figures', async () => {
    const criteria = planFixtureTests(evaluateFixture(await loadFixtureOfKind('criteria', 'fixtures/docuctl-rollback', ROOT)))
    expect(criteria.summary).toBeNull()
  })
})
