import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { fingerprint, NULL_FINGERPRINT } from '../../src/core/json/canonical-json.js'
import { bindFixture } from '../../src/core/registry.js'
import { runCli } from '../helpers/cli.js'
import { copyDebate, reviseRubricNotes, withdrawReview, type AnnotationsJson, type CasesJson } from '../helpers/scored-copy.js'

const FILES = ['evaluation_rubric.json', 'cases.json', 'annotations.json'] as const

async function snapshotFiles(dir: string): Promise<Map<string, { bytes: Buffer; mtimeMs: number }>> {
  const result = new Map<string, { bytes: Buffer; mtimeMs: number }>()
  for (const file of FILES) result.set(file, { bytes: await readFile(join(dir, file)), mtimeMs: (await stat(join(dir, file))).mtimeMs })
  return result
}

async function expectUnchanged(dir: string, before: Map<string, { bytes: Buffer; mtimeMs: number }>): Promise<void> {
  const after = await snapshotFiles(dir)
  for (const [file, { bytes, mtimeMs }] of before) {
    expect(after.get(file)!.bytes.equals(bytes), `${file} bytes`).toBe(true)
    expect(after.get(file)!.mtimeMs, `${file} mtime`).toBe(mtimeMs)
  }
}

async function statuses(dir: string): Promise<Record<string, string>> {
  const { stdout } = await runCli(['evaluate', '.', '--json'], dir)
  const { decisions } = JSON.parse(stdout) as { decisions: Record<string, { status: string }> }
  return Object.fromEntries(Object.entries(decisions).map(([id, decision]) => [id, decision.status]))
}

describe('vitest-rubric bind on a scored fixture', () => {
  test('after a rubric revision, --all binds the case and both reviews to it and the decisions are back', async () => {
    const copy = await copyDebate()
    const before = await statuses(copy.dir)
    const rubricSha256 = await reviseRubricNotes(copy)
    expect(new Set(Object.values(await statuses(copy.dir)))).toEqual(new Set(['refused']))

    const result = await bindFixture(copy.dir, { cases: 'all', dryRun: false, cwd: copy.dir })
    expect(result.skipped).toEqual([])
    expect(result.written).toEqual(['annotations.json', 'cases.json'])
    const first = result.cases[0]!
    expect(first.id).toBe('partial-recall')
    expect(first.decision).toBe('accepted')
    const cases = await copy.readJson<CasesJson>('cases.json')
    const annotations = await copy.readJson<AnnotationsJson>('annotations.json')
    expect(first.changes.map(({ location, to }) => [location, to])).toEqual([
      ['cases.json › cases[0] › expected › rubric_sha256', rubricSha256],
      ['annotations.json › reviews[0] › rubric_sha256', rubricSha256],
      ['annotations.json › reviews[1] › rubric_sha256', rubricSha256],
      ['cases.json › cases[0] › expected › debate_review_sha256', fingerprint(annotations.reviews[0])],
      ['cases.json › cases[0] › expected › baseline_review_sha256', fingerprint(annotations.reviews[1])],
    ])
    expect(first.changes.every(({ from }) => from !== undefined && from !== rubricSha256)).toBe(true)
    expect(cases.cases[0]!.expected.rubric_sha256).toBe(rubricSha256)
    expect(result.cases.find((each) => each.id === 'unscoreable-silent-critique')!.decision).toBe(
      'pending (manual review: only 2 of 6 dimensions applicable (at least 4 needed))',
    )
    expect(await statuses(copy.dir)).toEqual(before)
    expect((await runCli(['status', '.'], copy.dir)).code).toBe(0)
  })

  test('--all re-stamps a case without any review: nothing was judged, so only its own hashes change', async () => {
    const copy = await copyDebate()
    await withdrawReview(copy, 'partial-recall', 'debate', true)
    await withdrawReview(copy, 'partial-recall', 'baseline', true)
    const rubricSha256 = await reviseRubricNotes(copy)
    const result = await bindFixture(copy.dir, { cases: 'all', dryRun: true, cwd: copy.dir })
    expect(result.skipped).toEqual([])
    expect(result.cases[0]).toEqual({
      id: 'partial-recall',
      kind: 'unreviewed',
      changes: [
        {
          location: 'cases.json › cases[0] › expected › rubric_sha256',
          from: 'be89f77dd9c03442e7f5333d6dcf1b906512792f030048390e7a9bc66309c0e0',
          to: rubricSha256,
        },
      ],
      decision: 'pending (no review)',
    })
    const { code, stdout } = await runCli(['bind', '.', '--all', '--dry-run'], copy.dir)
    expect(code).toBe(0)
    expect(stdout).toContain(
      `  partial-recall: would be re-stamped (no review: nothing was judged), then the case would be decided pending (no review)\n    cases.json › cases[0] › expected › rubric_sha256\n      be89f77dd9c03442e7f5333d6dcf1b906512792f030048390e7a9bc66309c0e0\n    → ${rubricSha256}\n  zero-planted-issues: would bind`,
    )
    expect(stdout).toContain('  dry run: nothing was written (10 cases would change)')
  })

  test('a case with only a baseline review is bound: the missing debate review stays recorded as none', async () => {
    const copy = await copyDebate()
    await withdrawReview(copy, 'partial-recall', 'debate', true)
    await reviseRubricNotes(copy)
    const result = await bindFixture(copy.dir, { cases: ['partial-recall'], dryRun: false, cwd: copy.dir })
    expect(result.cases).toEqual([expect.objectContaining({ id: 'partial-recall', decision: 'pending (no review)' })])
    expect(result.cases[0]!.changes.map(({ location }) => location)).toEqual([
      'cases.json › cases[0] › expected › rubric_sha256',
      'annotations.json › reviews[0] › rubric_sha256',
      'cases.json › cases[0] › expected › baseline_review_sha256',
    ])
    expect((await copy.readJson<CasesJson>('cases.json')).cases[0]!.expected.debate_review_sha256).toBe(NULL_FINGERPRINT)
  })

  test('a case with neither review: nothing to bind while its hashes are current; after a rubric revision only cases.json is re-stamped', async () => {
    const copy = await copyDebate()
    await withdrawReview(copy, 'partial-recall', 'debate', true)
    await withdrawReview(copy, 'partial-recall', 'baseline', true)
    const before = await snapshotFiles(copy.dir)
    const { code, stdout, stderr } = await runCli(['bind', '.', '--case', 'partial-recall'], copy.dir)
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    expect(stdout).toMatchInlineSnapshot(`
      ".
        partial-recall: already bound to the current files (pending (no review))
        nothing to change: no file was written
      "
    `)
    await expectUnchanged(copy.dir, before)

    const rubricSha256 = await reviseRubricNotes(copy)
    const annotations = await readFile(join(copy.dir, 'annotations.json'))
    const result = await bindFixture(copy.dir, { cases: ['partial-recall'], dryRun: false, cwd: copy.dir })
    expect(result.cases).toEqual([expect.objectContaining({ id: 'partial-recall', kind: 'unreviewed', decision: 'pending (no review)' })])
    expect(result.written).toEqual(['cases.json'])
    expect((await copy.readJson<CasesJson>('cases.json')).cases[0]!.expected).toEqual({
      rubric_sha256: rubricSha256,
      debate_review_sha256: NULL_FINGERPRINT,
      baseline_review_sha256: NULL_FINGERPRINT,
    })
    expect((await readFile(join(copy.dir, 'annotations.json'))).equals(annotations)).toBe(true)
  })

  test('a case whose removed review it still records: --all leaves it alone, --case acknowledges the withdrawal', async () => {
    const copy = await copyDebate()
    await withdrawReview(copy, 'partial-recall', 'debate', false)
    await withdrawReview(copy, 'partial-recall', 'baseline', true)
    const all = await runCli(['bind', '.', '--all'], copy.dir)
    expect(all.code).toBe(0)
    expect(all.stdout).toContain('  skipped partial-recall: its review was removed but is still recorded: name it with --case to acknowledge the withdrawal\n')
    expect((await copy.readJson<CasesJson>('cases.json')).cases[0]!.expected.debate_review_sha256).not.toBe(NULL_FINGERPRINT)

    const { code, stdout } = await runCli(['bind', '.', '--case', 'partial-recall'], copy.dir)
    expect(code).toBe(0)
    expect(stdout).toContain(
      '  partial-recall: review withdrawal acknowledged, then decided pending (no review)\n    cases.json › cases[0] › expected › debate_review_sha256\n',
    )
    expect((await copy.readJson<CasesJson>('cases.json')).cases[0]!.expected.debate_review_sha256).toBe(NULL_FINGERPRINT)
    expect((await statuses(copy.dir))['partial-recall']).toBe('pending')
  })

  test('a baseline review that would still be refused once bound is not bound, and nothing is written', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases[0]!.outputs.baseline.self_critique = 'No issues found.'
    })
    const before = await snapshotFiles(copy.dir)
    const { code, stderr } = await runCli(['bind', '.', '--case', 'partial-recall'], copy.dir)
    expect(code).toBe(1)
    expect(stderr).toMatchInlineSnapshot(`
      "annotations.json: once bound, a case would still be refused, so its judgements do not fit the current files; nothing was written.
          annotations.json › reviews[1] › claims[0] › span (case "partial-recall"): the excerpt does not occur in cases.json › cases[0] › outputs › baseline › self_critique.
            expected: an exact excerpt of the output the review describes
            found:    "The slice end subtracts one, so each page loses its last item."
            fix:      quote the output exactly (whitespace and punctuation included); if the output changed, re-review it.
        fix:      revise the review as the message says (a rubric revision needs revised judgements, not only new hashes), then bind again.
      "
    `)
    await expectUnchanged(copy.dir, before)
  })

  test('two cases that would still be refused are both named', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases[0]!.outputs.debate.transcript[0]!.text = 'Nothing to say.'
      cases.cases[1]!.outputs.debate.transcript[0]!.text = 'Nothing to say.'
    })
    const { code, stderr } = await runCli(['bind', '.', '--all'], copy.dir)
    expect(code).toBe(1)
    expect(stderr).toMatch(
      /^annotations\.json: once bound, 2 cases would still be refused, so their judgements do not fit the current files; nothing was written\.\n/,
    )
    expect(stderr).toContain('\n    annotations.json › reviews[0] › claims[0] › span (case "partial-recall")')
    expect(stderr).toContain('\n    annotations.json › reviews[2] › claims[0] › span (case "zero-planted-issues")')
  })

  test('a case that would still be refused on its own account is named once, not again for its baseline', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      const issues = cases.cases[0]!.spec.ground_truth.planted_issues
      issues.push({ ...issues[0]! })
    })
    const { code, stderr } = await runCli(['bind', '.', '--case', 'partial-recall', '--dry-run'], copy.dir)
    expect(code).toBe(1)
    expect(stderr).toMatchInlineSnapshot(`
      "annotations.json: once bound, a case would still be refused, so its judgements do not fit the current files; nothing was written.
          cases.json › cases[0] › spec › ground_truth › planted_issues[2] › id (case "partial-recall"): the planted issue id is already used by planted_issues[0].
            found:    "P1"
            fix:      give every planted issue its own id: claims find planted issues by id.
        fix:      revise the review as the message says (a rubric revision needs revised judgements, not only new hashes), then bind again.
      "
    `)
  })

  test('a malformed case has no hashes to bind: the refusal says why, and nothing is written', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      ;(cases.cases[0]!.spec as { max_rounds: unknown }).max_rounds = 'four'
    })
    const before = await snapshotFiles(copy.dir)
    const { code, stderr } = await runCli(['bind', '.', '--case', 'partial-recall'], copy.dir)
    expect(code).toBe(1)
    expect(stderr).toMatchInlineSnapshot(`
      "cases.json (case "partial-recall"): the case or its review is malformed, so it has no hashes to bind; nothing was written.
          cases.json › cases[0] › spec › max_rounds (case "partial-recall"): the value has the wrong type.
            expected: a number
            found:    the string "four"
            fix:      a case holds id, spec { input, ideal_debate_resolution, max_rounds, ground_truth { planted_issues, final_verdict? } }, outputs { debate { transcript }, baseline { answer, self_critique } } and expected { rubric_sha256, debate_review_sha256, baseline_review_sha256 } (see docs/scored.md).
        fix:      fix what the message names, then bind again.
      "
    `)
    await expectUnchanged(copy.dir, before)
  })

  test.each(['rubric_sha256', 'spec_sha256', 'output_sha256'])('a review whose %s is not a string has no hashes to bind', async (key) => {
    const copy = await copyDebate()
    await copy.editReview('partial-recall', 'baseline', (review) => {
      ;(review as unknown as Record<string, unknown>)[key] = 42
    })
    const { code, stderr } = await runCli(['bind', '.', '--case', 'partial-recall'], copy.dir)
    expect(code).toBe(1)
    expect(stderr).toMatch(/^cases\.json \(case "partial-recall"\): the case or its review is malformed, so it has no hashes to bind; nothing was written\./)
    expect(stderr).toContain(`annotations.json › reviews[1] › ${key} (case "partial-recall"): the value has the wrong type.`)
  })

  test('a case with both reviews malformed names both refusals, each on its own lines', async () => {
    const copy = await copyDebate()
    for (const system of ['debate', 'baseline'] as const) {
      await copy.editReview('zero-planted-issues', system, (review) => {
        ;(review as unknown as Record<string, unknown>)['output_sha256'] = 42
      })
    }
    const { code, stderr } = await runCli(['bind', '.', '--case', 'zero-planted-issues'], copy.dir)
    expect(code).toBe(1)
    expect(stderr).toMatchInlineSnapshot(`
      "cases.json (case "zero-planted-issues"): the case or its review is malformed, so it has no hashes to bind; nothing was written.
          annotations.json › reviews[2] › output_sha256 (case "zero-planted-issues"): the value has the wrong type.
            expected: a string
            found:    the integer 42
            fix:      a debate review holds case_id, system, rubric_sha256, spec_sha256, output_sha256, claims, resolution, empirical_test and final_verdict (see docs/scored.md for each field).
          annotations.json › reviews[3] › output_sha256 (case "zero-planted-issues"): the value has the wrong type.
            expected: a string
            found:    the integer 42
            fix:      a baseline review holds case_id, system, rubric_sha256, spec_sha256, output_sha256, claims, resolution, empirical_test and final_verdict (see docs/scored.md for each field).
        fix:      fix what the message names, then bind again.
      "
    `)
  })

  test('each refusal carries its code', async () => {
    const copy = await copyDebate()
    const bind = (cases: readonly string[] | 'all') => bindFixture(copy.dir, { cases, dryRun: true, cwd: copy.dir })
    await expect(bind(['no-such-case'])).rejects.toMatchObject({ code: 'CASE_NOT_FOUND' })
    await copy.editCases((cases) => {
      cases.cases[0]!.outputs.debate.transcript[0]!.text = 'Nothing to say.'
      ;(cases.cases[1]!.spec as { max_rounds: unknown }).max_rounds = 'four'
    })
    await expect(bind(['partial-recall'])).rejects.toMatchObject({ code: 'BIND_STILL_REFUSED', summary: expect.stringContaining('once bound') })
    await expect(bind(['zero-planted-issues'])).rejects.toMatchObject({ code: 'BIND_STILL_REFUSED', summary: expect.stringContaining('malformed') })
  })

  test('an unknown case names the cases there are', async () => {
    const copy = await copyDebate()
    const { code, stderr } = await runCli(['bind', '.', '--case', 'partial-recal'], copy.dir)
    expect(code).toBe(1)
    expect(stderr).toMatchInlineSnapshot(`
      "cases.json: there is no case "partial-recal"; nothing was written.
        expected: one of "partial-recall", "zero-planted-issues", "false-claim-conceded", "concession-without-update", "inefficient-resolution", "never-terminates", "empirical-test-agreed", "verdict-normalization", "unscoreable-silent-critique", "required-test-missing"
        found:    "partial-recal"
        fix:      pass the id of a case in cases.json, or --all.
      "
    `)
  })

  test('--dry-run reports the files it would write as none', async () => {
    const copy = await copyDebate()
    await reviseRubricNotes(copy)
    const before = await snapshotFiles(copy.dir)
    const result = await bindFixture(copy.dir, { cases: ['partial-recall'], dryRun: true, cwd: copy.dir })
    expect(result.written).toEqual([])
    expect(result.cases[0]!.changes).toHaveLength(5)
    await expectUnchanged(copy.dir, before)
  })
})
