import { appendFile, cp, readdir, readFile as realReadFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { startServer } from '../../src/web/server.js'
import { bucketOf } from '../../src/core/store/records.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { postSave, raw } from '../helpers/served-fixture.js'
import { scratchDir } from '../helpers/scratch.js'

// Every file read and renamed goes through these hooks: a test sees which bucket files of a records fixture a command
// read, and which it read before its save renamed a file into place.
const reads = vi.hoisted(() => ({ paths: [] as { path: string; beforeWrite: boolean }[], written: false }))
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>()
  const readFile = (async (...args: Parameters<typeof fs.readFile>) => {
    if (typeof args[0] === 'string') reads.paths.push({ path: args[0], beforeWrite: !reads.written })
    return fs.readFile(...args)
  }) as typeof fs.readFile
  // A fixture file is opened without blocking (so that a named pipe is refused, not waited on), then read through its handle.
  const open = (async (...args: Parameters<typeof fs.open>) => {
    if (typeof args[0] === 'string' && typeof args[1] === 'number' && (args[1] & fs.constants.O_NONBLOCK) !== 0)
      reads.paths.push({ path: args[0], beforeWrite: !reads.written })
    return fs.open(...args)
  }) as typeof fs.open
  const rename = (async (from: string, to: string) => {
    await fs.rename(from, to)
    if (to.endsWith('.jsonl')) reads.written = true
  }) as typeof fs.rename
  return { ...fs, default: { ...fs, readFile, rename, open }, readFile, rename, open }
})

afterEach(() => {
  reads.paths = []
  reads.written = false
})

const FIX = 'fixtures/lab'
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const BUCKET = /^[0-9a-f]+\.jsonl$/

/** A scratch project holding the bundled docuctl fixture at `fixtures/lab`, in the layout asked for. */
async function project(layout: 'seed' | 'records'): Promise<string> {
  const root = await scratchDir(`scoped-${layout}`)
  await cp(DOCUCTL, join(root, FIX), { recursive: true, filter: (source) => !source.endsWith('decisions.record.json') })
  if (layout === 'records') expect((await runCli(['convert', FIX, '--to', 'records'], root)).code).toBe(0)
  return root
}

/** A review on the command line: every criterion `meets`, or the ones named `does_not_meet`. */
function review(caseId: string, extra: readonly string[], failing: readonly string[] = []): string[] {
  const args = ['review', FIX, '--case', caseId, ...extra]
  for (const criterion of CRITERIA)
    args.push(
      '--rating',
      `${criterion}=${failing.includes(criterion) ? 'does_not_meet' : 'meets'}`,
      '--reason',
      `${criterion}=checked`,
      '--span',
      `${criterion}=`,
    )
  return args
}

async function bucketCount(root: string): Promise<number> {
  return (JSON.parse(await realReadFile(join(root, FIX, 'records/layout.json'), 'utf8')) as { buckets: number }).buckets
}

/** The bucket files `cases` are filed in, sorted. */
async function bucketsOf(root: string, cases: readonly string[]): Promise<string[]> {
  const count = await bucketCount(root)
  return [...new Set(cases.map((caseId) => bucketOf(caseId, count)))].sort()
}

/** The bucket files of the fixture read since the last call (or only before a record file was written), sorted. */
function bucketsRead(root: string, beforeWrite = false): string[] {
  const records = join(root, FIX, 'records')
  const read = reads.paths
    .filter((each) => (each.beforeWrite || !beforeWrite) && dirname(each.path) === records && BUCKET.test(basename(each.path)))
    .map((each) => basename(each.path))
  reads.paths = []
  reads.written = false
  return [...new Set(read)].sort()
}

/** Runs a command in the project and returns the bucket files it read; it must succeed. */
async function scoped(root: string, argv: readonly string[]): Promise<string[]> {
  bucketsRead(root)
  const result = await runCli(argv, root)
  expect(result.code, `${argv.join(' ')}\n${result.stderr}`).toBe(0)
  return bucketsRead(root)
}

/** What `evaluate --json` decides of every case, with the records layout's document names as the seed layout's. */
async function decisions(root: string): Promise<unknown> {
  const result = await runCli(['evaluate', FIX, '--json'], root)
  return (JSON.parse(result.stdout.replaceAll(`${FIX}/records/`, `${FIX}/`)) as { decisions: unknown }).decisions
}

describe('adjudicate --case and bind --case read only the bucket files of their cases', () => {
  test('each reads its cases’ buckets alone, and the fixture decides as the same work in the seed layout', async () => {
    const [seed, records] = [await project('seed'), await project('records')]
    const all = (await readdir(join(records, FIX, 'records'))).filter((name) => BUCKET.test(name))
    const own = await bucketsOf(records, ['not-reviewed'])
    const bound = await bucketsOf(records, ['not-reviewed', 'complete'])
    // Had a command read every bucket, it would have read these too.
    expect(all.filter((name) => !bound.includes(name)).length).toBeGreaterThan(0)

    const panel = [review('not-reviewed', ['--reviewer', 'alice']), review('not-reviewed', ['--reviewer', 'bob'], ['support'])]
    const adjudicate = ['adjudicate', FIX, '--case', 'not-reviewed', '--adjudicator', 'dana', '--take', 'alice', '--pick', 'support=bob']
    const bind = ['bind', FIX, '--case', 'not-reviewed', '--case', 'complete']
    for (const root of [seed, records]) {
      for (const argv of panel) await scoped(root, argv)
      expect(await scoped(root, adjudicate)).toEqual(root === records ? own : [])
      // A source edit leaves every case bound to the old source: bind names two of them.
      await appendFile(join(root, FIX, 'source.txt'), 'A sentence added since the reviews.\n')
      expect(await scoped(root, bind)).toEqual(root === records ? bound : [])
    }

    const decided = await decisions(records)
    expect(decided).toEqual(await decisions(seed))
    expect(decided).toMatchObject({
      'not-reviewed': { status: 'rejected', reason: 'support' },
      complete: { status: 'accepted' },
      paraphrase: { status: 'refused' },
    })
  })

  test('bind --case prints every change the seed layout prints, an entry’s place in its list left out', async () => {
    const [seed, records] = [await project('seed'), await project('records')]
    const printed: string[] = []
    for (const root of [seed, records]) {
      await appendFile(join(root, FIX, 'source.txt'), 'A sentence added since the reviews.\n')
      const result = await runCli(['bind', FIX, '--case', 'uncertain-wording', '--dry-run'], root)
      expect(result.code, result.stderr).toBe(0)
      printed.push(result.stdout)
    }
    const [inSeed, inRecords] = printed as [string, string]
    // Of the entries read, uncertain-wording is not where it is in the documents (cases[6], reviews[6]).
    expect(inRecords).toContain(`${FIX}/records/cases.json › cases[…] › expected › source_sha256`)
    expect(inRecords.replaceAll(`${FIX}/records/`, `${FIX}/`)).toBe(inSeed.replaceAll(/\b(cases|reviews)\[\d+\]/g, '$1[…]'))
  })

  test('a case not found, --consensus and bind --all read every bucket', async () => {
    const root = await project('records')
    const all = (await readdir(join(root, FIX, 'records'))).filter((name) => BUCKET.test(name)).sort()
    for (const argv of [
      ['adjudicate', FIX, '--case', 'no-such-case', '--adjudicator', 'dana', '--take', 'alice'],
      ['bind', FIX, '--case', 'complete', '--case', 'no-such-case'],
    ]) {
      const refused = await runCli(argv, root)
      expect(refused.code).toBe(1)
      // The cases listed are every case of the fixture, not those of the buckets a scoped read would read.
      expect(refused.stderr).toMatch(/there is no case "no-such-case"; nothing was written[\s\S]*wrong-command/)
      expect(bucketsRead(root)).toEqual(all)
    }
    expect(await scoped(root, ['adjudicate', FIX, '--consensus', '--adjudicator', 'dana'])).toEqual(all)
    expect(await scoped(root, ['bind', FIX, '--all'])).toEqual(all)
  })

  test('the page’s adjudication save reads only its case’s bucket, and decides as the command line’s in the seed layout', async () => {
    const [seed, records] = [await project('seed'), await project('records')]
    for (const root of [seed, records])
      for (const argv of [review('not-reviewed', ['--reviewer', 'alice']), review('not-reviewed', ['--reviewer', 'bob'], ['support'])]) await scoped(root, argv)
    const judgements = Object.fromEntries(
      CRITERIA.map((criterion) => [criterion, { rating: criterion === 'verification' ? 'does_not_meet' : 'meets', reason: 'Adjudicated.', answer_span: '' }]),
    )
    const written = ['adjudicate', FIX, '--case', 'not-reviewed', '--adjudicator', 'dana']
    for (const [criterion, judgement] of Object.entries(judgements))
      written.push('--rating', `${criterion}=${judgement.rating}`, '--reason', `${criterion}=${judgement.reason}`, '--span', `${criterion}=`)
    await scoped(seed, written)

    const server = await startServer({ dirs: [FIX], cwd: records, port: 0 })
    try {
      const opened = await raw(server.port, '/api/case?fixture=0&id=not-reviewed&viewer=adjudicator:dana', { headers: { 'x-rubric-token': server.token } })
      const { versions } = JSON.parse(opened.body) as { versions: Record<string, string | null> }
      bucketsRead(records)
      const saved = await postSave(
        server,
        { fixture: 0, id: 'not-reviewed', versions, replace: false, draft: judgements, adjudicator: 'dana' },
        '/api/adjudicate',
      )
      expect(saved.status, saved.body).toBe(200)
      // The save read at most the one bucket the adoption is written to (the page's overview is then made of every case):
      // none, when the page read it as it is, which the server knows by its stat stamp.
      expect(reads.written).toBe(true)
      const own = await bucketsOf(records, ['not-reviewed'])
      expect(bucketsRead(records, true).filter((name) => !own.includes(name))).toEqual([])
    } finally {
      await server.close()
    }
    const decided = await decisions(records)
    expect(decided).toEqual(await decisions(seed))
    expect(decided).toMatchObject({ 'not-reviewed': { status: 'rejected', reason: 'verification' } })
  })
})
