import { describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { ROOT } from '../helpers/fixture-copy.js'
import { copyDebate } from '../helpers/scored-copy.js'

async function run(argv: string[], cwd = ROOT) {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, { stdout: (text) => (stdout += `${text}\n`), stderr: (text) => (stderr += `${text}\n`), cwd })
  return { code, stdout, stderr }
}

describe('vitest-rubric evaluate on a scored fixture', () => {
  test('--json prints per-case scores (N/A as null), the decisions, the benchmark figures and the baseline comparison', async () => {
    const { code, stdout, stderr } = await run(['evaluate', 'fixtures/debate-benchmark', '--json'])
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    const record = JSON.parse(stdout)
    expect(record.fixture).toEqual({
      kind: 'scored',
      dir: 'fixtures/debate-benchmark',
      name: 'debate-benchmark',
      rubric: 'evaluation_rubric.json@sha256:be89f77dd9c0',
      origin: expect.stringContaining('not a run of a real debate system'),
    })
    expect(record.identities.files['evaluation_rubric.json']).toBe('be89f77dd9c03442e7f5333d6dcf1b906512792f030048390e7a9bc66309c0e0')
    expect(record.coverage).toMatchObject({ candidates: 10, graded: 9, pending: 1, refused: 0, outcomes: { accepted: 6, rejected: 3 } })
    expect(Object.keys(record.decisions['required-test-missing'])).toEqual([
      'status',
      'split',
      'reason',
      'verdict',
      'scores',
      'mean',
      'applicable',
      'details',
      'failures',
      'baseline',
    ])
    expect(record.decisions['required-test-missing']).toMatchObject({
      status: 'rejected',
      verdict: 'fail',
      reason: 'empirical_test_diagnosticity 0 is below per_dimension_pass 0.50',
      scores: {
        issue_discovery_recall: 1,
        issue_discovery_precision: 1,
        defense_calibration: 1,
        debate_resolution_quality: 1,
        empirical_test_diagnosticity: 0,
        final_verdict_correctness: null,
      },
      mean: 0.8,
      applicable: 5,
      baseline: { status: 'scored', verdict: 'fail', mean: 0.6, scores: { empirical_test_diagnosticity: 0.5, final_verdict_correctness: null } },
    })
    expect(record.decisions['unscoreable-silent-critique']).toMatchObject({ status: 'pending', verdict: 'manual_review', applicable: 2 })
    expect(record.benchmark).toMatchObject({
      thresholds: { perDimensionPass: 0.5, overallCasePass: 0.65, benchmarkPassFraction: 0.75, baselineMargin: 0.1, minApplicable: 4 },
      system: { scoreable: 9, passed: 6, unscoreable: 1 },
      baseline: { scoreable: 8, passed: 2, unscoreable: 2, mean: 0.5625 },
      gates: { benchmark: { passed: false }, baseline: { passed: true } },
    })
    expect(record.benchmark.margin).toBeCloseTo(0.2849, 4)
  })

  test('prints a readable summary by default', async () => {
    const { code, stdout } = await run(['evaluate', 'fixtures/debate-benchmark'])
    expect(code).toBe(0)
    expect(stdout).toMatchInlineSnapshot(`
      "debate-benchmark (fixtures/debate-benchmark; rubric evaluation_rubric.json@sha256:be89f77dd9c0)
        origin: Authored example transcripts and reviewer annotations for ten benchmark cases; not a run of a real debate system and not a human-rating study.
        review coverage: 9 scored of 10 candidates; 1 pending; 0 refused — passed 6, failed 3; 67% passed (95% interval 35%–88%)
        rule: a case passes with mean ≥ 0.65 and no applicable dimension below 0.50; scoreable with at least 4 of 6 dimensions applicable
        dimensions: D1 issue_discovery_recall, D2 issue_discovery_precision, D3 defense_calibration, D4 debate_resolution_quality, D5 empirical_test_diagnosticity, D6 final_verdict_correctness
        case                        status   D1     D2     D3     D4     D5     D6     mean   baseline (mean, rule)
        partial-recall              accepted 0.75   1      1      1      N/A    1      0.95   0.4 fail
        zero-planted-issues         accepted N/A    0.5    1      1      N/A    1      0.875  0.5 manual review
        false-claim-conceded        accepted 1      0.6667 0.8    1      N/A    1      0.8933 0.7 pass
        concession-without-update   rejected 1      1      0.375  1      N/A    1      0.875  0.4 fail
        inefficient-resolution      accepted 1      1      1      0.5    0.5    1      0.8333 0.5 fail
        never-terminates            rejected 1      1      0      0      N/A    0      0.4    0.8 pass
        empirical-test-agreed       accepted 1      1      1      1      1      N/A    1      0.5 fail
        verdict-normalization       accepted 1      1      1      1      N/A    1      1      0.6 fail
        unscoreable-silent-critique pending  N/A    N/A    N/A    1      N/A    1      1      0.75 manual review
        required-test-missing       rejected 1      1      1      1      0      N/A    0.8    0.6 fail
        why:
          concession-without-update: rejected — defense_calibration 0.375 is below per_dimension_pass 0.50
          never-terminates: rejected — defense_calibration 0 is below per_dimension_pass 0.50; debate_resolution_quality 0 is below per_dimension_pass 0.50; final_verdict_correctness 0 is below per_dimension_pass 0.50; mean 0.4 is below overall_case_pass 0.65
          unscoreable-silent-critique: pending — manual review: only 2 of 6 dimensions applicable (at least 4 needed)
          required-test-missing: rejected — empirical_test_diagnosticity 0 is below per_dimension_pass 0.50
        Pending cases stay outside the benchmark figures: they are neither passes nor failures.
        per-dimension means (debate / baseline):
          D1 issue_discovery_recall: 0.9688 / 0.875
          D2 issue_discovery_precision: 0.9074 / 0.9375
          D3 defense_calibration: 0.7972 / 0.1875
          D4 debate_resolution_quality: 0.8333 / 0.4375
          D5 empirical_test_diagnosticity: 0.5 / 0.5
          D6 final_verdict_correctness: 0.8571 / 0.3333
        benchmark passes: no — fails: 6 of 9 scoreable cases pass, 0.6667 < benchmark_pass_fraction 0.75; mean score 0.8474 ≥ overall_case_pass 0.65; 1 case excluded for manual review
        beats the trivial baseline by ≥ 0.10: yes — beats the baseline: debate mean 0.8474 − baseline mean 0.5625 = margin 0.2849 ≥ 0.10 (debate over 9 scoreable cases, baseline over 8)
        pass fraction 0.6667, Wilson 95% interval [0.3542, 0.8794] over 9 scoreable cases
        mean score 0.8474, SE 0.0605; baseline 0.5625, SE 0.0498
        paired margin 0.2815 over 8 cases scoreable for both, SE 0.108, paired bootstrap 95% interval [0.0619, 0.4469]; its lower bound does not clear 0.10
        the baseline gate compares the point estimate, as the rubric states it
      "
    `)
  })

  test('refused cases and baselines are reported with their errors, and the command still exits 0', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases[0]!.outputs.baseline.self_critique = 'No issues found.'
      cases.cases[1]!.spec.max_rounds = 2
    })
    const { code, stdout } = await run(['evaluate', copy.dir, '--json'], copy.dir)
    expect(code).toBe(0)
    const record = JSON.parse(stdout)
    expect(record.decisions['partial-recall']).toMatchObject({ status: 'accepted', baseline: { status: 'refused', error: { code: 'REVIEW_OUTPUT_STALE' } } })
    expect(record.decisions['zero-planted-issues']).toMatchObject({
      status: 'refused',
      verdict: null,
      scores: null,
      error: { code: 'REVIEW_SPEC_STALE', path: 'reviews[2] › spec_sha256', caseId: 'zero-planted-issues' },
    })
    expect(record.benchmark.gates.baseline).toEqual({
      passed: false,
      message: 'cannot compare: the debate system has 1 case refused (zero-planted-issues)',
    })
    const text = await run(['evaluate', copy.dir], copy.dir)
    expect(text.stdout).toContain(
      '  refused zero-planted-issues:\n    annotations.json › reviews[2] › spec_sha256 (case "zero-planted-issues"): the case\'s spec changed since the review: its planted issues, ideal resolution or ground truth changed.',
    )
    expect(text.stdout).toContain('  baseline refused for partial-recall:\n    annotations.json › reviews[1] › output_sha256 (case "partial-recall")')
  })

  test('a fixture-level defect exits 1 with the message on stderr', async () => {
    const copy = await copyDebate()
    await copy.editAnnotations((annotations) => {
      annotations.reviews[5]!.case_id = 'unknown-case'
    })
    const { code, stdout, stderr } = await run(['evaluate', '.'], copy.dir)
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
    expect(stderr).toContain('annotations.json › reviews[5] › case_id: the review names a case that cases.json does not hold.')
  })

  test('both kinds in one call give an array', async () => {
    const { code, stdout } = await run(['evaluate', 'fixtures/docuctl-rollback', 'fixtures/debate-benchmark', '--json'])
    expect(code).toBe(0)
    expect(JSON.parse(stdout).map((record: { fixture: { kind: string } }) => record.fixture.kind)).toEqual(['criteria', 'scored'])
  })
})
