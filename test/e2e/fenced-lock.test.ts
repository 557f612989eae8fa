import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test } from 'vitest'
import { STALE_LOCK_MS } from '../../src/core/json/fixture-lock.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture, ROOT, type AnnotationsJson } from '../helpers/fixture-copy.js'

/**
 * A writer paused while it holds the fixture's lock (Ctrl-Z, SIGSTOP, a paused machine) is taken
 * over once its lock is stale, and is fenced: when it is continued it writes nothing, and the save
 * of the writer that took the lock over is kept.
 */
const BIN = join(ROOT, 'dist/cli/bin.js')
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

function reviewArgs(caseId: string, reason: string, replace = false): string[] {
  return [
    'review',
    '.',
    '--case',
    caseId,
    ...(replace ? ['--replace'] : []),
    ...CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=meets`, '--reason', `${criterion}=${reason}`]),
  ]
}

interface Running {
  readonly child: ChildProcess
  readonly stderr: () => string
  readonly exited: Promise<{ code: number | null; stderr: string }>
}

function start(dir: string, argv: readonly string[], env: Record<string, string>): Running {
  const child = spawn(process.execPath, [BIN, ...argv], { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr })))
  return { child, exited, stderr: () => stderr }
}

/** Waits until the process has stopped itself (state T in /proc). */
async function stopped(pid: number): Promise<void> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('T')) return
    if (Date.now() > deadline) throw new Error(`process ${pid} never stopped`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** What a paused holder's lock looks like once the stale time has passed: its last refresh long ago. */
async function makeStale(dir: string): Promise<void> {
  const long = (Date.now() - STALE_LOCK_MS - 5_000) / 1000
  await utimes(join(dir, '.rubric.lock', 'owner.json'), long, long)
}

async function supportReason(dir: string, caseId: string): Promise<string | undefined> {
  const annotations = JSON.parse(await readFile(join(dir, 'annotations.json'), 'utf8')) as AnnotationsJson
  return annotations.reviews.find((review) => review.answer_id === caseId)?.judgements['support']?.reason
}

async function leftovers(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).filter((name) => name.includes('.rubric.lock') || name.endsWith('.tmp'))
}

describe.runIf(process.platform === 'linux')('a writer paused while it holds the lock', () => {
  test('paused right before its final rename, after its commit: the writer that takes over finishes it, then saves its own; the paused one writes nothing', async () => {
    const fixture = await copyFixture()
    const paused = start(fixture.dir, reviewArgs('not-reviewed', 'first writer'), { VITEST_RUBRIC_STOP_AT: 'committed' })
    await stopped(paused.child.pid!)
    await makeStale(fixture.dir)

    // A second writer saves a different case of the same two files while the first is paused.
    const second = await runCli(reviewArgs('uncertain-wording', 'second writer', true), fixture.dir)
    expect(second.code, second.stderr).toBe(0)
    expect(second.stderr).toMatch(
      /note: \.: finished the save that process \d+ \(review \. --case not-reviewed .*\) had committed when it stopped \(annotations\.json, cases\.json\)\./,
    )
    expect(await supportReason(fixture.dir, 'uncertain-wording')).toBe('second writer')
    expect(await supportReason(fixture.dir, 'not-reviewed')).toBe('first writer')

    paused.child.kill('SIGCONT')
    const first = await paused.exited
    expect(first.code).toBe(1)
    expect(first.stderr).toContain("this command lost the fixture's lock after it had committed its save")
    // The paused writer did not rename anything over the second writer's save.
    expect(await supportReason(fixture.dir, 'uncertain-wording')).toBe('second writer')
    expect(await supportReason(fixture.dir, 'not-reviewed')).toBe('first writer')
    const evaluated = await runCli(['evaluate', '.', '--json'], fixture.dir)
    const decisions = (JSON.parse(evaluated.stdout) as { decisions: Record<string, { status: string }> }).decisions
    expect(Object.values(decisions).filter((decision) => decision.status === 'refused')).toEqual([])
    expect(await leftovers(fixture.dir)).toEqual([])
  })

  test('paused before its commit: its save is discarded, the paused writer says it wrote nothing, and the other save is kept', async () => {
    const fixture = await copyFixture()
    const paused = start(fixture.dir, reviewArgs('not-reviewed', 'first writer'), { VITEST_RUBRIC_STOP_AT: 'staged' })
    await stopped(paused.child.pid!)
    await makeStale(fixture.dir)

    const second = await runCli(reviewArgs('uncertain-wording', 'second writer', true), fixture.dir)
    expect(second.code, second.stderr).toBe(0)
    expect(second.stderr).toMatch(/note: \.: discarded the unfinished save of process \d+ .*, which stopped before committing it/)

    paused.child.kill('SIGCONT')
    const first = await paused.exited
    expect(first.code).toBe(1)
    expect(first.stderr).toMatch(
      /^\.rubric\.lock: this command lost the fixture's lock .*took the lock over( \(it has since finished\))?\. This command wrote nothing after that, so the other writer's save is kept\./,
    )
    expect(await supportReason(fixture.dir, 'uncertain-wording')).toBe('second writer')
    expect(await supportReason(fixture.dir, 'not-reviewed')).toBeUndefined()
    expect(await leftovers(fixture.dir)).toEqual([])
  })

  test('compact paused before its commit: the writer that takes over saves to the same file, and the paused compaction writes nothing', async () => {
    const fixture = await copyFixture()
    for (const argv of [['convert', '.', '--to', 'records'], reviewArgs('uncertain-wording', 'first', true), reviewArgs('uncertain-wording', 'second', true)]) {
      const run = await runCli(argv, fixture.dir)
      expect(run.code, run.stderr).toBe(0)
    }
    // uncertain-wording and missing-verification share a bucket file: the compaction's and the other save's.
    const bucket = join(fixture.dir, 'records', 'd.jsonl')
    expect(await readFile(bucket, 'utf8')).toContain('"case":"missing-verification"')
    const paused = start(fixture.dir, ['compact', '.'], { VITEST_RUBRIC_STOP_AT: 'staged' })
    await stopped(paused.child.pid!)
    await makeStale(fixture.dir)

    const other = await runCli(reviewArgs('missing-verification', 'other writer', true), fixture.dir)
    expect(other.code, other.stderr).toBe(0)
    const saved = await readFile(bucket, 'utf8')

    paused.child.kill('SIGCONT')
    const compacted = await paused.exited
    expect(compacted.code).toBe(1)
    expect(compacted.stderr).toMatch(/this command lost the fixture's lock .*This command wrote nothing after that, so the other writer's save is kept\./)
    expect(await readFile(bucket, 'utf8')).toBe(saved)
    expect(saved).not.toContain('{"superseded"')
    const evaluated = await runCli(['evaluate', '.', '--json'], fixture.dir)
    const decisions = (JSON.parse(evaluated.stdout) as { decisions: Record<string, { status: string }> }).decisions
    expect(decisions['missing-verification']?.status).toBe('accepted')
    expect(await leftovers(fixture.dir)).toEqual([])
  })

  test('a live holder is waited for, and the waiting command says who holds the lock and for how long', async () => {
    const fixture = await copyFixture()
    const paused = start(fixture.dir, reviewArgs('not-reviewed', 'first writer'), { VITEST_RUBRIC_STOP_AT: 'staged' })
    await stopped(paused.child.pid!)
    const waiting = start(fixture.dir, reviewArgs('uncertain-wording', 'second writer', true), {})
    // Continued once the second writer has said it waits, the first finishes, and then the second.
    const deadline = Date.now() + 40_000
    while (!waiting.stderr().includes('waiting for the lock') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
    paused.child.kill('SIGCONT')
    const [first, second] = await Promise.all([paused.exited, waiting.exited])
    expect(first.code, first.stderr).toBe(0)
    expect(second.code, second.stderr).toBe(0)
    expect(second.stderr).toContain(`note: waiting for the lock of .: process ${paused.child.pid} (review . --case not-reviewed`)
    expect(second.stderr).toMatch(/has held it for \d+(\.\d)? s\./)
    expect(await supportReason(fixture.dir, 'not-reviewed')).toBe('first writer')
    expect(await supportReason(fixture.dir, 'uncertain-wording')).toBe('second writer')
  })

  test('a holder killed with -9 is taken over at once, not after the stale time', async () => {
    const fixture = await copyFixture()
    const killed = spawnSync(process.execPath, [BIN, ...reviewArgs('not-reviewed', 'killed writer')], {
      cwd: fixture.dir,
      env: { ...process.env, VITEST_RUBRIC_CRASH_AT: '1' },
    })
    expect(killed.signal).toBe('SIGKILL')
    expect((await readdir(fixture.dir)).filter((name) => name.startsWith('.rubric.lock'))).toEqual(['.rubric.lock'])
    const started = Date.now()
    const next = await runCli(reviewArgs('uncertain-wording', 'next writer', true), fixture.dir)
    expect(next.code, next.stderr).toBe(0)
    expect(Date.now() - started).toBeLessThan(STALE_LOCK_MS / 2)
    expect(next.stderr).not.toContain('waiting for the lock')
    expect(await supportReason(fixture.dir, 'uncertain-wording')).toBe('next writer')
    expect(await leftovers(fixture.dir)).toEqual([])
  })
})

describe('leftovers planted under a lock name', () => {
  test('a link named like a dead lock, leading out of the project, is removed and never followed', async () => {
    const fixture = await copyFixture()
    const outside = await mkdtemp(join(tmpdir(), 'vitest-rubric-outside-'))
    onTestFinished(() => rm(outside, { recursive: true, force: true }))
    // What a holder's lock would hold, outside the project: its owner, a journal and a staged file.
    await writeFile(join(outside, 'owner.json'), JSON.stringify({ pid: 1, host: 'elsewhere', started: null, token: 't', since: 0, command: '' }))
    await writeFile(join(outside, 't.journal.json'), JSON.stringify({ writes: [{ staged: 'secret', target: 'annotations.json' }] }))
    await writeFile(join(outside, 'secret'), 'a file outside the project')
    await symlink(outside, join(fixture.dir, '.rubric.lock-planted.dead'))
    const before = await readFile(join(fixture.dir, 'annotations.json'), 'utf8')

    const run = await runCli(['evaluate', '.'], fixture.dir)
    expect(run.stderr).not.toContain('finished the save')
    expect(await readFile(join(outside, 'secret'), 'utf8')).toBe('a file outside the project')
    expect(await readFile(join(fixture.dir, 'annotations.json'), 'utf8')).toBe(before)
    expect(await leftovers(fixture.dir)).toEqual([])
  })
})
