import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { bundledProject } from '../helpers/scratch.js'
import { runVitest } from '../helpers/run-vitest.js'

describe('a scored fixture through the plugin', () => {
  test('one test per benchmark case, unscoreable as todo, and the two benchmark checks', async () => {
    const root = await bundledProject(['debate-benchmark'])
    const run = await runVitest({ root })
    expect(run.tests.map((item) => `${item.fullName}: ${item.state}`)).toEqual([
      'development > partial-recall: passed',
      'development > zero-planted-issues: passed',
      'development > false-claim-conceded: passed',
      'development > concession-without-update: failed',
      'development > inefficient-resolution: passed',
      'development > never-terminates: failed',
      'development > empirical-test-agreed: passed',
      'development > verdict-normalization: passed',
      'development > unscoreable-silent-critique — pending: manual review: only 2 of 6 dimensions applicable (at least 4 needed): todo',
      'development > required-test-missing: failed',
      'benchmark passes: failed',
      'beats the trivial baseline by ≥ 0.10: passed',
    ])
    // The meta places the case; its scores are in the plan and the JSON report, not sent with every test.
    expect(run.tests.find((item) => item.name === 'zero-planted-issues')?.meta).toEqual({
      role: 'case',
      id: 'zero-planted-issues',
      split: 'development',
      status: 'accepted',
      reason: expect.any(String),
    })
  })

  test('a case failing on one dimension although its mean passes says so, with every score', async () => {
    const root = await bundledProject(['debate-benchmark'])
    const run = await runVitest({ root, cli: { testNamePattern: 'concession-without-update|benchmark passes' } })
    const [caseError, gateError] = run.tests.filter((item) => item.state === 'failed').map((item) => item.errors[0])
    expect(caseError).toMatchInlineSnapshot(`
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
    expect(gateError).toContain('6 of 9 scoreable cases pass, 0.6667 < benchmark_pass_fraction 0.75')
  })

  test('one byte added to the rubric file refuses every annotation', async () => {
    const root = await bundledProject(['debate-benchmark'])
    const file = join(root, 'fixtures/debate-benchmark/evaluation_rubric.json')
    // A final newline: the rubric still parses and says the same, but it is another revision.
    await writeFile(file, Buffer.concat([await readFile(file), Buffer.from('\n')]))
    const run = await runVitest({ root })
    const cases = run.tests.filter((item) => item.meta?.role === 'case')
    expect(cases).toHaveLength(10)
    expect(cases.every((item) => item.meta?.status === 'refused' && item.state === 'failed')).toBe(true)
    expect(cases[0]?.errors[0]).toContain('rubric_sha256')
  })
})
