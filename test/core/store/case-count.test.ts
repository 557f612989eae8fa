import { appendFile, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { expect, test } from 'vitest'
import { countRecordCases } from '../../../src/core/store/case-count.js'
import { bucketOf, type ItemRecord, lineHash, recordLine } from '../../../src/core/store/records.js'
import { runCli } from '../../helpers/cli.js'
import { copyFixture } from '../../helpers/fixture-copy.js'

const RATINGS = ['command', 'preconditions', 'database_scope', 'verification', 'support'].flatMap((id) => [
  '--rating',
  `${id}=meets`,
  '--reason',
  `${id}=Meets.`,
])

test('the cases of a records fixture are counted from their records: a revised case once, a new one added, a seed fixture not at all', async () => {
  const fixture = await copyFixture()
  const root = dirname(fixture.dir)
  const name = fixture.dir.slice(root.length + 1)
  expect(await countRecordCases(fixture.dir)).toBeUndefined()
  expect((await runCli(['convert', name, '--to', 'records'], root)).code).toBe(0)
  expect(await countRecordCases(fixture.dir)).toBe(8)
  // A review revises its case's record (its expected review fingerprint): the case is counted once.
  const reviewed = await runCli(['review', name, '--case', 'not-reviewed', ...RATINGS], root)
  expect(reviewed.code, reviewed.stderr).toBe(0)
  expect(await countRecordCases(fixture.dir)).toBe(8)
  await writeFile(join(root, 'answer.txt'), 'Run `docuctl releases rollback r41 --environment staging`.')
  const added = await runCli(['add', name, '--id', 'new-case', '--answer-file', 'answer.txt', '--citation', 'the guide'], root)
  expect(added.code, added.stderr).toBe(0)
  expect(await countRecordCases(fixture.dir)).toBe(9)
})

test('a case removed, compacted, and its earlier line brought back by a merge is still counted as removed', async () => {
  const fixture = await copyFixture()
  const root = dirname(fixture.dir)
  const name = fixture.dir.slice(root.length + 1)
  expect((await runCli(['convert', name, '--to', 'records'], root)).code).toBe(0)
  await writeFile(join(root, 'answer.txt'), 'Run `docuctl releases rollback r41 --environment staging`.')
  expect((await runCli(['add', name, '--id', 'new-case', '--answer-file', 'answer.txt', '--citation', 'the guide'], root)).code).toBe(0)
  const bucket = join(fixture.dir, 'records', bucketOf('new-case', 16))
  const line = (await readFile(bucket, 'utf8')).split('\n').find((each) => each.includes('"case":"new-case"'))!
  const head = JSON.parse(line) as ItemRecord
  // Revised, then removed: the line brought back is replaced only by a line the compaction removes.
  const revision = recordLine({ ...head, replaces: [lineHash(line)], save: 'aaaaaaaaaaaa' })
  const removal: ItemRecord = {
    doc: 'cases.json',
    case: 'new-case',
    n: head.n,
    removed: true,
    replaces: [lineHash(revision)],
    save: 'bbbbbbbbbbbb',
    at: head.at,
    by: head.by,
  }
  await appendFile(bucket, revision + recordLine(removal))
  expect(await countRecordCases(fixture.dir)).toBe(8)
  const compacted = await runCli(['compact', name], root)
  expect(compacted.code, compacted.stderr).toBe(0)
  expect(await readFile(bucket, 'utf8')).not.toContain(line)
  await appendFile(bucket, `${line}\n`)
  expect(await countRecordCases(fixture.dir)).toBe(8)
})
