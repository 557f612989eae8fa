import { spawnSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { copyFixture, ROOT } from '../helpers/fixture-copy.js'
import { queueFixture } from '../helpers/queue-fixture.js'

describe('vitest-rubric next', () => {
  test('one line per case in queue order, under a header that counts every reason; --limit cuts the list, not the counts', async () => {
    const fixture = await queueFixture()
    const { code, stdout } = await runCli(['next', '.', '--limit', '3'], fixture.dir)
    expect(code).toBe(0)
    expect(stdout).toBe(
      [
        'docuctl-rollback-contrasts (.): 6 cases to review (reviewers disagree 1, waiting for adjudication 1, stale review 2, not reviewed 1, review not settled 1)',
        '  not-reviewed  reviewers disagree: on support',
        '  complete      waiting for adjudication: the review in annotations.json was not adopted by an adjudication, and an adoption decides a case with independent reviews: run `vitest-rubric adjudicate . --case complete --adjudicator <name>`; 2 reviews agree, not adopted yet',
        "  paraphrase    stale review: alice's review: answer changed (REVIEW_ANSWER_STALE)",
        '  … and 3 more (--limit 0 lists every one)',
        '',
      ].join('\n'),
    )
    const all = await runCli(['next', '.', '--limit', '0'], fixture.dir)
    expect(
      all.stdout
        .split('\n')
        .slice(1, -1)
        .map((line) => line.trim().split(/\s+/, 1)[0]),
    ).toEqual(['not-reviewed', 'complete', 'paraphrase', 'negation', 'wrong-command', 'uncertain-wording'])
  })

  test('--json: the fixture, whose queue, the total, the counts per reason and each entry with its reason, criteria and codes', async () => {
    const fixture = await queueFixture()
    const { code, stdout } = await runCli(['next', '.', '--json', '--limit', '4'], fixture.dir)
    expect(code).toBe(0)
    const queue = JSON.parse(stdout)
    expect(Object.keys(queue)).toEqual(['fixture', 'name', 'reviewer', 'adjudicator', 'total', 'counts', 'entries'])
    expect(queue).toMatchObject({ fixture: '.', reviewer: null, adjudicator: null, total: 6 })
    expect(queue.counts).toEqual({ sampled: 0, disagreement: 1, adjudication: 1, stale: 2, unreviewed: 1, unsettled: 1 })
    expect(queue.entries).toHaveLength(4)
    expect(queue.entries[0]).toEqual({ caseId: 'not-reviewed', reason: 'disagreement', detail: 'on support', criteria: ['support'], codes: [] })
    expect(queue.entries[3]).toEqual({
      caseId: 'negation',
      reason: 'stale',
      detail: 'the review: answer changed (REVIEW_ANSWER_STALE)',
      criteria: [],
      codes: ['REVIEW_ANSWER_STALE'],
    })
  })

  test("--reviewer is blind: a disagreement is named by criterion, never by a reviewer's name or rating", async () => {
    const fixture = await queueFixture()
    const { code, stdout } = await runCli(['next', '.', '--reviewer', 'carol'], fixture.dir)
    expect(code).toBe(0)
    expect(stdout).toContain('not-reviewed       reviewers disagree: on support; not reviewed by carol')
    for (const hidden of ['alice', 'bob', 'meets', 'does_not_meet', 'uncertain on']) expect(stdout).not.toContain(hidden)
    const json = await runCli(['next', '.', '--reviewer', 'carol', '--json'], fixture.dir)
    for (const hidden of ['alice', 'bob', 'meets']) expect(json.stdout).not.toContain(hidden)
  })

  test('--reviewer skips the cases the reviewer has done, and keeps their own stale review', async () => {
    const fixture = await queueFixture()
    const queue = JSON.parse((await runCli(['next', '.', '--reviewer', 'alice', '--json'], fixture.dir)).stdout)
    expect(queue.entries.map((entry: { caseId: string; reason: string }) => `${entry.caseId} ${entry.reason}`)).toEqual([
      'paraphrase stale',
      'wrong-command unreviewed',
      'uncertain-wording unreviewed',
    ])
    expect(queue.entries[0].detail).toBe('your review: answer changed (REVIEW_ANSWER_STALE)')
  })

  test('a sampled case pending for lack of a review comes first', async () => {
    const fixture = await queueFixture()
    expect((await runCli(['sample', '.', '--size', '8', '--seed', 'queue'], fixture.dir)).code).toBe(0)
    const { stdout } = await runCli(['next', '.', '--limit', '1'], fixture.dir)
    expect(stdout).toContain('wrong-command  sampled, not reviewed: drawn in draw 1; no review')
  })

  test('a case an active sample drew says the judge is uncertain, naming the criterion it is least sure of and its confidence', async () => {
    const fixture = await queueFixture()
    await writeFile(
      join(fixture.dir, 'judge.mjs'),
      "export default async ({ criterion }) => ({ rating: 'meets', reason: 'Met.', confidence: criterion.id === 'support' ? 0.6 : 0.95 })\n",
    )
    expect((await runCli(['judge', '.', '--judge', 'kw', '--run', 'judge.mjs'], fixture.dir)).code).toBe(0)
    expect((await runCli(['sample', '.', '--method', 'active', '--judge', 'kw', '--size', '8', '--seed', 'queue'], fixture.dir)).code).toBe(0)
    const { stdout } = await runCli(['next', '.', '--limit', '1'], fixture.dir)
    expect(stdout).toContain('wrong-command  sampled, not reviewed: drawn in draw 1, the judge is uncertain: support, confidence 0.6; no review')
  })

  test('an empty queue says "nothing to review" and exits 0', async () => {
    const fixture = await copyFixture()
    const { code, stdout } = await runCli(['next', '.', '--adjudicator', 'dana'], fixture.dir)
    expect(code).toBe(0)
    expect(stdout).toBe('docuctl-rollback-contrasts (.): nothing to review for dana\n')
  })

  test('the records layout gives the same queue, from the built bin', async () => {
    const fixture = await queueFixture()
    const bin = join(ROOT, 'dist/cli/bin.js')
    const next = () => spawnSync(process.execPath, [bin, 'next', '.', '--json', '--limit', '0'], { cwd: fixture.dir, encoding: 'utf8' })
    const reasons = (stdout: string) =>
      JSON.parse(stdout).entries.map((entry: { caseId: string; reason: string; criteria: string[]; codes: string[] }) => [
        entry.caseId,
        entry.reason,
        entry.criteria,
        entry.codes,
      ])
    const seed = next()
    expect(seed.status).toBe(0)
    expect((await runCli(['convert', '.', '--to', 'records'], fixture.dir)).code).toBe(0)
    const records = next()
    expect(records.status).toBe(0)
    expect(reasons(records.stdout)).toEqual(reasons(seed.stdout))
    expect(reasons(records.stdout)).toHaveLength(6)
  })

  test.each([
    [['next'], 'next takes exactly one fixture directory.'],
    [['next', '.', '--reviewer', 'alice', '--adjudicator', 'dana'], 'give --reviewer or --adjudicator, not both'],
    [['next', '.', '--limit', 'ten'], '--limit takes a whole number (0 for every entry), not "ten".'],
    [['next', '.', '--reviewer', '../x'], '--reviewer takes a name of letters, digits'],
  ])('%j is a usage error, exit 2', async (argv, message) => {
    const fixture = await copyFixture()
    const { code, stderr } = await runCli(argv, fixture.dir)
    expect(code).toBe(2)
    expect(stderr).toContain(message)
  })
})
