import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

// A records fixture edited by hand, or by a tool that knows nothing of it (a checkout converting
// line endings, a file deleted): every record is read or the fixture is refused by the line at
// fault. Nothing is left out without a word, and a refused command writes nothing.

const FIX = 'fixtures/lab'
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const PROVENANCE = { replaces: [], save: 'aaaaaaaaaaaa', at: '2026-12-07T00:00:00.000Z', by: 'x@y' }

async function project(layout: 'seed' | 'records' = 'records'): Promise<string> {
  const root = await scratchDir('hand-edits')
  await cp(DOCUCTL, join(root, FIX), { recursive: true, filter: (source) => !source.endsWith('decisions.record.json') })
  if (layout === 'records') expect((await runCli(['convert', FIX, '--to', 'records'], root)).code).toBe(0)
  return root
}

/** Every file below the fixture, by path, with its bytes. */
async function tree(root: string): Promise<Map<string, string>> {
  const dir = join(root, FIX)
  const files = new Map<string, string>()
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.set(relative(dir, join(entry.parentPath, entry.name)), await readFile(join(entry.parentPath, entry.name), 'latin1'))
  }
  return files
}

/** The bucket file holding a case's records, by name. */
async function bucketOfCase(root: string, caseId: string): Promise<string> {
  const records = join(root, FIX, 'records')
  for (const name of await readdir(records)) {
    if (name.endsWith('.jsonl') && (await readFile(join(records, name), 'utf8')).includes(`"case":${JSON.stringify(caseId)}`)) return join(records, name)
  }
  throw new Error(`no bucket holds ${caseId}`)
}

/** Edits the lines of a record file that hold `marker`, through `edit` on the parsed record. */
async function editRecords(path: string, marker: string, edit: (record: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  const lines = (await readFile(path, 'utf8')).split('\n')
  await writeFile(path, lines.map((line) => (line.includes(marker) ? JSON.stringify(edit(JSON.parse(line))) : line)).join('\n'))
}

/** Runs a command that must be refused with RECORDS_MALFORMED at `at`, and leave every file as it was. */
async function refused(root: string, args: readonly string[], at: RegExp): Promise<string> {
  const before = await tree(root)
  const run = await runCli([...args], root)
  expect(run.code).toBe(1)
  const shown = `${run.stdout}${run.stderr}`
  expect(shown).toMatch(at)
  expect(shown).not.toMatch(/\n\s+at .*\(/)
  expect(await tree(root)).toEqual(before)
  return shown
}

const allMeet = CRITERIA.flatMap((id) => ['--rating', `${id}=meets`, '--reason', `${id}=Read.`])

describe('a records fixture edited by hand is refused by the line at fault, never read in part', () => {
  test('an entry of a document documents.jsonl does not hold is refused, and convert leaves it where it is', async () => {
    const root = await project()
    const bucket = await bucketOfCase(root, 'not-reviewed')
    await editRecords(bucket, '"case":"not-reviewed"', (record) => (record['doc'] === 'cases.json' ? { ...record, doc: 'case.json' } : record))
    const message = await refused(
      root,
      ['evaluate', FIX],
      /records\/[0-9a-f]+\.jsonl:\d+: the record is an entry of "case\.json", a document documents\.jsonl holds no record of/,
    )
    expect(message).toContain('fix:      restore fixtures/lab/records from version control')
    await refused(root, ['convert', FIX, '--to', 'seed'], /the record is an entry of "case\.json"/)
    await refused(root, ['status', FIX], /the record is an entry of "case\.json"/)
  })

  test("a reviewer's document line deleted from documents.jsonl refuses the reviewer's reviews, not drops them", async () => {
    const root = await project()
    for (const [reviewer, rating] of [
      ['alice', 'meets'],
      ['bob', 'does_not_meet'],
    ]) {
      const saved = await runCli(
        ['review', FIX, '--case', 'not-reviewed', '--reviewer', reviewer!, '--rating', `support=${rating}`, '--reason', 'support=Read.'],
        root,
      )
      expect(saved.code).toBe(0)
    }
    const documents = join(root, FIX, 'records/documents.jsonl')
    const lines = (await readFile(documents, 'utf8')).split('\n')
    await writeFile(documents, lines.filter((line) => !line.includes('"doc":"reviews/bob.json"')).join('\n'))
    await refused(root, ['evaluate', FIX], /the record is an entry of "reviews\/bob\.json", a document documents\.jsonl holds no record of/)
    await refused(root, ['agreement', FIX], /reviews\/bob\.json/)
  })

  test.each([
    ['rubric.json', /the record names a document that is none of the fixture's: "rubric\.json"/],
    ['reviews/../../x.json', /the record names a document that is none of the fixture's: "reviews\/\.\.\/\.\.\/x\.json"/],
    ['judges/.hidden.json', /the record names a document that is none of the fixture's: "judges\/\.hidden\.json"/],
  ])('a document named %s is refused: it is none of the seed layout, and would be read or written where no fixture file is', async (doc, message) => {
    const root = await project()
    const documents = join(root, FIX, 'records/documents.jsonl')
    const record = { doc, list: 'reviews', members: { reviews: [] }, style: { indent: 2, ascii: false, newline: true }, ...PROVENANCE }
    await writeFile(documents, `${await readFile(documents, 'utf8')}${JSON.stringify(record)}\n`)
    await refused(root, ['evaluate', FIX], message)
    await refused(root, ['convert', FIX, '--to', 'seed'], message)
    expect(await readdir(root)).toEqual(['fixtures'])
  })

  test("a record filed under one case whose entry is another's is refused, before a writer of either adds a second entry", async () => {
    const root = await project()
    const from = await bucketOfCase(root, 'complete')
    const to = await bucketOfCase(root, 'not-reviewed')
    const lines = (await readFile(from, 'utf8')).split('\n')
    const moved = lines.find((line) => line.includes('"doc":"annotations.json"') && line.includes('"case":"complete"'))!
    await writeFile(from, lines.filter((line) => line !== moved).join('\n'))
    await writeFile(to, `${await readFile(to, 'utf8')}${JSON.stringify({ ...JSON.parse(moved), case: 'not-reviewed' })}\n`)
    await refused(root, ['evaluate', FIX], /the record is filed under case "not-reviewed", but its entry is of case "complete"/)
  })

  test.each([
    ['a member no writer writes', (record: Record<string, unknown>) => ({ ...record, note: 'mine' }), /an item record holds no member "note"/],
    ['a time that is not an ISO time', (record: Record<string, unknown>) => ({ ...record, at: 'yesterday' }), /at \(an ISO time/],
    ['a save that is not 12 hexadecimal digits', (record: Record<string, unknown>) => ({ ...record, save: 'SAVE-B' }), /save \(12 hexadecimal digits\)/],
    ['an empty author', (record: Record<string, unknown>) => ({ ...record, by: '' }), /by \(who saved\)/],
  ])('a record line with %s is refused by its line', async (_, edit, message) => {
    const root = await project()
    await editRecords(await bucketOfCase(root, 'complete'), '"case":"complete"', edit)
    await refused(root, ['evaluate', FIX], message)
  })

  test('a bucket file checked out with CR LF line breaks reads as written: a revision still replaces the record it names', async () => {
    const root = await project()
    const replaced = await runCli(['review', FIX, '--case', 'unsupported-guarantee', ...allMeet, '--replace'], root)
    expect(replaced.code).toBe(0)
    const bucket = await bucketOfCase(root, 'unsupported-guarantee')
    await writeFile(bucket, (await readFile(bucket, 'utf8')).replaceAll('\n', '\r\n'))
    const evaluated = await runCli(['evaluate', FIX], root)
    expect(evaluated.code).toBe(0)
    expect(evaluated.stdout).toContain('unsupported-guarantee: accepted')
    expect(evaluated.stdout).not.toContain('revised apart')
    // A save appended to such a file is read with it.
    const again = await runCli(['review', FIX, '--case', 'unsupported-guarantee', ...allMeet.slice(0, -1), 'support=Read again.', '--replace'], root)
    expect(again.code).toBe(0)
    expect((await runCli(['evaluate', FIX], root)).stdout).toContain('unsupported-guarantee: accepted')
    expect(await readFile(join(root, FIX, 'records/.gitattributes'), 'utf8')).toBe('*.jsonl merge=union eol=lf\n')
  })

  test('an emptied bucket file is refused, not read as no records: its cases are not left out', async () => {
    const root = await project()
    const bucket = await bucketOfCase(root, 'complete')
    await writeFile(bucket, '')
    const shown = relative(root, bucket)
    for (const command of [
      ['status', FIX],
      ['evaluate', FIX],
      ['review', FIX, '--case', 'not-reviewed', ...allMeet],
    ])
      expect(await refused(root, command, new RegExp(`${shown}: the bucket file is empty: no writer leaves one so`))).toContain('git checkout --')
  })

  test.each([
    ['reviews/carol.json', 'reviews/'],
    ['judges/kw.json', 'judges/'],
    ['adjudications.json', 'adjudications.json'],
  ])('a seed document beside records/ (%s, from a branch made before the move) is refused, not read with the records', async (file, named) => {
    const root = await project()
    await mkdir(join(root, FIX, file, '..'), { recursive: true })
    await writeFile(join(root, FIX, file), '{}\n')
    for (const command of [
      ['evaluate', FIX],
      ['review', FIX, '--case', 'not-reviewed', '--reviewer', 'carol', ...allMeet],
    ]) {
      const before = await tree(root)
      const run = await runCli(command, root)
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(`${FIX}: the directory holds both ${named} (the seed layout) and records/ (the records layout)`)
      expect(run.stderr).toContain(`run \`vitest-rubric convert ${FIX} --to seed\`, put it back and run \`vitest-rubric convert ${FIX} --to records\``)
      expect(await tree(root)).toEqual(before)
    }
  })

  test('records/ without its layout file is refused by that file, not read as a seed fixture missing cases.json', async () => {
    const root = await project()
    await rm(join(root, FIX, 'records/layout.json'))
    const message = await refused(
      root,
      ['evaluate', FIX],
      /fixtures\/lab\/records\/layout\.json: the file is missing, while fixtures\/lab\/records holds "[0-9a-f]+\.jsonl"/,
    )
    expect(message).not.toContain('cases.json')
    // The fix is the restore, not `convert`, which refuses the same fixture.
    expect(message).toContain('restore it from version control (`git checkout HEAD -- fixtures/lab/records/layout.json`)')
    // Bucket files are named in hexadecimal: the least count is the power of 2 above the highest one present.
    const highest = Math.max(
      ...(await readdir(join(root, FIX, 'records'))).filter((name) => /^[0-9a-f]+\.jsonl$/.test(name)).map((name) => Number.parseInt(name, 16)),
    )
    expect(message).toContain(`a power of 2 of at least ${2 ** Math.floor(Math.log2(highest) + 1)},`)
    await refused(root, ['convert', FIX, '--to', 'seed'], /records\/layout\.json: the file is missing/)
    await refused(root, ['compact', FIX], /records\/layout\.json: the file is missing/)
  })

  test('records/ without documents.jsonl is refused by that file, with the command that restores it', async () => {
    const root = await project()
    await rm(join(root, FIX, 'records/documents.jsonl'))
    const message = await refused(root, ['status', FIX], /fixtures\/lab\/records\/documents\.jsonl: the file is missing, while the bucket files/)
    expect(message).toContain('git checkout HEAD -- fixtures/lab/records/documents.jsonl')
    await refused(root, ['evaluate', FIX], /records\/documents\.jsonl: the file is missing/)
  })

  test.each([32, 8, 1])(
    'a layout whose bucket count was changed (16 to %d) is refused by layout.json, with the fix to restore it, not to move a bucket file out',
    async (buckets) => {
      const root = await project()
      const layout = join(root, FIX, 'records/layout.json')
      await writeFile(layout, (await readFile(layout, 'utf8')).replace(/"buckets": 16\b/, `"buckets": ${buckets}`))
      const message = await refused(
        root,
        ['evaluate', FIX],
        new RegExp(
          `^fixtures/lab/records/layout\\.json: the layout gives ${buckets} bucket files, but fixtures/lab/records holds the bucket files of another bucket count \\("[0-9a-f]\\.jsonl", .*\\): the bucket count does not match the bucket files, so their records would be ignored\\.`,
        ),
      )
      expect(message).toContain(
        'fix:      restore fixtures/lab/records/layout.json from version control: `vitest-rubric convert` chose its bucket count, which is never changed by hand. Keep the bucket files where they are: they hold the records.',
      )
      expect(message).not.toContain('move the file out')
    },
  )

  test('a file of records/ that is no bucket file of any count is named, with the fix to move it out', async () => {
    const root = await project()
    await writeFile(join(root, FIX, 'records/notes.txt'), 'a note\n')
    const message = await refused(
      root,
      ['evaluate', FIX],
      /^fixtures\/lab\/records\/notes\.txt: the records directory holds a file that is neither documents\.jsonl nor one of its 16 bucket files, so what it holds would be ignored\./,
    )
    expect(message).toContain('fix:      move the file out of fixtures/lab/records;')
  })

  test.each([
    ['a key held twice', '{"layout":"vitest-rubric/records","version":2,"version":1,"buckets":16}', /holds the key "version" twice|"version".*twice/],
    ['a byte-order mark', '\uFEFF{"layout":"vitest-rubric/records","version":1,"buckets":16}', /byte-order mark/],
    [
      'a member it does not define',
      '{"layout":"vitest-rubric/records","version":1,"buckets":16,"extra":true}',
      /the layout file is not one this version reads/,
    ],
  ])('a layout file with %s is refused as every JSON file is', async (_, text, message) => {
    const root = await project()
    await writeFile(join(root, FIX, 'records/layout.json'), text)
    await refused(root, ['evaluate', FIX], message)
  })

  test('a seed fixture whose records/ kept only its .gitattributes converts to records, the attributes kept', async () => {
    const root = await project('seed')
    await mkdir(join(root, FIX, 'records'))
    await writeFile(join(root, FIX, 'records/.gitattributes'), '*.md text\n')
    const converted = await runCli(['convert', FIX, '--to', 'records'], root)
    expect(converted.stderr).toBe('')
    expect(converted.code).toBe(0)
    expect(await readFile(join(root, FIX, 'records/.gitattributes'), 'utf8')).toBe('*.md text\n*.jsonl merge=union eol=lf\n')
    expect((await runCli(['evaluate', FIX], root)).code).toBe(0)
  })
})
