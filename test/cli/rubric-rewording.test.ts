import { execFileSync, spawnSync } from 'node:child_process'
import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { FixtureStatus } from '../../src/core/engine/status.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

const hasGit = spawnSync('git', ['--version']).status === 0

/**
 * A git work tree holding a copy of the docuctl lab at `lab/`, committed once (after `before`, an
 * edit made before that first commit); `commit` commits what changed since.
 */
async function repository(before?: (dir: string) => Promise<void>): Promise<{ dir: string; first: string; commit: (message: string) => string }> {
  const root = await scratchDir('rewording')
  await cp(DOCUCTL, join(root, 'lab'), { recursive: true, filter: (source) => !source.endsWith('decisions.record.json') })
  await before?.(join(root, 'lab'))
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Reviewer', '-c', 'user.email=reviewer@example.invalid', ...args], { cwd: root, encoding: 'utf8' })
  git('init', '-q', '-b', 'main')
  const commit = (message: string) => {
    git('add', '-A')
    git('commit', '-q', '-m', message)
    return git('rev-parse', 'HEAD').trim()
  }
  return { dir: join(root, 'lab'), first: commit('the lab'), commit }
}

async function rewordSupport(dir: string): Promise<void> {
  const path = join(dir, 'rubric.json')
  const rubric = JSON.parse(await readFile(path, 'utf8')) as { criteria: Record<string, string>[] }
  rubric.criteria.find((each) => each['id'] === 'support')!['rule'] = 'Every material claim must be supported by this source, and by nothing else.'
  await writeFile(path, `${JSON.stringify(rubric, null, 2)}\n`)
}

async function statusOf(dir: string): Promise<{ code: number; status: FixtureStatus; text: string }> {
  const json = await runCli(['status', '.', '--json'], dir)
  expect(json.stderr).toBe('')
  const text = await runCli(['status', '.'], dir)
  return { code: json.code, status: (JSON.parse(json.stdout) as FixtureStatus[])[0]!, text: text.stdout }
}

function finding(status: FixtureStatus, id: string, group: string) {
  return status.cases.find((each) => each.id === id)!.findings.find((each) => each.group === group)
}

describe.skipIf(!hasGit)('a reworded rule, found in git history', () => {
  test('status names the rule reworded and the criteria unchanged, in text and in --json; the case is still refused', async () => {
    const { dir, first, commit } = await repository()
    await rewordSupport(dir)
    commit('reword support')
    const { code, status, text } = await statusOf(dir)
    expect(code).toBe(1)
    const stale = finding(status, 'complete', 'stale-rubric')!
    expect(stale.detail).toContain(`; since ${first.slice(0, 7)}: rule of support reworded; command, preconditions, database_scope, verification unchanged`)
    expect(stale.changes).toEqual([
      {
        rubric_sha256: expect.stringMatching(/^3a8dcd22e9f4/),
        commit: first,
        everything: null,
        changed: [{ criterion: 'support', parts: ['rule'] }],
        added: [],
        removed: [],
        unchanged: ['command', 'preconditions', 'database_scope', 'verification'],
      },
    ])
    expect(text).toContain('rule of support reworded; command, preconditions, database_scope, verification unchanged')
    // Nothing is decided differently: the stale review still refuses the case.
    const evaluated = JSON.parse((await runCli(['evaluate', '.', '--json'], dir)).stdout)
    expect(evaluated.decisions.complete.status).toBe('refused')
  })

  test('a rubric edited but never committed: everything is said to need re-reading, as without git', async () => {
    // The reviews were bound to a revision nobody committed: the history has only the reworded one.
    const { dir } = await repository(rewordSupport)
    const { status } = await statusOf(dir)
    expect(status.cases.length).toBeGreaterThan(0)
    const stale = finding(status, 'complete', 'stale-rubric')!
    expect(stale.detail).toMatch(
      /; no criterion was added, removed or re-quoted: the change is in a rule, the task or the acceptance text, so re-read every criterion$/,
    )
    expect(stale.changes).toEqual([expect.objectContaining({ commit: null, unchanged: [] })])
  })
})
