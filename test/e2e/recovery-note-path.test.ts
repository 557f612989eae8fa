import { spawnSync } from 'node:child_process'
import { cp } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

/*
 * The note of a command that finishes a save a killed writer left names the fixture as every path
 * is printed (docs/cli.md): relative to the working directory when it lies inside it, whether the
 * command reads the fixture (`evaluate`, `status`, `show`) or writes it.
 */

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

/** A project whose fixtures/lab holds a review save that its writer committed, then was killed before finishing. */
async function killedSave(reason: string): Promise<string> {
  const root = await scratchDir('recovery-note-path')
  await cp(DOCUCTL, join(root, 'fixtures/lab'), { recursive: true })
  const review = ['review', 'fixtures/lab', '--case', 'uncertain-wording', '--replace']
  const ratings = CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=meets`, '--reason', `${criterion}=${reason}`])
  // Killed right after renaming annotations.json, before cases.json: its journal is committed.
  const killed = spawnSync(process.execPath, [join(ROOT, 'dist/cli/bin.js'), ...review, ...ratings], {
    cwd: root,
    env: { ...process.env, VITEST_RUBRIC_CRASH_AT: '5' },
  })
  expect(killed.signal ?? killed.status).not.toBe(0)
  return root
}

describe('the note of a save finished for a killed writer', { timeout: 60_000 }, () => {
  test.each([
    ['evaluate', ['evaluate', 'fixtures/lab']],
    ['status', ['status', 'fixtures/lab']],
    ['show', ['show', 'fixtures/lab', '--case', 'complete']],
    [
      'review',
      [
        'review',
        'fixtures/lab',
        '--case',
        'not-reviewed',
        ...CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=meets`, '--reason', `${criterion}=x`]),
      ],
    ],
  ])('%s names the fixture relative to the working directory', async (_, argv) => {
    const root = await killedSave(`before ${argv[0]}`)
    const run = await runCli(argv, root)
    expect(run.stderr).toMatch(
      /^note: fixtures\/lab: finished the save that process \d+ \(review fixtures\/lab --case uncertain-wording .*\) had committed when it stopped \(annotations\.json, cases\.json\)\.\n/,
    )
  })
})
