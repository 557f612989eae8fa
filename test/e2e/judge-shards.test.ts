import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { inShard } from '../../src/core/judges/judge-shard.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL, ROOT, type AnnotationsJson } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'
import { git, recordsRepository } from '../helpers/records-repository.js'

/**
 * A judge run split across three machines, as a CI matrix runs it: each shard judges its cases on
 * its own git branch of a records-layout fixture, the branches merge into main one at a time with
 * no conflict, and the merged labels and figures are those of one run over every case.
 */

const FIX = 'fixtures/lab'
const KEYWORDS = join(ROOT, 'examples/judges/keyword-judge.mjs')
const SHARDS = 3

async function cli(cwd: string, args: readonly string[]): Promise<string> {
  const result = await runCli(args, cwd)
  expect(result.code, `${args.join(' ')}\n${result.stdout}${result.stderr}`).toBe(0)
  return result.stdout
}

/** A repository whose main branch holds the bundled docuctl fixture (8 cases) in the records layout. */
const repository = (): Promise<string> => recordsRepository('judge-shards')

/** The judge run on a new branch from main, committed; its output. */
async function judgeOnBranch(root: string, branch: string, extra: readonly string[]): Promise<string> {
  git(root, 'checkout', '-q', '-b', branch, 'main')
  const output = await cli(root, ['judge', FIX, '--judge', 'kw', '--run', KEYWORDS, ...extra])
  git(root, 'add', '-A')
  git(root, 'commit', '-q', '-m', branch)
  git(root, 'checkout', '-q', 'main')
  return output
}

/** The cases of the judge's record lines a branch added to main's. */
function judgedCases(root: string, branch: string): string[] {
  const added = git(root, 'diff', 'main', branch, '--unified=0', '--', `${FIX}/records`)
    .split('\n')
    .filter((line) => line.startsWith('+{'))
    .map((line) => JSON.parse(line.slice(1)) as { doc: string; case?: string })
  return added.filter((record) => record.doc === 'judges/kw.json' && record.case !== undefined).map((record) => record.case!)
}

/** What a person reads off the branch checked out: the judge's labels by case (through the seed layout), calibrate and status. */
async function figures(root: string): Promise<{ labels: unknown; calibration: unknown; status: string }> {
  const copy = await scratchDir('judge-shards-seed')
  await cp(join(root, FIX), join(copy, 'lab'), { recursive: true })
  await cli(copy, ['convert', 'lab', '--to', 'seed'])
  const file = JSON.parse(await readFile(join(copy, 'lab/judges/kw.json'), 'utf8')) as AnnotationsJson
  const labels = { origin: file.origin, reviews: [...file.reviews].sort((a, b) => a.answer_id.localeCompare(b.answer_id)) }
  const calibration = JSON.parse(await cli(root, ['calibrate', FIX, '--json']))
  return { labels, calibration, status: await cli(root, ['status', FIX]) }
}

test('three shards of a judge run, each on its own branch, merge into main with no conflict and equal one unsharded run', { timeout: 120_000 }, async () => {
  const root = await repository()
  const ids = (JSON.parse(await cli(root, ['evaluate', FIX, '--json'])) as { decisions: Record<string, unknown> }).decisions
  const caseIds = Object.keys(ids)
  expect(caseIds).toHaveLength(8)

  const covered: string[] = []
  for (let index = 1; index <= SHARDS; index++) {
    const shard = { index, count: SHARDS }
    const mine = caseIds.filter((id) => inShard(id, shard))
    // Every shard has cases of this fixture to judge, so every merge below brings lines.
    expect(mine.length).toBeGreaterThan(0)
    const output = await judgeOnBranch(root, `shard-${index}`, ['--shard', `${index}/${SHARDS}`])
    expect(output).toContain(`judge kw, shard ${index}/${SHARDS} (${mine.length} of 8 cases): wrote ${mine.length * 5} labels`)
    // The files it names are those the branch changed: the record files its labels were appended to, not the judge's document.
    const named = /\n {2}wrote (.+)\n$/.exec(output)![1]!.split(' and ')
    expect(named.sort()).toEqual(git(root, 'diff', '--name-only', 'main', `shard-${index}`).trim().split('\n').sort())
    // A shard writes the labels of its own cases and of no other.
    expect(new Set(judgedCases(root, `shard-${index}`))).toEqual(new Set(mine))
    covered.push(...mine)
  }
  expect(covered.sort()).toEqual([...caseIds].sort())

  await judgeOnBranch(root, 'whole', [])
  for (let index = 1; index <= SHARDS; index++) git(root, 'merge', '-q', '--no-edit', `shard-${index}`)
  expect(git(root, 'status', '--porcelain')).toBe('')
  const merged = await figures(root)
  expect(merged.status).not.toMatch(/revised apart/)
  // Every label is current: a further run on the merged fixture has nothing to judge.
  expect(await cli(root, ['judge', FIX, '--judge', 'kw', '--run', KEYWORDS, '--dry-run'])).toContain('nothing to judge: 40 labels of 8 cases are current')

  git(root, 'checkout', '-q', 'whole')
  const whole = await figures(root)
  expect((whole.labels as { reviews: unknown[] }).reviews).toHaveLength(8)
  expect(merged).toEqual(whole)
})

test("in the seed layout, the shards run in one directory write one judge's file, as one unsharded run does", { timeout: 120_000 }, async () => {
  const root = await scratchDir('judge-shards-seed-layout')
  await cp(DOCUCTL, join(root, 'sharded'), { recursive: true })
  await cp(DOCUCTL, join(root, 'whole'), { recursive: true })
  const dry = await cli(root, ['judge', 'sharded', '--judge', 'kw', '--run', KEYWORDS, '--shard', '2/3', '--dry-run'])
  expect(dry).toMatch(/^ {2}judge kw, shard 2\/3 \(\d of 8 cases\): would judge \d+ labels of \d cases \(0 current\); dry run: nothing was called or written$/m)
  // Of 8 shards, the first holds none of this fixture's 8 cases.
  expect(await cli(root, ['judge', 'sharded', '--judge', 'kw', '--run', KEYWORDS, '--shard', '1/8'])).toBe(
    'sharded\n  judge kw, shard 1/8 (0 of 8 cases): nothing to judge: no case of the fixture is in this shard\n',
  )
  for (let index = 1; index <= SHARDS; index++) await cli(root, ['judge', 'sharded', '--judge', 'kw', '--run', KEYWORDS, '--shard', `${index}/${SHARDS}`])
  await cli(root, ['judge', 'whole', '--judge', 'kw', '--run', KEYWORDS])
  const labels = async (dir: string) => {
    const file = JSON.parse(await readFile(join(root, dir, 'judges/kw.json'), 'utf8')) as AnnotationsJson
    return { origin: file.origin, reviews: [...file.reviews].sort((a, b) => a.answer_id.localeCompare(b.answer_id)) }
  }
  const sharded = await labels('sharded')
  expect(sharded.reviews).toHaveLength(8)
  expect(sharded).toEqual(await labels('whole'))
})

/** A git repository holding the bundled fixture judged by the keyword judge, then a commit rewording support: what a carry-over reads. */
async function judgedThenReworded(name: string): Promise<{ root: string; origin: string }> {
  const root = await scratchDir(name)
  await cp(DOCUCTL, join(root, 'lab'), { recursive: true, filter: (source) => !source.endsWith('decisions.record.json') })
  git(root, 'init', '-q', '-b', 'main')
  git(root, 'config', 'user.email', 'lab@example.org')
  git(root, 'config', 'user.name', 'Lab')
  git(root, 'config', 'commit.gpgsign', 'false')
  await cli(root, ['judge', 'lab', '--judge', 'kw', '--run', KEYWORDS])
  const origin = (JSON.parse(await readFile(join(root, 'lab/judges/kw.json'), 'utf8')) as AnnotationsJson).origin
  git(root, 'add', '-A')
  git(root, 'commit', '-q', '-m', "the judge's labels")
  const rubricPath = join(root, 'lab/rubric.json')
  const rubric = JSON.parse(await readFile(rubricPath, 'utf8')) as { criteria: Record<string, string>[] }
  rubric.criteria.find((each) => each['id'] === 'support')!['rule'] = 'Every material claim must be supported by this source, and by nothing else.'
  await writeFile(rubricPath, `${JSON.stringify(rubric, null, 2)}\n`)
  git(root, 'commit', '-q', '-am', 'reword support')
  return { root, origin }
}

test("after a rubric revision in git, each shard carries over its own cases' unchanged labels, and the judge file's origin stays the module's", {
  timeout: 120_000,
}, async () => {
  const { root, origin } = await judgedThenReworded('judge-shards-carry')

  const ids = Object.keys((JSON.parse(await cli(root, ['evaluate', 'lab', '--json'])) as { decisions: Record<string, unknown> }).decisions)
  for (let index = 1; index <= SHARDS; index++) {
    const mine = ids.filter((id) => inShard(id, { index, count: SHARDS }))
    const output = await cli(root, ['judge', 'lab', '--judge', 'kw', '--run', KEYWORDS, '--shard', `${index}/${SHARDS}`])
    // Support is judged again for the shard's cases; the four unchanged criteria are carried over for them, and for no other case.
    expect(output).toContain(
      `wrote ${mine.length} ${mine.length === 1 ? 'label' : 'labels'} of ${mine.length} to judge in ${mine.length} ${mine.length === 1 ? 'case' : 'cases'}`,
    )
    expect(output).toContain(`carried over ${mine.length * 4} labels without a call`)
    expect((JSON.parse(await readFile(join(root, 'lab/judges/kw.json'), 'utf8')) as AnnotationsJson).origin).toBe(origin)
  }
  expect(await cli(root, ['judge', 'lab', '--judge', 'kw', '--run', KEYWORDS, '--dry-run'])).toContain('nothing to judge: 40 labels of 8 cases are current')
})

test('in a shallow clone, whose history lacks the earlier rubric, a run and its dry run say why nothing is carried over, and how to fetch it', {
  timeout: 120_000,
}, async () => {
  const { root } = await judgedThenReworded('judge-shallow')

  // What actions/checkout does by default: one commit of history.
  const shallowClone = async () => {
    const clone = join(await scratchDir('judge-shallow-clone'), 'ci')
    git(root, 'clone', '-q', '--depth', '1', `file://${root}`, clone)
    return clone
  }
  const clone = await shallowClone()
  const note =
    'carried over nothing for 8 cases: their labels were bound to an earlier rubric, and this repository is a shallow clone whose history does not hold it, so every criterion of theirs is judged again; fetch the history (`git fetch --unshallow`, or `fetch-depth: 0` for actions/checkout) to carry over the criteria the revision left unchanged'
  const dry = await cli(clone, ['judge', 'lab', '--judge', 'kw', '--run', KEYWORDS, '--dry-run'])
  expect(dry).toContain('would judge 40 labels of 8 cases')
  expect(dry).toContain(note)
  const run = await cli(clone, ['judge', 'lab', '--judge', 'kw', '--run', KEYWORDS])
  expect(run).toContain('wrote 40 labels of 40 to judge in 8 cases')
  expect(run).toContain(note)
  const fetched = await shallowClone()
  git(fetched, 'fetch', '-q', '--unshallow')
  const full = await cli(fetched, ['judge', 'lab', '--judge', 'kw', '--run', KEYWORDS, '--dry-run'])
  expect(full).toContain('would carry over 32 labels without a call')
  expect(full).not.toContain('shallow')
})
