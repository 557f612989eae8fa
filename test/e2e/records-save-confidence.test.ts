import { cp, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { bucketOf } from '../../src/core/store/records.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

// A save of one case in the records layout reads that case's bucket file alone; every other one must
// be as sound as a whole read finds it. A judge's confidence outside 0 to 1 refuses the fixture at a
// whole read, so it refuses such a save too, rather than let the save succeed over a fixture the next
// read refuses.

const FIX = 'fixtures/lab'
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

function label(caseId: string, reason: string): string[] {
  return [
    'review',
    FIX,
    '--case',
    caseId,
    '--judge',
    'kw',
    ...CRITERIA.flatMap((item) => ['--rating', `${item}=meets`, '--reason', `${item}=${reason}`, '--span', `${item}=`]),
  ]
}

test("a judge's label saved beside another case's confidence outside 0 to 1 is refused, naming that line, and nothing is written", async () => {
  const root = await scratchDir('records-confidence')
  await cp(DOCUCTL, join(root, FIX), { recursive: true, filter: (source) => !source.endsWith('decisions.record.json') })
  expect((await runCli(['convert', FIX, '--to', 'records'], root)).code).toBe(0)
  for (const caseId of ['complete', 'wrong-command']) expect((await runCli(label(caseId, 'ok'), root)).code).toBe(0)
  const { buckets } = JSON.parse(await readFile(join(root, FIX, 'records/layout.json'), 'utf8')) as { buckets: number }
  expect(bucketOf('complete', buckets)).not.toBe(bucketOf('wrong-command', buckets))
  // A hand edit gives the judge's label of "complete" a confidence of 1.5.
  const path = join(root, FIX, 'records', bucketOf('complete', buckets))
  const lines = (await readFile(path, 'utf8')).split('\n')
  const at = lines.findIndex((line) => line.startsWith('{"doc":"judges/kw.json"'))
  lines[at] = lines[at]!.replace('"command":{"rating":"meets"', '"command":{"rating":"meets","confidence":1.5')
  await writeFile(path, lines.join('\n'))

  const before = new Map(
    await Promise.all(
      (await readdir(join(root, FIX, 'records'))).map(async (name) => [name, await readFile(join(root, FIX, 'records', name), 'utf8')] as const),
    ),
  )
  const saved = await runCli([...label('wrong-command', 'again'), '--replace'], root)
  expect(saved.code).toBe(1)
  expect(saved.stderr).toContain(
    `${FIX}/records/${bucketOf('complete', buckets)}:${at + 1} › item › judgements › command › confidence (case "complete"): the confidence in kw's label is not a number from 0 to 1`,
  )
  expect(saved.stderr).toContain('found:    the number 1.5')
  const after = new Map(
    await Promise.all(
      (await readdir(join(root, FIX, 'records'))).map(async (name) => [name, await readFile(join(root, FIX, 'records', name), 'utf8')] as const),
    ),
  )
  expect(after).toEqual(before)
  // The whole read refuses the fixture for the same value.
  expect((await runCli(['evaluate', FIX], root)).stderr).toContain('confidence (case "complete")')
})
