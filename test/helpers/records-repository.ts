// A git repository holding the bundled docuctl fixture in the records layout, as a team's
// repository starts: the git scenarios (merges, sharded judge runs, a deleted bucket) begin here.
import { execFileSync } from 'node:child_process'
import { cp } from 'node:fs/promises'
import { join } from 'node:path'
import { expect } from 'vitest'
import { runCli } from './cli.js'
import { DOCUCTL } from './fixture-copy.js'
import { scratchDir } from './scratch.js'

/** Where the fixture lies in the repository. */
export const RECORDS_FIXTURE = 'fixtures/lab'

/** Runs git in `cwd`; its output. A failing git command fails the test with git's message. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

/** A new repository, its main branch's one commit holding the bundled fixture (8 cases) converted to the records layout. */
export async function recordsRepository(name: string): Promise<string> {
  const root = await scratchDir(name)
  await cp(DOCUCTL, join(root, RECORDS_FIXTURE), { recursive: true, filter: (source) => !source.endsWith('decisions.record.json') })
  const converted = await runCli(['convert', RECORDS_FIXTURE, '--to', 'records'], root)
  expect(converted.code, converted.stderr).toBe(0)
  git(root, 'init', '-q', '-b', 'main')
  git(root, 'config', 'user.email', 'lab@example.org')
  git(root, 'config', 'user.name', 'Lab')
  git(root, 'config', 'commit.gpgsign', 'false')
  git(root, 'add', '-A')
  git(root, 'commit', '-q', '-m', 'base')
  return root
}
