import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { loadFixture } from '../../src/core/engine/fixture.js'
import { kinds } from '../../src/core/registry.js'
import { pageCase } from '../../src/web/page-data.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { fixtureRoot } from '../helpers/page-browser.js'

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

test("a case carries its judges' labels as hints: a current one with its judgements, a stale one named without them, none for a blind reviewer", async () => {
  const root = await fixtureRoot('judge-hints', { 'fixtures/lab': DOCUCTL })
  for (const judge of ['fresh', 'old']) {
    const judged = CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=meets`, '--reason', `${criterion}=${judge} says so.`])
    expect((await runCli(['review', 'fixtures/lab', '--case', 'not-reviewed', '--judge', judge, '--origin', `${judge} model`, ...judged], root)).code).toBe(0)
  }
  // The old judge's label was made against another answer.
  const oldFile = join(root, 'fixtures/lab/judges/old.json')
  const old = JSON.parse(await readFile(oldFile, 'utf8'))
  old.reviews[0].answer_sha256 = '0'.repeat(64)
  await writeFile(oldFile, `${JSON.stringify(old, null, 2)}\n`)

  const fixture = await loadFixture(kinds, join(root, 'fixtures/lab'), { cwd: root })
  const hints = pageCase(fixture, 0, 'not-reviewed', { role: 'adjudicator', name: 'carol' }).judges
  expect(hints).toHaveLength(2)
  expect(hints.find((hint) => hint.judge === 'fresh')).toMatchObject({
    current: true,
    origin: 'fresh model',
    prediction: 'accepted',
    judgements: { support: { rating: 'meets', reason: 'fresh says so.' } },
  })
  const stale = hints.find((hint) => hint.judge === 'old')
  expect(stale).toMatchObject({ current: false, origin: 'old model' })
  expect(stale).not.toHaveProperty('judgements')
  expect(stale).toHaveProperty('reason', expect.stringMatching(/answer/))
  expect(pageCase(fixture, 0, 'not-reviewed', { role: 'reviewer', name: 'alice' }).judges).toEqual([])
})

test('each criterion of a case with independent reviews says what keeps the reviewers from agreeing, as the terminal sorts them', async () => {
  const root = await fixtureRoot('disputes', { 'fixtures/lab': DOCUCTL })
  for (const reviewer of ['alice', 'bob']) {
    const rated = reviewer === 'bob' ? CRITERIA.filter((criterion) => criterion !== 'command') : CRITERIA
    const ratings: Record<string, string> = { support: 'uncertain', verification: reviewer === 'alice' ? 'meets' : 'does_not_meet' }
    const judged = rated.flatMap((criterion) => ['--rating', `${criterion}=${ratings[criterion] ?? 'meets'}`, '--reason', `${criterion}=${reviewer}.`])
    expect((await runCli(['review', 'fixtures/lab', '--case', 'not-reviewed', '--reviewer', reviewer, ...judged], root)).code).toBe(0)
  }
  const fixture = await loadFixture(kinds, join(root, 'fixtures/lab'), { cwd: root })
  const disputes = (viewer: Parameters<typeof pageCase>[3]) =>
    Object.fromEntries(pageCase(fixture, 0, 'not-reviewed', viewer).criteria.map((item) => [item.criterion, item.dispute]))
  expect(disputes({ role: 'adjudicator', name: 'carol' })).toEqual({
    command: 'not judged by all',
    preconditions: null,
    database_scope: null,
    verification: 'disputed',
    support: 'uncertain',
  })
  // A blind reviewer is told nothing of the others' ratings.
  expect(Object.values(disputes({ role: 'reviewer', name: 'alice' }))).toEqual([null, null, null, null, null])
})
