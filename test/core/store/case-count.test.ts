import { writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { expect, test } from 'vitest'
import { countRecordCases } from '../../../src/core/store/case-count.js'
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
