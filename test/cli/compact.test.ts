import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { copyFixture } from '../helpers/fixture-copy.js'

/**
 * `compact` rewrites the record files of a records-layout fixture without their superseded lines:
 * the fixture decides as before, later revisions are accepted as before, and a hand edit is still
 * refused.
 */

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

function review(caseId: string, failing: readonly string[], reason: string): string[] {
  return [
    'review',
    '.',
    '--case',
    caseId,
    '--replace',
    ...CRITERIA.flatMap((criterion) => [
      '--rating',
      `${criterion}=${failing.includes(criterion) ? 'does_not_meet' : 'meets'}`,
      '--reason',
      `${criterion}=${reason}`,
    ]),
  ]
}

async function ok(argv: readonly string[], dir: string): Promise<string> {
  const run = await runCli(argv, dir)
  expect(run.code, run.stderr).toBe(0)
  return run.stdout
}

/** What `evaluate --json` says: every decision and the identities of the documents the records make. */
async function evaluation(dir: string): Promise<unknown> {
  const parsed = JSON.parse(await ok(['evaluate', '.', '--json'], dir)) as { decisions: unknown; identities: unknown }
  return { decisions: parsed.decisions, identities: parsed.identities }
}

async function lineCount(dir: string): Promise<number> {
  const folder = join(dir, 'records')
  let count = 0
  for (const name of (await readdir(folder)).filter((each) => each.endsWith('.jsonl')))
    count += (await readFile(join(folder, name), 'utf8')).split('\n').filter(Boolean).length
  return count
}

/** The docuctl fixture in the records layout, one of its cases' reviews revised twice. */
async function revised(): Promise<string> {
  const { dir } = await copyFixture()
  await ok(['convert', '.', '--to', 'records'], dir)
  await ok(review('uncertain-wording', ['support'], 'First revision'), dir)
  await ok(review('uncertain-wording', ['command'], 'Second revision'), dir)
  return dir
}

describe('compact', () => {
  test('removes the superseded lines and says which files, with their lines before and after; the fixture decides exactly as before', async () => {
    const dir = await revised()
    const before = await evaluation(dir)
    const lines = await lineCount(dir)
    const out = await ok(['compact', '.'], dir)
    expect(out).toMatch(new RegExp(`^\\.: compacted 1 of 7 record files, ${lines} lines to ${lines - 3}\\n {2}records/[0-9a-f]\\.jsonl: 8 → 5 lines\\n$`))
    expect(await lineCount(dir)).toBe(lines - 3)
    expect(await evaluation(dir)).toEqual(before)

    expect(await ok(['compact', '.'], dir)).toBe(`.: nothing to compact: none of its 7 record files (${lines - 3} lines) holds a superseded line\n`)
  })

  test('--json gives the same account', async () => {
    const dir = await revised()
    const report = JSON.parse(await ok(['compact', '.', '--json'], dir)) as Record<string, unknown>
    expect(report).toEqual({
      dir: '.',
      layout: 'records',
      files: 7,
      before: 21,
      after: 18,
      compacted: [{ file: expect.stringMatching(/^records\/[0-9a-f]\.jsonl$/), before: 8, after: 5 }],
    })
  })

  test('a later review --replace names the record it replaces and is accepted; a hand edit is still refused as unacknowledged', async () => {
    const dir = await revised()
    await ok(['compact', '.'], dir)
    await ok(review('uncertain-wording', ['verification'], 'After compaction'), dir)
    const decided = JSON.parse(await ok(['evaluate', '.', '--json'], dir)) as { decisions: Record<string, { status: string; reason: string }> }
    expect(decided.decisions['uncertain-wording']).toMatchObject({ status: 'rejected', reason: 'verification' })

    const folder = join(dir, 'records')
    for (const name of await readdir(folder)) {
      const text = await readFile(join(folder, name), 'utf8')
      if (text.includes('After compaction')) await writeFile(join(folder, name), text.replaceAll('After compaction', 'Edited by hand'))
    }
    const refused = await runCli(['evaluate', '.'], dir)
    expect(refused.stdout).toMatch(
      /uncertain-wording: refused \(records\/annotations\.json › reviews\[\d+\] changed since the case recorded it: an unacknowledged label edit\.\)/,
    )
  })

  test('a fixture in the seed layout: nothing to compact, exit 0, nothing written', async () => {
    const { dir } = await copyFixture()
    const before = await readdir(dir)
    expect(await ok(['compact', '.'], dir)).toBe(
      '.: in the seed layout, which has no superseded lines: nothing to compact (compact applies to the records layout: `vitest-rubric convert . --to records`)\n',
    )
    expect(await readdir(dir)).toEqual(before)
  })
})
