import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { createInterface } from 'node:readline'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { copyFixture, ROOT, type FixtureCopy } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

/**
 * Every writing command, killed (`kill -9`) after step k of its write for every k: afterwards the
 * next command decides the fixture exactly as before that save or exactly as after it, and no lock
 * or temporary file is left. The steps are the crash points of the writer (src/core/json/crash-points.ts),
 * and, for the page's save, of what records it (the audit log's append, or `serve --commit`'s git
 * commit): a page's save killed at any step is never acknowledged.
 */
const BIN = join(ROOT, 'dist/cli/bin.js')
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

function ratings(rating: string, reason: string): string[] {
  return CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=${rating}`, '--reason', `${criterion}=${reason} (${criterion})`])
}

interface Scenario {
  readonly name: string
  readonly setup?: (fixture: FixtureCopy) => Promise<void>
  /** A command line; or, for the page, the save a served page posts. */
  readonly argv: readonly string[]
  readonly through?: 'cli' | 'page'
  /** The fixture's layout when the command runs (after `setup`). */
  readonly layout?: 'seed' | 'records'
  /** The page's server records each save as a git commit (`serve --commit`), in a repository made of the fixture. */
  readonly commit?: boolean
}

const KEYWORD_JUDGE = join(ROOT, 'examples/judges/keyword-judge.mjs')

/** Makes the fixture a git repository with one commit, for `serve --commit`. */
async function gitRepository(fixture: FixtureCopy): Promise<void> {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: fixture.dir, stdio: 'ignore' })
  git('init', '-q', '-b', 'main')
  git('config', 'user.email', 'lab@example.org')
  git('config', 'user.name', 'Lab')
  git('config', 'commit.gpgsign', 'false')
  git('add', '-A')
  git('commit', '-q', '-m', 'base')
}

/**
 * The fixture in the records layout with case not-reviewed reviewed on two machines and merged as
 * git's union merge would: two revisions of its records, by saves aaaaaaaaaaaa and bbbbbbbbbbbb.
 */
async function forked(fixture: FixtureCopy): Promise<void> {
  const cli = async (argv: readonly string[]) => {
    const run = await runCli(argv, fixture.dir)
    expect(run.code, run.stderr).toBe(0)
  }
  await cli(['convert', '.', '--to', 'records'])
  const folder = join(fixture.dir, 'records')
  const snapshot = async () =>
    new Map(await Promise.all((await readdir(folder)).map(async (name) => [name, await readFile(join(folder, name), 'utf8')] as const)))
  const base = await snapshot()
  await cli(['review', '.', '--case', 'not-reviewed', ...ratings('meets', 'On the laptop')])
  const laptop = await snapshot()
  for (const [name, text] of base) await writeFile(join(folder, name), text)
  await cli(['review', '.', '--case', 'not-reviewed', ...ratings('does_not_meet', 'On the desktop')])
  const desktop = await snapshot()
  const save = (text: string, token: string) => text.replaceAll(/"save":"[0-9a-f]{12}"/g, `"save":"${token}"`)
  for (const [name, text] of desktop) {
    const before = base.get(name) ?? ''
    if (text === before) continue
    const theirs = laptop.get(name)!.slice(before.length)
    await writeFile(join(folder, name), before + save(text.slice(before.length), 'bbbbbbbbbbbb') + save(theirs, 'aaaaaaaaaaaa'))
  }
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
    name: 'adjudicate --case of two reviewers who disagree',
    setup: async (fixture) => {
      for (const [reviewer, rating] of [
        ['alice', 'meets'],
        ['bob', 'does_not_meet'],
      ] as const) {
        const run = await runCli(['review', '.', '--case', 'not-reviewed', '--reviewer', reviewer, ...ratings(rating, 'Seen')], fixture.dir)
        expect(run.code, run.stderr).toBe(0)
      }
    },
    argv: ['adjudicate', '.', '--case', 'not-reviewed', '--adjudicator', 'carol', '--take', 'alice'],
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
  { name: 'origin --set', argv: ['origin', '.', '--set', 'Reviewed by the support team, rubric r1.'] },
  {
    name: 'decisions, writing a new decision record',
    setup: async (fixture) => rm(join(fixture.dir, 'decisions.record.json')),
    argv: ['decisions', '.'],
  },
  { name: 'judge --run, one batch', argv: ['judge', '.', '--judge', 'kw', '--run', KEYWORD_JUDGE, '--batch', '100'] },
  { name: "the page's save of a review", argv: ['not-reviewed'], through: 'page' },
  { name: "the page's save, recorded as a git commit (serve --commit)", argv: ['not-reviewed'], through: 'page', commit: true, setup: gitRepository },
  { name: 'sample, writing sample.json', argv: ['sample', '.', '--size', '3', '--seed', 'crash'] },
  { name: 'convert to the records layout', argv: ['convert', '.', '--to', 'records'] },
  { name: 'records: convert back to the seed layout', argv: ['convert', '.', '--to', 'seed'], layout: 'records' },
  { name: 'records: resolve a fork, keeping one revision', argv: ['resolve', '.', 'not-reviewed', '--keep', 'bbbbbbbbbbbb'], setup: forked },
  {
    name: 'records: compact, after a review revised twice',
    argv: ['compact', '.'],
    setup: async (fixture) => {
      for (const argv of [
        ['convert', '.', '--to', 'records'],
        ['review', '.', '--case', 'uncertain-wording', '--replace', ...ratings('does_not_meet', 'First')],
        ['review', '.', '--case', 'uncertain-wording', '--replace', ...ratings('meets', 'Second')],
      ]) {
        const run = await runCli(argv, fixture.dir)
        expect(run.code, run.stderr).toBe(0)
      }
    },
  },
]

/** The writers again on a fixture in the records layout, whose saves are new lines of bucket files. */
const RECORDS_SCENARIOS: readonly Scenario[] = SCENARIOS.filter((scenario) =>
  [
    'review of an unreviewed case',
    'review --replace',
    "a reviewer's first review",
    'add',
    'bind of an acknowledged hand edit',
    'adjudicate --consensus',
    'adjudicate --case',
    'judge --run',
    "the page's save",
  ].some((name) => scenario.name.startsWith(name)),
).map((scenario) => ({ ...scenario, name: `records: ${scenario.name.replace(/ \(.*\)$/, '')}`, layout: 'records' as const }))

/** Serves the fixture in a process of its own and posts one review of the case `caseId`; resolves with how the server ended. */
async function pageSave(
  dir: string,
  caseId: string,
  env: Record<string, string>,
  commit: boolean,
): Promise<{ status: number | null; signal: string | null; stderr: string; acknowledged: boolean }> {
  const child = spawn(process.execPath, [BIN, 'serve', '.', '--port', '0', ...(commit ? ['--commit'] : [])], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const ended = new Promise<{ status: number | null; signal: string | null }>((resolve) => child.on('close', (status, signal) => resolve({ status, signal })))
  const url = await new Promise<URL>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const found = /https?:\/\/\S+token=\S+/.exec(line)?.[0]
      if (found !== undefined) resolve(new URL(found))
    })
    child.once('exit', () => reject(new Error(`serve exited before it listened: ${stderr}`)))
  })
  const token = url.searchParams.get('token') ?? new URLSearchParams(url.hash.slice(1)).get('token') ?? ''
  const headers = { 'x-rubric-token': token, 'content-type': 'application/json' }
  const shown = (await (await fetch(`${url.origin}/api/case?fixture=0&id=${caseId}`, { headers })).json()) as { versions: Record<string, string | null> }
  const draft = Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: `Saved on the page (${criterion}).`, answer_span: '' }]))
  const saved = await fetch(`${url.origin}/api/review`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ fixture: 0, id: caseId, draft, versions: shown.versions, replace: false }),
  }).catch(() => undefined)
  if (saved !== undefined && saved.status !== 200) throw new Error(`the save was refused (${saved.status}): ${await saved.text()}`)
  child.kill('SIGTERM')
  return { ...(await ended), stderr, acknowledged: saved !== undefined }
}

function runScenario(
  scenario: Scenario,
  dir: string,
  env: Record<string, string>,
): Promise<{ status: number | null; signal: string | null; stderr: string; acknowledged?: boolean }> {
  if (scenario.through === 'page') return pageSave(dir, scenario.argv[0]!, env, scenario.commit === true)
  const run = runBin(dir, scenario.argv, env)
  return Promise.resolve({ status: run.status, signal: run.signal, stderr: run.stderr })
}

/**
 * How the next command decides the fixture, and the bytes of every file in it; in the records
 * layout, the bytes of the documents its records hold (each save's lines name the save, so two runs
 * of one save never write the same bytes).
 */
async function decisionsOf(dir: string): Promise<{ decisions: unknown; stderr: string }> {
  const run = await runCli(['evaluate', '.', '--json'], dir)
  const parsed = JSON.parse(run.stdout) as { decisions: unknown; identities: { files: unknown } }
  const layout = await readFile(join(dir, 'records', 'layout.json')).catch(() => undefined)
  if (layout !== undefined) {
    // The lines of each record file, less who made them and when: a save adds the same lines whichever run made it.
    const records: Record<string, string[]> = {}
    for (const name of (await readdir(join(dir, 'records'))).sort()) {
      const text = await readFile(join(dir, 'records', name), 'utf8')
      records[name] = text
        .split('\n')
        .filter((line) => line.startsWith('{"doc"'))
        // A save that reads only its cases' buckets places a new entry by the time (`n`), which differs run to run.
        .map((line) => line.replace(/"replaces":.*$/, '').replace(/"n":\d{13,},/, '"n":<time>,'))
    }
    return { decisions: { decisions: parsed.decisions, documents: parsed.identities.files, records }, stderr: run.stderr }
  }
  const files: Record<string, string> = {}
  for (const entry of (await readdir(dir, { recursive: true, withFileTypes: true })).filter((each) => each.isFile())) {
    const path = join(entry.parentPath, entry.name)
    // The page's audit log (serve runs in the fixture here) and git's repository are records of saves, not the fixture.
    if (relative(dir, path).startsWith(`.vitest-rubric${sep}`) || relative(dir, path).startsWith(`.git${sep}`)) continue
    // A draw records when it was made, which differs run to run: sample.json is compared without it.
    const bytes =
      relative(dir, path) === 'sample.json' ? (await readFile(path, 'utf8')).replace(/"drawn_at": "[^"]*"/g, '"drawn_at": <time>') : await readFile(path)
    files[relative(dir, path)] = createHash('sha256').update(bytes).digest('hex')
  }
  return { decisions: { decisions: parsed.decisions, files }, stderr: run.stderr }
}

/** Every entry under `dir` that a write leaves behind when it does not finish: locks and temporary files. */
async function leftovers(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true })
  return entries.filter((name) => name.includes('.rubric.lock') || name.endsWith('.tmp'))
}

function commits(dir: string): number {
  return Number(execFileSync('git', ['rev-list', '--count', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim())
}

function runBin(dir: string, argv: readonly string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [BIN, ...argv], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 })
}

async function prepared(scenario: Scenario): Promise<FixtureCopy> {
  const fixture = await copyFixture()
  // The repository of `serve --commit` holds the fixture as it is saved to, converted: a save to a file holding changes no commit has is refused.
  if (scenario.commit !== true) await scenario.setup?.(fixture)
  if (scenario.layout === 'records') expect((await runCli(['convert', '.', '--to', 'records'], fixture.dir)).code).toBe(0)
  if (scenario.commit === true) await scenario.setup?.(fixture)
  return fixture
}

describe('a writing command killed at every step of its write', () => {
  test.each([...SCENARIOS, ...RECORDS_SCENARIOS])('$name', async (scenario) => {
    const before = await decisionsOf((await prepared(scenario)).dir)

    // A run that is not killed: the state after the save, and the steps it took.
    const clean = await prepared(scenario)
    const trace = join(await scratchDir('trace'), 'steps')
    const done = await runScenario(scenario, clean.dir, { VITEST_RUBRIC_CRASH_TRACE: trace })
    expect(done.signal ?? done.status, done.stderr).toBe(0)
    const after = await decisionsOf(clean.dir)
    expect(after.decisions).not.toEqual(before.decisions)
    const steps = (await readFile(trace, 'utf8')).trim().split('\n')
    expect(steps.map((line) => line.split(' ').slice(1).join(' '))).toEqual(expect.arrayContaining(['staged', 'committed', 'renamed']))
    // The page's save is recorded after it is written, by a git commit or an audit line: those are steps too.
    if (scenario.through === 'page')
      expect(steps.map((line) => line.split(' ').slice(1).join(' '))).toContain(scenario.commit ? 'git committed' : 'audit appended')

    const seen = { before: 0, after: 0, finished: 0, discarded: 0 }
    for (let step = 1; step <= steps.length; step++) {
      const fixture = await prepared(scenario)
      const killed = await runScenario(scenario, fixture.dir, { VITEST_RUBRIC_CRASH_AT: String(step) })
      expect(killed.signal, `step ${step}: ${steps[step - 1]}`).toBe('SIGKILL')
      // A page's save killed before its answer is never acknowledged, whatever it had written or committed.
      expect(killed.acknowledged ?? false, `step ${step}: ${steps[step - 1]}`).toBe(false)
      const next = await decisionsOf(fixture.dir)
      const as = JSON.stringify(next.decisions)
      // A save committed to git is one on disk: a fixture as before has no commit of it.
      if (scenario.commit === true && as === JSON.stringify(before.decisions)) expect(commits(fixture.dir), `step ${step}: ${steps[step - 1]}`).toBe(1)
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
