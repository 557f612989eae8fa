import { spawnSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ROOT, copyFixture } from '../helpers/fixture-copy.js'

const ENTER = '\r'
const DOWN = '\u001b[B'

interface TerminalRun {
  readonly status: number | null
  readonly screen: string
  readonly missed: string[]
  /** What the driver was waiting for when a guard ran out, or null. */
  readonly timedOut: string | null
}

/**
 * Runs the built bin on a pseudo-terminal (python3's pty), answering its prompts step by step.
 * Each prompt and the exit is waited for up to 30 s, the whole run up to 120 s: guards against a
 * hang, not budgets.
 */
function onTerminal(cwd: string, args: readonly string[], steps: readonly { expect: string; keys: string }[]): TerminalRun {
  const result = spawnSync('python3', [join(ROOT, 'test/helpers/pty_drive.py')], {
    input: JSON.stringify({ argv: [process.execPath, join(ROOT, 'dist/cli/bin.js'), ...args], cwd, steps, step_timeout: 30, timeout: 120 }),
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  })
  if (result.status !== 0) throw new Error(`the pty driver failed: ${result.stderr}`)
  return JSON.parse(result.stdout) as TerminalRun
}

test('the built bin on a real terminal: an interactive review of a case, written after confirmation', { timeout: 180_000 }, async () => {
  const fixture = await copyFixture()
  const rate = (criterion: string, downs: number, reason: string) => [
    { expect: `Rating of ${criterion}`, keys: DOWN.repeat(downs) + ENTER },
    { expect: `${criterion}?`, keys: reason + ENTER },
    { expect: 'The span of the answer', keys: ENTER },
  ]
  const run = onTerminal(
    fixture.dir,
    ['review', '.', '--case', 'not-reviewed'],
    [
      ...rate('command', 0, 'Gives the v3 command.'),
      ...rate('preconditions', 0, 'Approval and staging come first.'),
      ...rate('database_scope', 0, 'Says the database is not restored.'),
      ...rate('verification', 0, 'Asks for a health check.'),
      ...rate('support', 2, 'Not sure the guide says so.'),
      { expect: 'Write the review', keys: ENTER },
    ],
  )
  const seen = `${run.timedOut ?? 'the command exited'}; the screen shows:\n${run.screen.slice(-2000)}`
  expect(run.missed, seen).toEqual([])
  expect(run.status, seen).toBe(0)
  expect(run.screen).toContain('With this review the case is pending (uncertain on support).')
  expect(run.screen).toContain('not-reviewed: recorded a review, then decided pending (uncertain on support)')
  const review = JSON.parse(await readFile(join(fixture.dir, 'annotations.json'), 'utf8')).reviews.at(-1)
  expect(review.answer_id).toBe('not-reviewed')
  expect(review.judgements.support).toMatchObject({ rating: 'uncertain', reason: 'Not sure the guide says so.' })
})
