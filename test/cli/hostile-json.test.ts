import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { fileSource } from '../../src/core/engine/authoring/draft.js'
import { sha256Hex } from '../../src/core/json/canonical-json.js'
import { recordReview } from '../../src/core/registry.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture, type FixtureCopy } from '../helpers/fixture-copy.js'

/*
 * JSON a tool or a hand wrote that says something other than what JSON.parse reads, or that no
 * walk of it survives: a key held twice in one object, arrays nested thousands deep, a text cut in
 * the middle of a character. Each is refused where it was read or given, with the file and the
 * JSON path; never an internal error, never a decision, and nothing written.
 */

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

/** A draft judging every criterion, as `review --from` and `adjudicate --from` take it. */
const draft = (rating = 'meets') => Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating, reason: `Judged ${criterion}.`, answer_span: '' }]))

/** Every file under a fixture directory, by its path and the SHA-256 of its bytes. */
async function filesUnder(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {}
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) files[join(entry.parentPath, entry.name).slice(dir.length + 1)] = sha256Hex(await readFile(join(entry.parentPath, entry.name)))
  }
  return files
}

/** Runs a command that must be refused: exit 1, no internal error, no file of the fixture changed. */
async function refused(fixture: FixtureCopy, argv: string[]): Promise<string> {
  const before = await filesUnder(fixture.dir)
  const run = await runCli(argv, fixture.dir)
  expect(run.stderr).not.toContain('internal error')
  expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 1, stdout: '' })
  expect(await filesUnder(fixture.dir)).toEqual(before)
  return run.stderr
}

/** A fixture where alice and bob reviewed `complete` independently, so an adjudication of it can be written. */
async function reviewedTwice(): Promise<FixtureCopy> {
  const fixture = await copyFixture()
  await writeFile(join(fixture.dir, 'alice.json'), JSON.stringify(draft()))
  await writeFile(join(fixture.dir, 'bob.json'), JSON.stringify(draft('does_not_meet')))
  for (const reviewer of ['alice', 'bob']) {
    const run = await runCli(['review', '.', '--case', 'complete', '--reviewer', reviewer, '--from', `${reviewer}.json`], fixture.dir)
    expect(run.stderr).toBe('')
  }
  return fixture
}

const deepArray = (depth = 10_000) => `${'['.repeat(depth)}${']'.repeat(depth)}`

describe('arrays nested 10,000 deep: refused at the file with where, never "Maximum call stack size exceeded"', () => {
  test('at the top of cases.json: the fixture is refused by evaluate and status, naming the file', async () => {
    const fixture = await copyFixture()
    await writeFile(join(fixture.dir, 'cases.json'), deepArray())
    const message = await refused(fixture, ['evaluate', '.'])
    expect(message).toMatchInlineSnapshot(`
      "cases.json › [0][0][0][0][0][0][0][0]: the JSON nests deeper than 64 levels of arrays and objects below this path.
        expected: at most 64 levels: the format's files nest fewer than 10
        found:    level 65 opening at line 1, column 65
        fix:      no file the package reads nests so deep: restore the file from version control, or write it again as docs/format.md describes.
      "
    `)
    const status = await runCli(['status', '.'], fixture.dir)
    expect(status.code).toBe(1)
    expect(status.stdout).toContain('cases.json › [0][0][0][0][0][0][0][0]: the JSON nests deeper than 64 levels')
  })

  test('a reviewer file, a judge file, adjudications.json, and arrays and objects mixed inside a review', async () => {
    const fixture = await reviewedTwice()
    const original = await readFile(join(fixture.dir, 'reviews/alice.json'), 'utf8')
    await writeFile(join(fixture.dir, 'reviews/alice.json'), deepArray())
    expect(await refused(fixture, ['evaluate', '.'])).toMatch(
      /^reviews\/alice\.json › \[0\]\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]: the JSON nests deeper than 64 levels/,
    )
    // Deep inside a review's reason, through arrays and objects by turns.
    const mixed = original.replace('"Judged command."', `${'[{"a":'.repeat(5_000)}1${'}]'.repeat(5_000)}`)
    await writeFile(join(fixture.dir, 'reviews/alice.json'), mixed)
    expect(await refused(fixture, ['evaluate', '.'])).toMatch(
      /^reviews\/alice\.json › reviews\[0\] › judgements › command › reason\[0\] › a\[0\]: the JSON nests deeper than 64 levels of arrays and objects below this path\./,
    )
    await writeFile(join(fixture.dir, 'reviews/alice.json'), original)
    await mkdir(join(fixture.dir, 'judges'))
    await writeFile(join(fixture.dir, 'judges/kw.json'), deepArray())
    expect(await refused(fixture, ['calibrate', '.'])).toMatch(/^judges\/kw\.json › (\[0\]){8}: the JSON nests deeper than 64 levels/)
    await writeFile(join(fixture.dir, 'judges/kw.json'), `{"origin": "o", "reviews": []}`)
    await writeFile(join(fixture.dir, 'adjudications.json'), `{"adoptions": ${deepArray()}}`)
    expect(await refused(fixture, ['evaluate', '.'])).toMatch(/^adjudications\.json › adoptions(\[0\]){7}: the JSON nests deeper than 64 levels/)
  })

  test('given with add --from, review --from, review --judge --from (JSON and JSON Lines) and adjudicate --from', async () => {
    const fixture = await reviewedTwice()
    await writeFile(join(fixture.dir, 'deep.json'), deepArray())
    await writeFile(
      join(fixture.dir, 'deep.jsonl'),
      `${JSON.stringify({ case: 'negation', judgements: draft() })}\n{"case": "complete", "judgements": ${deepArray()}}\n`,
    )
    const deep = /^deep\.json › (\[0\]){8}: the JSON nests deeper than 64 levels of arrays and objects below this path\.\n {2}expected: at most 64 levels/
    expect(await refused(fixture, ['add', '.', '--from', 'deep.json'])).toMatch(deep)
    expect(await refused(fixture, ['review', '.', '--case', 'not-reviewed', '--reviewer', 'carol', '--from', 'deep.json'])).toMatch(deep)
    expect(await refused(fixture, ['review', '.', '--judge', 'kw', '--from', 'deep.json'])).toMatch(deep)
    expect(await refused(fixture, ['adjudicate', '.', '--case', 'complete', '--adjudicator', 'carol', '--from', 'deep.json'])).toMatch(deep)
    expect(await refused(fixture, ['review', '.', '--judge', 'kw', '--from', 'deep.jsonl'])).toMatchInlineSnapshot(`
      "deep.jsonl:2 › judgements[0][0][0][0][0][0][0]: the JSON nests deeper than 64 levels of arrays and objects below this path; nothing was written.
        expected: at most 64 levels: the format's files nest fewer than 10
        found:    level 65 opening at column 99
        fix:      no file the package reads nests so deep: restore the file from version control, or write it again as docs/format.md describes.
      "
    `)
  })
})

/** Puts `insert` just before the first occurrence of `before` in a file of the fixture. */
async function insertBefore(fixture: FixtureCopy, file: string, before: string, insert: string): Promise<void> {
  const text = await readFile(join(fixture.dir, file), 'utf8')
  if (!text.includes(before)) throw new Error(`${file} does not hold ${before}`)
  await writeFile(join(fixture.dir, file), text.replace(before, `${insert}${before}`))
}

describe('a key held twice in one object: refused, naming the file, the JSON path and the key', () => {
  test('"rating": "does_not_meet" before the recorded "rating": "meets" in annotations.json: status and evaluate refuse the fixture', async () => {
    const fixture = await copyFixture()
    // What a reader of the file sees first is does_not_meet; JSON.parse keeps meets, and the fingerprint covers meets.
    await insertBefore(fixture, 'annotations.json', '"rating": "meets",', '"rating": "does_not_meet",\n          ')
    const status = await runCli(['status', '.'], fixture.dir)
    expect(status.code).toBe(1)
    expect(status.stdout).toContain('annotations.json › reviews[0] › judgements › command › rating: the key "rating" occurs twice in one object')
    expect(await refused(fixture, ['evaluate', '.'])).toMatchInlineSnapshot(`
      "annotations.json › reviews[0] › judgements › command › rating: the key "rating" occurs twice in one object, so which of its values counts would be a guess.
        expected: each key once in its object
        found:    "rating" at line 12, column 11 and again at line 13, column 11
        fix:      keep the "rating" you mean and delete the other: a reader of the file sees the first, JSON.parse keeps the last, so the file is not read until the key occurs once.
      "
    `)
  })

  test('in every fixture file the package reads: cases, rubric, reviewer and judge files, adjudications, the decision record', async () => {
    const fixture = await reviewedTwice()
    await mkdir(join(fixture.dir, 'judges'))
    await writeFile(join(fixture.dir, 'judges/kw.json'), `{"origin": "o", "origin": "p", "reviews": []}`)
    expect(await refused(fixture, ['calibrate', '.'])).toMatch(/^judges\/kw\.json › origin: the key "origin" occurs twice in one object/)
    await writeFile(join(fixture.dir, 'judges/kw.json'), `{"origin": "o", "reviews": []}`)
    const places: [file: string, before: string, insert: string, first: RegExp][] = [
      ['cases.json', '"id": "paraphrase"', '"id": "other",\n      ', /^cases\.json › cases\[1\] › id: the key "id" occurs twice/],
      ['rubric.json', '"version"', '"version": 2,\n  ', /^rubric\.json › version: the key "version" occurs twice/],
      [
        'reviews/bob.json',
        '"rating": "does_not_meet"',
        '"rating": "meets", ',
        /^reviews\/bob\.json › reviews\[0\] › judgements › command › rating: the key "rating" occurs twice/,
      ],
      ['annotations.json', '"origin"', '"origin": "Someone else.",\n  ', /^annotations\.json › origin: the key "origin" occurs twice/],
    ]
    for (const [file, before, insert, first] of places) {
      const original = await readFile(join(fixture.dir, file), 'utf8')
      await insertBefore(fixture, file, before, insert)
      expect(await refused(fixture, ['evaluate', '.'])).toMatch(first)
      await writeFile(join(fixture.dir, file), original)
    }
    const adjudicated = await runCli(['adjudicate', '.', '--case', 'complete', '--adjudicator', 'carol', '--take', 'alice'], fixture.dir)
    expect(adjudicated.stderr).toBe('')
    await insertBefore(fixture, 'adjudications.json', '"adjudicator"', '"adjudicator": "dave",\n      ')
    expect(await refused(fixture, ['evaluate', '.'])).toMatch(/^adjudications\.json › adoptions\[0\] › adjudicator: the key "adjudicator" occurs twice/)
  })

  test('the decision record: decisions --check refuses it rather than comparing with the last copy', async () => {
    const fixture = await copyFixture()
    await insertBefore(fixture, 'decisions.record.json', '"name"', '"name": "another",\n  ')
    const check = await runCli(['decisions', '.', '--check'], fixture.dir)
    expect(check.code).toBe(1)
    expect(check.stderr + check.stdout).toMatch(/decisions\.record\.json › name: the key "name" occurs twice in one object/)
  })

  test('in what add --from, review --from, review --judge --from (JSON and JSON Lines) and adjudicate --from read', async () => {
    const fixture = await reviewedTwice()
    const twice = (text: string) => text.replace('{"rating":"meets"', '{"rating":"does_not_meet","rating":"meets"')
    await writeFile(join(fixture.dir, 'review.json'), twice(JSON.stringify(draft())))
    await writeFile(join(fixture.dir, 'labels.json'), twice(JSON.stringify({ 'not-reviewed': draft() })))
    await writeFile(
      join(fixture.dir, 'labels.jsonl'),
      `${JSON.stringify({ case: 'negation', judgements: draft() })}\n${twice(JSON.stringify({ case: 'not-reviewed', judgements: draft() }))}\n`,
    )
    const cases = await fixture.readJson<{ cases: { input: { answer: unknown } }[] }>('cases.json')
    await writeFile(join(fixture.dir, 'new.json'), `[{"id": "new", "id": "newer", "answer": "An answer.", "citation": "A guide."}]`)
    expect(cases.cases.length).toBe(8)
    expect(await refused(fixture, ['add', '.', '--from', 'new.json'])).toMatch(/^new\.json › \[0\] › id: the key "id" occurs twice in one object/)
    const review =
      /^review\.json › command › rating: the key "rating" occurs twice in one object, so which of its values counts would be a guess\.\n {2}expected: each key once in its object\n {2}found: {4}"rating" at line 1, column 13 and again at line 1, column 38\n/
    expect(await refused(fixture, ['review', '.', '--case', 'not-reviewed', '--reviewer', 'carol', '--from', 'review.json'])).toMatch(review)
    expect(await refused(fixture, ['review', '.', '--case', 'not-reviewed', '--from', 'review.json'])).toMatch(review)
    expect(await refused(fixture, ['adjudicate', '.', '--case', 'complete', '--adjudicator', 'carol', '--from', 'review.json'])).toMatch(review)
    expect(await refused(fixture, ['review', '.', '--judge', 'kw', '--from', 'labels.json'])).toMatch(
      /^labels\.json › not-reviewed › command › rating: the key "rating" occurs twice/,
    )
    expect(await refused(fixture, ['review', '.', '--judge', 'kw', '--from', 'labels.jsonl'])).toMatchInlineSnapshot(`
      "labels.jsonl:2 › judgements › command › rating: the key "rating" occurs twice in one object, so which of its values counts would be a guess; nothing was written.
        expected: each key once in its object
        found:    "rating" at column 49 and again at column 74
        fix:      keep the "rating" you mean and delete the other: a reader of the file sees the first, JSON.parse keeps the last, so the file is not read until the key occurs once.
      "
    `)
  })
})

/** A JSON text whose `command` reason ends in a lone high surrogate, escaped as JSON writes it. */
const cut = (text: string) => text.replace('"Judged command."', '"Judged command \\ud83d"')

describe('a lone surrogate in a text: refused at its path wherever a review or a case is written', () => {
  test('review --reviewer --from, review --from, review --judge --from (JSON Lines and JSON), adjudicate --from: nothing written', async () => {
    const fixture = await reviewedTwice()
    await writeFile(join(fixture.dir, 'review.json'), cut(JSON.stringify(draft(), null, 2)))
    await writeFile(
      join(fixture.dir, 'labels.jsonl'),
      `${JSON.stringify({ case: 'negation', judgements: draft() })}\n${cut(JSON.stringify({ case: 'complete', judgements: draft() }))}\n`,
    )
    await writeFile(join(fixture.dir, 'labels.json'), cut(JSON.stringify({ complete: draft() })))
    expect(await refused(fixture, ['review', '.', '--case', 'complete', '--reviewer', 'carol', '--from', 'review.json'])).toMatchInlineSnapshot(`
      "review.json › command › reason: the text holds a lone surrogate (half of a character beyond U+FFFF), which has no UTF-8 encoding; nothing was written.
        expected: well-formed Unicode text
        found:    "Judged command \\ud83d"
        fix:      replace the broken character: the text was probably cut in the middle of an emoji or other character beyond U+FFFF.
      "
    `)
    expect(await refused(fixture, ['review', '.', '--case', 'not-reviewed', '--from', 'review.json'])).toMatch(
      /^review\.json › command › reason: the text holds a lone surrogate/,
    )
    expect(await refused(fixture, ['review', '.', '--judge', 'kw', '--from', 'labels.jsonl'])).toMatch(
      /^labels\.jsonl:2 › judgements › command › reason: the text holds a lone surrogate .*; nothing was written\.\n {2}expected: well-formed Unicode text\n {2}found: {4}"Judged command \\ud83d"\n/,
    )
    expect(await refused(fixture, ['review', '.', '--judge', 'kw', '--from', 'labels.json'])).toMatch(
      /^labels\.json › complete › command › reason: the text holds a lone surrogate/,
    )
    expect(await refused(fixture, ['adjudicate', '.', '--case', 'complete', '--adjudicator', 'carol', '--from', 'review.json'])).toMatch(
      /^review\.json › command › reason: the text holds a lone surrogate/,
    )
  })

  test("judge --run: a verdict holding one fails its own case, and the run's other labels are written", async () => {
    const fixture = await copyFixture()
    const judge = join(fixture.dir, 'cut-judge.mjs')
    await writeFile(
      judge,
      `export default async ({ case: { id }, criterion }) => ({ rating: 'meets', reason: id === 'negation' && criterion.id === 'command' ? 'Cut \\ud83d' : 'Fine.', span: '' })\n`,
    )
    const run = await runCli(['judge', '.', '--judge', 'kw', '--run', 'cut-judge.mjs', '--retries', '0'], fixture.dir)
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(
      'failed: negation › command after 1 call: invalid verdict for command › reason: the text holds a lone surrogate, which has no UTF-8 encoding',
    )
    const labels = await fixture.readJson<{ reviews: { answer_id: string; judgements: Record<string, { reason: string }> }[] }>('judges/kw.json')
    expect(labels.reviews.flatMap((review) => Object.values(review.judgements))).toHaveLength(39)
    expect(labels.reviews.every((review) => Object.values(review.judgements).every((judgement) => judgement.reason.isWellFormed()))).toBe(true)
  })

  test("the origin a judge file records: a judge module's description or an --origin holding one is refused before anything is written", async () => {
    const fixture = await copyFixture()
    await writeFile(
      join(fixture.dir, 'described.mjs'),
      `export const description = 'model \\ud83d'\nexport default async () => ({ rating: 'meets', reason: 'Fine.', span: '' })\n`,
    )
    const run = await runCli(['judge', '.', '--judge', 'kw', '--run', 'described.mjs'], fixture.dir)
    expect(run).toMatchObject({ code: 2, stdout: '' })
    expect(run.stderr).toMatch(/^described\.mjs › description: the origin holds a lone surrogate/)
    const before = await filesUnder(fixture.dir)
    const recorded = recordReview(fixture.dir, draft(), fileSource('draft'), {
      cwd: fixture.dir,
      caseId: 'not-reviewed',
      replace: false,
      judge: 'kw',
      origin: 'model \ud83d',
    })
    await expect(recorded).rejects.toMatchObject({ code: 'USAGE', file: '--origin' })
    expect(await filesUnder(fixture.dir)).toEqual(before)
  })

  test('add --from: a case whose answer holds one is refused at its path, not written to be refused when read', async () => {
    const fixture = await copyFixture()
    await writeFile(join(fixture.dir, 'new.json'), `[{"id": "new", "answer": "Roll back \\udc00 now.", "citation": "A guide."}]`)
    // The file holds a list of one case: its fields are named by their place in the list, as in a list of several.
    expect(await refused(fixture, ['add', '.', '--from', 'new.json'])).toMatch(/^new\.json › \[0\] › answer: the text holds a lone surrogate/)
  })

  test('a reviewer file or a judge file holding one by hand: the review refuses its case, and calibrate does not count the label', async () => {
    const fixture = await reviewedTwice()
    const alice = await readFile(join(fixture.dir, 'reviews/alice.json'), 'utf8')
    await writeFile(join(fixture.dir, 'reviews/alice.json'), cut(alice))
    const evaluated = await runCli(['evaluate', '.'], fixture.dir)
    expect(evaluated.stdout).toContain('complete: refused (the string holds a lone surrogate, which has no UTF-8 encoding.)')
    expect(evaluated.stdout).toContain('reviews/alice.json › reviews[0] › judgements › command › reason (case "complete"): the string holds a lone surrogate')
    await writeFile(join(fixture.dir, 'reviews/alice.json'), alice)

    await writeFile(join(fixture.dir, 'labels.json'), JSON.stringify({ complete: draft(), paraphrase: draft() }))
    expect((await runCli(['review', '.', '--judge', 'kw', '--from', 'labels.json'], fixture.dir)).stderr).toBe('')
    const counted = JSON.parse((await runCli(['calibrate', '.', '--json'], fixture.dir)).stdout).judges.kw
    const judge = await readFile(join(fixture.dir, 'judges/kw.json'), 'utf8')
    await writeFile(join(fixture.dir, 'judges/kw.json'), judge.replace('"Judged command."', '"Judged command \\ud83d"'))
    const calibration = JSON.parse((await runCli(['calibrate', '.', '--json'], fixture.dir)).stdout).judges.kw
    expect(calibration.cases).toBe(counted.cases - 1)
    expect(calibration.refused_cases).toEqual([{ id: 'complete', reason: 'the string holds a lone surrogate, which has no UTF-8 encoding.' }])
  })
})

describe('a number beyond the range of a double: JSON.parse reads 1e400 as Infinity, which JSON writes as null', () => {
  test('review --from and review --judge --from: the message says the number is out of range, never "the number null"', async () => {
    const fixture = await copyFixture()
    // The support judgement with a confidence written as the text gives it: JSON.stringify cannot write 1e400.
    const withConfidence = (confidence: string) => JSON.stringify(draft()).replace(/("support":\{[^}]*)\}/, `$1,"confidence":${confidence}}`)
    await writeFile(join(fixture.dir, 'huge.json'), withConfidence('1e400'))
    await writeFile(join(fixture.dir, 'below.json'), withConfidence('-1e400'))
    const huge = await refused(fixture, ['review', '.', '--case', 'not-reviewed', '--judge', 'kw', '--from', 'huge.json'])
    expect(huge).toMatchInlineSnapshot(`
      "huge.json › support › confidence: the value has the wrong type; nothing was written.
        expected: a number
        found:    the number Infinity (out of range: too large to be a finite number)
        fix:      give what the command describes (see its --help).
      "
    `)
    expect(await refused(fixture, ['review', '.', '--case', 'not-reviewed', '--from', 'huge.json'])).toContain(
      'found:    the number Infinity (out of range: too large to be a finite number)',
    )
    expect(await refused(fixture, ['review', '.', '--case', 'not-reviewed', '--judge', 'kw', '--from', 'below.json'])).toContain(
      'found:    the number -Infinity (out of range: too large a negative number to be finite)',
    )
  })
})
