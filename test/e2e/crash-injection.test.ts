import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { copyFixture, ROOT, type FixtureCopy } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

/**
 * Every writing command, killed (`kill -9`) after step k of its write for every k: afterwards the
 * next command decides the fixture exactly as before that save or exactly as after it, and no lock
 * or temporary file is left. The steps are the crash points of the writer (src/core/json/crash-points.ts).
 */
const BIN = join(ROOT, 'dist/cli/bin.js')
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

function ratings(rating: string, reason: string): string[] {
  return CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=${rating}`, '--reason', `${criterion}=${reason} (${criterion})`])
}

interface Scenario {
  readonly name: string
  readonly setup?: (fixture: FixtureCopy) => Promise<void>
  readonly argv: readonly string[]
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'review of an unreviewed case (annotations.json and cases.json)', argv: ['review', '.', '--case', 'not-reviewed', ...ratings('meets', 'Stated')] },
  {
    name: 'review --replace (annotations.json and cases.json)',
    argv: ['review', '.', '--case', 'uncertain-wording', '--replace', ...ratings('does_not_meet', 'Missing')],
  },
  {
    name: "a reviewer's first review (creates reviews/alice.json)",
    argv: ['review', '.', '--case', 'complete', '--reviewer', 'alice', ...ratings('meets', 'Seen')],
  },
  {
    name: 'add',
    argv: ['add', '.', '--id', 'extra', '--answer', 'Run `docuctl releases rollback r41 --environment staging`.', '--citation', 'docuctl 3 guide'],
  },
  {
    name: 'bind of an acknowledged hand edit',
    setup: async (fixture) =>
      fixture.editAnnotations((annotations) => {
        const review = annotations.reviews.find((each) => each.answer_id === 'complete')!
        review.judgements['support']!.reason = 'Edited by hand.'
      }),
    argv: ['bind', '.', '--case', 'complete'],
  },
  {
    name: 'adjudicate --consensus of two agreeing reviewers',
    setup: async (fixture) => {
      for (const reviewer of ['alice', 'bob']) {
        const run = await runCli(['review', '.', '--case', 'not-reviewed', '--reviewer', reviewer, ...ratings('meets', 'Agreed')], fixture.dir)
        expect(run.code, run.stderr).toBe(0)
      }
    },
    argv: ['adjudicate', '.', '--consensus', '--adjudicator', 'carol'],
  },
  {
    name: 'judge labels imported',
    setup: async (fixture) =>
      writeFile(
        join(fixture.dir, 'labels.jsonl'),
        `${JSON.stringify({ case: 'complete', judgements: Object.fromEntries(CRITERIA.map((c) => [c, { rating: 'meets', reason: 'Judged.' }])) })}\n`,
      ),
    argv: ['review', '.', '--judge', 'j1', '--from', 'labels.jsonl'],
  },
]

/** How the next command decides the fixture, and the bytes of every file in it. */
async function decisionsOf(dir: string): Promise<{ decisions: unknown; stderr: string }> {
  const run = await runCli(['evaluate', '.', '--json'], dir)
  const parsed = JSON.parse(run.stdout) as { decisions: unknown }
  const files: Record<string, string> = {}
  for (const entry of (await readdir(dir, { recursive: true, withFileTypes: true })).filter((each) => each.isFile())) {
    const path = join(entry.parentPath, entry.name)
    files[relative(dir, path)] = createHash('sha256')
      .update(await readFile(path))
      .digest('hex')
  }
  return { decisions: { decisions: parsed.decisions, files }, stderr: run.stderr }
}

/** Every entry under `dir` that a write leaves behind when it does not finish: locks and temporary files. */
async function leftovers(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true })
  return entries.filter((name) => name.includes('.rubric.lock') || name.endsWith('.tmp'))
}

function runBin(dir: string, argv: readonly string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [BIN, ...argv], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 })
}

async function prepared(scenario: Scenario): Promise<FixtureCopy> {
  const fixture = await copyFixture()
  await scenario.setup?.(fixture)
  return fixture
}

describe('a writing command killed at every step of its write', () => {
  test.each(SCENARIOS)('$name', async (scenario) => {
    const before = await decisionsOf((await prepared(scenario)).dir)

    // A run that is not killed: the state after the save, and the steps it took.
    const clean = await prepared(scenario)
    const trace = join(await scratchDir('trace'), 'steps')
    const done = runBin(clean.dir, scenario.argv, { VITEST_RUBRIC_CRASH_TRACE: trace })
    expect(done.status, done.stderr).toBe(0)
    const after = await decisionsOf(clean.dir)
    expect(after.decisions).not.toEqual(before.decisions)
    const steps = (await readFile(trace, 'utf8')).trim().split('\n')
    expect(steps.map((line) => line.split(' ').slice(1).join(' '))).toEqual(expect.arrayContaining(['staged', 'committed', 'renamed']))

    const seen = { before: 0, after: 0, finished: 0, discarded: 0 }
    for (let step = 1; step <= steps.length; step++) {
      const fixture = await prepared(scenario)
      const killed = runBin(fixture.dir, scenario.argv, { VITEST_RUBRIC_CRASH_AT: String(step) })
      expect(killed.signal, `step ${step}: ${steps[step - 1]}`).toBe('SIGKILL')
      const next = await decisionsOf(fixture.dir)
      const as = JSON.stringify(next.decisions)
      if (as === JSON.stringify(before.decisions)) seen.before++
      else if (as === JSON.stringify(after.decisions)) seen.after++
      else expect.fail(`killed after step ${step} (${steps[step - 1]}), the fixture decides neither as before nor as after the save`)
      if (next.stderr.includes('finished the save')) seen.finished++
      if (next.stderr.includes('discarded the unfinished save')) seen.discarded++
      expect(await leftovers(fixture.dir), `step ${step}: ${steps[step - 1]}`).toEqual([])
    }
    // Killed before its commit, a save is discarded; after it, finished by the next command, which says so.
    expect(seen.before).toBeGreaterThan(0)
    expect(seen.after).toBeGreaterThan(0)
    expect(seen.finished).toBeGreaterThan(0)
    expect(seen.discarded).toBeGreaterThan(0)
  })
})
