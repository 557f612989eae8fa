import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cp, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

/**
 * Many processes saving one fixture in the records layout at once, each a command line of its own:
 * every save that reports success is in the records afterwards, nothing is left behind and nothing
 * forked. Each save reads only the buckets of its case, yet cases share bucket files (and every save
 * reads documents.jsonl): the fixture's lock is what keeps one writer's append from losing another's.
 */
const BIN = join(ROOT, 'dist/cli/bin.js')
const FIX = 'fixtures/lab'
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const ADDED = Array.from({ length: 8 }, (_, index) => `c${String(index).padStart(2, '0')}`)

interface Exit {
  readonly argv: readonly string[]
  readonly code: number | null
  readonly stderr: string
}

interface Line {
  readonly doc: string
  readonly case: string
  readonly item?: { readonly judgements?: Record<string, { readonly rating: string; readonly reason: string }> }
  readonly replaces: readonly string[]
  readonly hash: string
}

function run(root: string, argv: readonly string[]): Promise<Exit> {
  const child = spawn(process.execPath, [BIN, ...argv], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  return new Promise((resolve) => child.on('close', (code) => resolve({ argv, code, stderr })))
}

/** A review on the command line: every criterion `meets` but the ones named, each with `reason`. */
function review(caseId: string, reason: string, extra: readonly string[] = [], failing: readonly string[] = []): string[] {
  const args = ['review', FIX, '--case', caseId, ...extra]
  for (const criterion of CRITERIA)
    args.push(
      '--rating',
      `${criterion}=${failing.includes(criterion) ? 'does_not_meet' : 'meets'}`,
      '--reason',
      `${criterion}=${reason}`,
      '--span',
      `${criterion}=`,
    )
  return args
}

/** The bundled docuctl fixture with eight more cases, in the records layout. */
async function recordsProject(): Promise<string> {
  const root = await scratchDir('records-concurrent')
  await cp(DOCUCTL, join(root, FIX), { recursive: true, filter: (source) => !source.endsWith('decisions.record.json') })
  const drafts = ADDED.map((id) => ({ id, answer: `Answer ${id}: run \`docuctl releases rollback r41 --environment staging\`.`, citation: 'docuctl 3 guide' }))
  await writeFile(join(root, 'cases.json'), JSON.stringify(drafts))
  for (const argv of [
    ['add', FIX, '--from', 'cases.json'],
    ['convert', FIX, '--to', 'records'],
  ]) {
    const result = await runCli(argv, root)
    expect(result.code, result.stderr).toBe(0)
  }
  return root
}

/** Every record line of the fixture's bucket files, with the hash a revision names it by. */
async function recordLines(root: string): Promise<Line[]> {
  const dir = join(root, FIX, 'records')
  const lines: Line[] = []
  for (const name of (await readdir(dir)).filter((each) => /^[0-9a-f]+\.jsonl$/.test(each))) {
    for (const line of (await readFile(join(dir, name), 'utf8')).split('\n').filter(Boolean))
      lines.push({ ...(JSON.parse(line) as Omit<Line, 'hash'>), hash: createHash('sha256').update(line).digest('hex') })
  }
  return lines
}

/** Every file below the fixture that the records layout does not hold: a temporary file or a lock left behind. */
async function strayFiles(root: string): Promise<string[]> {
  const dir = join(root, FIX)
  const kept = /^(rubric\.json|source\.txt|records|records\/(layout\.json|documents\.jsonl|\.gitattributes|[0-9a-f]+\.jsonl))$/
  return (await readdir(dir, { recursive: true })).filter((path) => !kept.test(path))
}

async function decisions(root: string): Promise<Record<string, { status: string; reason: string }>> {
  return (JSON.parse((await runCli(['evaluate', FIX, '--json'], root)).stdout) as { decisions: Record<string, { status: string; reason: string }> }).decisions
}

describe('processes saving one records fixture at once', () => {
  test('eight reviews, two adds and an adjudication at once: each exits 0 and its save is in the records, with no fork and nothing left behind', {
    timeout: 180_000,
  }, async () => {
    const root = await recordsProject()
    for (const argv of [review('not-reviewed', 'alice', ['--reviewer', 'alice']), review('not-reviewed', 'bob', ['--reviewer', 'bob'], ['support'])]) {
      const result = await runCli(argv, root)
      expect(result.code, result.stderr).toBe(0)
    }
    const failing = (index: number) => (index % 2 === 1 ? ['support'] : [])
    const saves = [
      ...ADDED.map((id, index) => review(id, `saved by writer ${index}`, [], failing(index))),
      ['add', FIX, '--id', 'new-a', '--answer', 'An answer.', '--citation', 'docuctl 3 guide'],
      ['add', FIX, '--id', 'new-b', '--answer', 'Another answer.', '--citation', 'docuctl 3 guide'],
      ['adjudicate', FIX, '--case', 'not-reviewed', '--adjudicator', 'dana', '--take', 'alice', '--pick', 'support=bob'],
    ]
    const exits = await Promise.all(saves.map((argv) => run(root, argv)))
    expect(exits.filter((exit) => exit.code !== 0).map((exit) => `${exit.argv.slice(0, 4).join(' ')}: ${exit.code} ${exit.stderr}`)).toEqual([])

    const lines = await recordLines(root)
    for (const [index, id] of ADDED.entries()) {
      const reviews = lines.filter((line) => line.doc === 'annotations.json' && line.case === id)
      const support = reviews.map((line) => line.item?.judgements?.['support'])
      expect(
        support.map((judgement) => [judgement?.rating, judgement?.reason]),
        id,
      ).toEqual([[index % 2 === 1 ? 'does_not_meet' : 'meets', `saved by writer ${index}`]])
    }
    expect(lines.filter((line) => line.doc === 'adjudications.json').map((line) => line.case)).toEqual(['not-reviewed'])
    const decided = await decisions(root)
    expect(Object.fromEntries(ADDED.map((id) => [id, decided[id]?.status]))).toEqual(
      Object.fromEntries(ADDED.map((id, index) => [id, index % 2 === 1 ? 'rejected' : 'accepted'])),
    )
    expect(decided).toMatchObject({
      'new-a': { status: 'pending' },
      'new-b': { status: 'pending' },
      'not-reviewed': { status: 'rejected', reason: 'support' },
    })
    expect(await strayFiles(root)).toEqual([])
    // A fork would block the fixture (exit 1) and be named as a case revised apart.
    const status = await runCli(['status', FIX], root)
    expect(status.stdout).toMatch(/unreviewed \(2\)/) // new-a and new-b
    expect(status.stdout).not.toMatch(/revised apart/)
    expect(status.code, status.stdout).toBe(0)
  })

  test('one reviewer saving one case from two processes at once: without --replace one is refused; with it, a chain of two revisions', {
    timeout: 120_000,
  }, async () => {
    const root = await recordsProject()
    /** Alice's review records of a case, in the order they were written. */
    const alices = async (caseId: string) => (await recordLines(root)).filter((line) => line.doc === 'reviews/alice.json' && line.case === caseId)

    // Neither has reviewed the case when both start: the second to hold the lock finds the first's review.
    const first = await Promise.all(
      ['first', 'second'].map(async (reason) => ({ reason, ...(await run(root, review('c00', reason, ['--reviewer', 'alice']))) })),
    )
    expect(first.map((exit) => exit.code).sort()).toEqual([0, 1])
    expect(first.find((exit) => exit.code === 1)!.stderr).toMatch(
      /\(case "c00"\): the case has a review by alice already; nothing was written\.\n\s+fix:\s+pass --replace to revise it/,
    )
    expect((await alices('c00')).map((line) => line.item?.judgements?.['support']?.reason)).toEqual([first.find((exit) => exit.code === 0)!.reason])

    // Both revise it at once: each is a revision of the review as it found it, so the later replaces the earlier.
    const revised = await Promise.all(['one', 'two'].map((reason) => run(root, review('c01', reason, ['--reviewer', 'alice', '--replace']))))
    expect(revised.map((exit) => exit.code)).toEqual([0, 0])
    const chain = await alices('c01')
    expect(chain).toHaveLength(2)
    const [earlier, later] = chain
    expect(earlier!.replaces).toEqual([])
    expect(later!.replaces).toEqual([earlier!.hash])
    expect([earlier, later].map((line) => line!.item?.judgements?.['support']?.reason).sort()).toEqual(['one', 'two'])
    const status = await runCli(['status', FIX], root)
    expect(status.stdout).not.toMatch(/revised apart/)
    expect(status.code, status.stdout).toBe(0)
    // The revision that holds is the later one: the seed layout made of the records holds it.
    await cp(join(root, FIX), join(root, 'copy'), { recursive: true })
    expect((await runCli(['convert', 'copy', '--to', 'seed'], root)).code).toBe(0)
    const held = JSON.parse(await readFile(join(root, 'copy/reviews/alice.json'), 'utf8')) as {
      reviews: { answer_id: string; judgements: Record<string, { reason: string }> }[]
    }
    expect(held.reviews.find((each) => each.answer_id === 'c01')?.judgements['support']?.reason).toBe(later!.item?.judgements?.['support']?.reason)
    expect(await strayFiles(root)).toEqual([])
  })
})
