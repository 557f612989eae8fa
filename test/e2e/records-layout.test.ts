import { cp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { runVitest } from '../helpers/run-vitest.js'
import { scratchDir } from '../helpers/scratch.js'

const FIX = 'fixtures/lab'
const SCORED = join(ROOT, 'fixtures/debate-benchmark')
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

/** Every file below a directory, by path relative to it, with its bytes. */
async function tree(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    files.set(relative(dir, path), await readFile(path, 'latin1'))
  }
  return files
}

async function project(from = DOCUCTL, layout: 'seed' | 'records' = 'records'): Promise<string> {
  const root = await scratchDir('records')
  await cp(from, join(root, FIX), { recursive: true, filter: (source) => !source.endsWith('decisions.record.json') })
  if (layout === 'records') expect((await runCli(['convert', FIX, '--to', 'records'], root)).code).toBe(0)
  return root
}

const evaluateJson = async (root: string) => JSON.parse((await runCli(['evaluate', FIX, '--json'], root)).stdout) as { decisions: unknown; coverage: unknown }

describe('convert moves a fixture between the layouts losslessly', () => {
  test.each([
    ['criteria', DOCUCTL],
    ['scored', SCORED],
  ])('%s: seed → records → seed gives back every byte, and both layouts decide alike', async (_, from) => {
    const root = await project(from, 'seed')
    const before = await tree(join(root, FIX))
    const seedDecisions = await evaluateJson(root)
    const converted = await runCli(['convert', FIX, '--to', 'records'], root)
    expect(converted.code, converted.stderr).toBe(0)
    expect(await readdir(join(root, FIX))).not.toContain('cases.json')
    expect(await readFile(join(root, FIX, 'records/.gitattributes'), 'utf8')).toBe('*.jsonl merge=union eol=lf\n')
    const recordsDecisions = await evaluateJson(root)
    expect(recordsDecisions.decisions).toEqual(seedDecisions.decisions)
    expect(recordsDecisions.coverage).toEqual(seedDecisions.coverage)
    expect((await runCli(['convert', FIX, '--to', 'seed'], root)).code).toBe(0)
    expect(await tree(join(root, FIX))).toEqual(before)
  })

  test('status names a missing records/.gitattributes, and convert --to records writes it back', async () => {
    const root = await project()
    await rm(join(root, FIX, 'records/.gitattributes'))
    expect((await runCli(['status', FIX], root)).stdout).toMatch(/records\/\.gitattributes does not hold `\*\.jsonl merge=union`/)
    const repaired = await runCli(['convert', FIX, '--to', 'records'], root)
    expect(repaired.stdout).toBe(`${FIX}: already in the records layout; wrote ${FIX}/records/.gitattributes\n`)
    expect(await readFile(join(root, FIX, 'records/.gitattributes'), 'utf8')).toBe('*.jsonl merge=union eol=lf\n')
    expect((await runCli(['status', FIX], root)).stdout).not.toMatch(/gitattributes/)
  })

  test('the plugin runs a records fixture as it runs the seed layout', async () => {
    const root = await project()
    const run = await runVitest({ root })
    expect(run.counts).toBe('3 passed | 3 failed | 2 todo')
  })

  test('a file the records cannot give back byte for byte is refused, and nothing is written', async () => {
    const root = await project(DOCUCTL, 'seed')
    const path = join(root, FIX, 'cases.json')
    // Two keys on one line: valid JSON, but not a layout JSON.stringify gives back.
    await writeFile(path, (await readFile(path, 'utf8')).replace('"acceptable": true,\n        ', '"acceptable": true, '))
    const before = await tree(join(root, FIX))
    const refused = await runCli(['convert', FIX, '--to', 'records'], root)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(
      /fixtures\/lab\/cases\.json: the fixture cannot be converted without a loss: it is not laid out as the records write it back \(line \d+ reads/,
    )
    expect(refused.stderr).toMatch(/nothing was written/)
    expect(await tree(join(root, FIX))).toEqual(before)
  })

  test.each([
    [
      'CR LF line breaks',
      (text: string) => text.replaceAll('\n', '\r\n'),
      /its line breaks are CR LF, and the records write it back with LF; nothing was written\.\n\s+fix:\s+convert the file's line breaks to LF/,
    ],
    [
      'tab indentation',
      (text: string) => `${JSON.stringify(JSON.parse(text), null, '\t')}\n`,
      /its lines are not indented with spaces \(line 2 reads "\\t\\"\$schema\\"[^)]*\), and the records write a document back indented with spaces or on one line; nothing was written\.\n\s+fix:\s+indent it with spaces \(any number a level, the same at every level\) or write it on one line/,
    ],
    [
      'a second line break at the end',
      (text: string) => `${text}\n`,
      /line \d+ reads "" after the end the records write: the file ends with more than they do, such as a second line break\)/,
    ],
  ])('a cases.json with %s is refused by what differs, and nothing is written', async (_, edit, message) => {
    const root = await project(DOCUCTL, 'seed')
    const path = join(root, FIX, 'cases.json')
    await writeFile(path, edit(await readFile(path, 'utf8')))
    const before = await tree(join(root, FIX))
    // The seed layout reads it as it is.
    expect((await runCli(['evaluate', FIX], root)).code).toBe(0)
    const refused = await runCli(['convert', FIX, '--to', 'records'], root)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(message)
    expect(await tree(join(root, FIX))).toEqual(before)
  })
})

test.each([
  ['four spaces a level', (text: string) => `${JSON.stringify(JSON.parse(text), null, 4)}\n`],
  ['one line', (text: string) => JSON.stringify(JSON.parse(text))],
])('a cases.json laid out as the refusal asks (%s) converts and converts back byte for byte', async (_, edit) => {
  const root = await project(DOCUCTL, 'seed')
  const path = join(root, FIX, 'cases.json')
  const text = edit(await readFile(path, 'utf8'))
  await writeFile(path, text)
  const there = await runCli(['convert', FIX, '--to', 'records'], root)
  expect(there.code, there.stderr).toBe(0)
  expect((await runCli(['convert', FIX, '--to', 'seed'], root)).code).toBe(0)
  expect(await readFile(path, 'utf8')).toBe(text)
})

describe('a save in the records layout costs what it changes', () => {
  test('a review appends two lines to its case’s bucket file and touches no other file', async () => {
    const root = await project()
    const before = await tree(join(root, FIX))
    const args = ['review', FIX, '--case', 'not-reviewed']
    for (const criterion of CRITERIA) args.push('--rating', `${criterion}=meets`, '--reason', `${criterion}=ok`, '--span', `${criterion}=`)
    const result = await runCli(args, root)
    expect(result.code, result.stderr).toBe(0)
    const after = await tree(join(root, FIX))
    const changed = [...after].filter(([path, bytes]) => before.get(path) !== bytes).map(([path]) => path)
    expect(changed).toHaveLength(1)
    const [bucket] = changed
    expect(result.stdout).toContain(`wrote ${FIX}/${bucket}`)
    expect(after.get(bucket!)!.startsWith(before.get(bucket!)!)).toBe(true)
    const added = after.get(bucket!)!.slice(before.get(bucket!)!.length).trim().split('\n')
    expect(added.map((line) => (JSON.parse(line) as { doc: string }).doc)).toEqual(['annotations.json', 'cases.json'])
    expect((await evaluateJson(root)).decisions).toMatchObject({ 'not-reviewed': { status: 'accepted' } })
  })

  test('a review or an add refuses the fixture while another bucket file is unsound, checking each once after it changed; what it refuses is named against the whole fixture', async () => {
    const root = await project()
    const dir = join(root, FIX, 'records')
    const layout = JSON.parse(await readFile(join(dir, 'layout.json'), 'utf8')) as { buckets: number }
    const { bucketOf } = await import('../../src/core/store/records.js')
    const own = bucketOf('not-reviewed', layout.buckets)
    const other = (await readdir(dir)).find((name) => /^[0-9a-f]+\.jsonl$/.test(name) && name !== own && name !== bucketOf('brand-new', layout.buckets))!
    const sound = await readFile(join(dir, other), 'utf8')
    await writeFile(join(dir, other), `${sound}not a record\n`)
    const ownBefore = await readFile(join(dir, own), 'utf8')

    const args = ['review', FIX, '--case', 'not-reviewed']
    for (const criterion of CRITERIA) args.push('--rating', `${criterion}=meets`, '--reason', `${criterion}=ok`, '--span', `${criterion}=`)
    // A save of a case in a sound bucket is refused as the whole fixture is, naming the line it did not touch; nothing is written.
    const refused = await runCli(args, root)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(new RegExp(`^${FIX}/records/${other}:\\d+: the line is not JSON`))
    expect(await readFile(join(dir, own), 'utf8')).toBe(ownBefore)
    const evaluated = await runCli(['evaluate', FIX], root)
    expect(evaluated.stderr).toContain(`${FIX}/records/${other}:`)

    await writeFile(join(dir, other), sound)
    const saved = await runCli(args, root)
    expect(saved.code, saved.stderr).toBe(0)
    expect(saved.stdout).toContain(`wrote ${FIX}/records/${own}`)
    // A bucket file noted sound and edited since is checked again: the add is refused.
    await writeFile(join(dir, other), `${sound}not a record\n`)
    const addArgs = ['add', FIX, '--id', 'brand-new', '--answer', 'An answer.', '--citation', 'docuctl 3 guide']
    expect((await runCli(addArgs, root)).stderr).toMatch(new RegExp(`^${FIX}/records/${other}:`))
    await writeFile(join(dir, other), sound)
    const added = await runCli(addArgs, root)
    expect(added.code, added.stderr).toBe(0)
    // The note of the files found sound is this machine's, never committed: its folder ignores itself.
    expect(await readFile(join(root, '.vitest-rubric/checked/.gitignore'), 'utf8')).toMatch(/^\*$/m)

    const duplicate = await runCli(['add', FIX, '--id', 'complete', '--answer', 'Again.', '--citation', 'docuctl 3 guide'], root)
    expect(duplicate.stderr).toMatch(/a case "complete" exists already; nothing was written/)
    const unknown = await runCli([...args.slice(0, 3), 'no-such-case', ...args.slice(4)], root)
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/wrong-command/) // the cases listed are every case of the fixture, not one bucket's
    expect((await evaluateJson(root)).decisions).toMatchObject({ 'not-reviewed': { status: 'accepted' }, 'brand-new': { status: 'pending' } })
  })

  test('judge --run writes its labels as records, and no judges/ folder', async () => {
    const root = await project()
    const result = await runCli(['judge', FIX, '--judge', 'kw', '--run', join(ROOT, 'examples/judges/keyword-judge.mjs')], root)
    expect(result.code, result.stderr).toBe(0)
    await expect(stat(join(root, FIX, 'judges'))).rejects.toThrow()
    const calibration = await runCli(['calibrate', FIX, '--judge', 'kw'], root)
    expect(calibration.code, calibration.stderr).toBe(0)
    expect(calibration.stdout).toMatch(/kw/)
  })
})

describe('records a person edited or merged wrongly are refused, naming the file and line', () => {
  test('a review edited in place without acknowledging the edit is refused, as in the seed layout', async () => {
    const root = await project()
    const dir = join(root, FIX, 'records')
    for (const name of await readdir(dir)) {
      const path = join(dir, name)
      const text = await readFile(path, 'utf8')
      if (text.includes('"doc":"annotations.json","case":"complete"'))
        await writeFile(path, text.replace('Gives the version 3 rollback command', 'Gives a rollback command'))
    }
    const evaluated = await runCli(['evaluate', FIX], root)
    expect(evaluated.stdout).toMatch(/complete: refused/)
    expect(evaluated.stdout).toMatch(/records\/annotations\.json › reviews\[0\] changed since the case recorded it: an unacknowledged label edit/)
  })

  test('a line that is not a record, a layout of another version, a record in the wrong bucket, both layouts at once', async () => {
    const root = await project()
    const dir = join(root, FIX, 'records')
    const buckets = (await readdir(dir)).filter((name) => /^[0-9a-f]+\.jsonl$/.test(name)).sort()
    const first = join(dir, buckets[0]!)
    const original = await readFile(first, 'utf8')

    await writeFile(first, `${original}{"doc":\n`)
    let result = await runCli(['evaluate', FIX], root)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`${FIX}/records/${buckets[0]}:${original.split('\n').length}: the line is not JSON.`)

    // A key given twice in a record is refused, as in every JSON file: parsed alone, the last copy would decide.
    const twice = original.replace(/"n":(\d+),/, '"n":$1,"n":$1,')
    expect(twice).not.toBe(original)
    await writeFile(first, twice)
    result = await runCli(['evaluate', FIX], root)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`${FIX}/records/${buckets[0]}:1 › n: the key "n" occurs twice in one object`)

    // A layout of another version (one written by a later release) is refused by name, and read no further.
    const layoutFile = join(dir, 'layout.json')
    const layout = await readFile(layoutFile, 'utf8')
    await writeFile(first, original)
    await writeFile(layoutFile, layout.replace('"version": 1', '"version": 2'))
    result = await runCli(['evaluate', FIX], root)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`${FIX}/records/layout.json`)
    expect(result.stderr).toContain('the layout file is not one this version reads.')
    expect(result.stderr).toContain('"version": 1')
    await writeFile(layoutFile, layout)

    const [line] = original.split('\n')
    const other = join(dir, buckets[1]!)
    await writeFile(first, original)
    await writeFile(other, `${await readFile(other, 'utf8')}${line}\n`)
    result = await runCli(['evaluate', FIX], root)
    expect(result.stderr).toMatch(/is in the wrong bucket file, where a writer of that case would not look/)

    await rm(dir, { recursive: true })
    await cp(join(root, FIX), join(root, 'copy'), { recursive: true })
    await cp(DOCUCTL, join(root, FIX), { recursive: true })
    expect((await runCli(['convert', 'copy', '--to', 'records'], root)).code).toBe(1) // the copy has no cases at all
    expect((await runCli(['convert', FIX, '--to', 'records'], root)).code).toBe(0)
    await cp(join(DOCUCTL, 'cases.json'), join(root, FIX, 'cases.json'))
    result = await runCli(['status', FIX], root)
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/holds both cases\.json \(the seed layout\) and records\/ \(the records layout\)/)
  })
})
