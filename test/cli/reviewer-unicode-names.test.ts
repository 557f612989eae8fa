import { readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { filesIn } from '../helpers/bad-input.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture } from '../helpers/fixture-copy.js'

/*
 * A name is taken in Unicode NFC (reviewers.md), so a reviewer's or judge's file whose name is
 * stored decomposed (NFD: `zoe\u0308.json`, as macOS HFS+ stores names, or a copy from it) is
 * that author's one file: every command reads it as theirs and writes to it, never to a second
 * file beside it, and never refuses the name as a case twin of itself. Two files whose names are
 * one name in two Unicode forms refuse the fixture, naming both.
 */

const COMPOSED = 'zo\u00eb'
const DECOMPOSED = 'zoe\u0308'
const judged = (reason: string) => ['--rating', 'support=meets', '--reason', `support=${reason}`]
const answerIds = async (path: string) =>
  (JSON.parse(await readFile(path, 'utf8')) as { reviews: { answer_id: string }[] }).reviews.map((review) => review.answer_id)

/** A copy of the bundled fixture where zoë reviewed "complete", her file then renamed to its decomposed name. */
async function decomposedReviewer() {
  const fixture = await copyFixture()
  expect((await runCli(['review', '.', '--case', 'complete', '--reviewer', COMPOSED, ...judged('Supported.')], fixture.dir)).code).toBe(0)
  await rename(join(fixture.dir, 'reviews', `${COMPOSED}.json`), join(fixture.dir, 'reviews', `${DECOMPOSED}.json`))
  return fixture
}

describe('an author file whose name is stored decomposed (NFD)', () => {
  test.each([
    ['composed', COMPOSED],
    ['decomposed', DECOMPOSED],
  ])('zoë typed %s writes her reviews to her file as it is named, and no second file', async (_, typed) => {
    const fixture = await decomposedReviewer()
    const run = await runCli(['review', '.', '--case', 'paraphrase', '--reviewer', typed, ...judged('Supported too.')], fixture.dir)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(`paraphrase by ${COMPOSED}: recorded a review`)
    expect(await readdir(join(fixture.dir, 'reviews'))).toEqual([`${DECOMPOSED}.json`])
    expect(await answerIds(join(fixture.dir, 'reviews', `${DECOMPOSED}.json`))).toEqual(['complete', 'paraphrase'])
  })

  test("the review queue and agreement count her file's reviews as hers", async () => {
    const fixture = await decomposedReviewer()
    const queue = await runCli(['next', '.', '--reviewer', COMPOSED, '--json'], fixture.dir)
    expect(queue.code).toBe(0)
    expect(queue.stdout).not.toContain('"complete"')
    const agreement = await runCli(['agreement', '.'], fixture.dir)
    expect(agreement.stdout).toContain(`1 reviewer (${COMPOSED}), 1 case reviewed independently`)
  })

  test('a name that differs from hers only in case is still refused, and nothing is written', async () => {
    const fixture = await decomposedReviewer()
    const before = await filesIn(fixture.dir)
    const twin = await runCli(['review', '.', '--case', 'paraphrase', '--reviewer', 'Zo\u00eb', ...judged('Supported.')], fixture.dir)
    expect(twin.code).toBe(1)
    expect(twin.stderr).toContain('--reviewer: "Zo\u00eb" differs only in case from reviews/')
    expect(twin.stderr).toContain('pass --reviewer zo\u00eb if they are the same person')
    expect(await filesIn(fixture.dir)).toEqual(before)
  })

  test("a judge's file stored decomposed takes the judge's next label", async () => {
    const fixture = await copyFixture()
    expect((await runCli(['review', '.', '--case', 'complete', '--judge', COMPOSED, ...judged('Supported.')], fixture.dir)).code).toBe(0)
    await rename(join(fixture.dir, 'judges', `${COMPOSED}.json`), join(fixture.dir, 'judges', `${DECOMPOSED}.json`))
    const run = await runCli(['review', '.', '--case', 'paraphrase', '--judge', COMPOSED, ...judged('Supported.')], fixture.dir)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(await readdir(join(fixture.dir, 'judges'))).toEqual([`${DECOMPOSED}.json`])
    expect(await answerIds(join(fixture.dir, 'judges', `${DECOMPOSED}.json`))).toEqual(['complete', 'paraphrase'])
  })

  test('an adoption that names her decomposed still stands for her review', async () => {
    const fixture = await decomposedReviewer()
    expect((await runCli(['review', '.', '--case', 'complete', '--reviewer', 'bob', ...judged('Supported.')], fixture.dir)).code).toBe(0)
    expect((await runCli(['adjudicate', '.', '--case', 'complete', '--adjudicator', 'dana', '--take', COMPOSED], fixture.dir)).code).toBe(0)
    const path = join(fixture.dir, 'adjudications.json')
    const adjudications = await readFile(path, 'utf8')
    expect(adjudications).toContain(`"${COMPOSED}"`)
    // What the fixture decides, without the files' hashes (adjudications.json is edited below).
    const decisions = async () => {
      const run = await runCli(['evaluate', '.', '--json'], fixture.dir)
      expect(run.code).toBe(0)
      const { identities: _, ...decided } = JSON.parse(run.stdout) as Record<string, unknown>
      return decided
    }
    const before = await decisions()
    expect(JSON.stringify(before)).toContain('"refused":0')
    await writeFile(path, adjudications.replaceAll(COMPOSED, DECOMPOSED))
    expect(await decisions()).toEqual(before)
  })

  test('a conversion to the records layout and back keeps her reviews in her file', async () => {
    const fixture = await decomposedReviewer()
    expect((await runCli(['convert', '.', '--to', 'records'], fixture.dir)).code).toBe(0)
    expect((await runCli(['review', '.', '--case', 'paraphrase', '--reviewer', COMPOSED, ...judged('Supported too.')], fixture.dir)).code).toBe(0)
    expect((await runCli(['convert', '.', '--to', 'seed'], fixture.dir)).code).toBe(0)
    const [file] = await readdir(join(fixture.dir, 'reviews'))
    expect(file?.normalize('NFC')).toBe(`${COMPOSED}.json`)
    expect(await answerIds(join(fixture.dir, 'reviews', file!))).toEqual(['complete', 'paraphrase'])
  })

  test('two files of one name in two Unicode forms refuse the fixture, naming both and which to keep', async () => {
    const fixture = await decomposedReviewer()
    expect((await runCli(['review', '.', '--case', 'complete', '--reviewer', 'alice', ...judged('Supported.')], fixture.dir)).code).toBe(0)
    await rename(join(fixture.dir, 'reviews', 'alice.json'), join(fixture.dir, 'reviews', `${COMPOSED}.json`))
    const run = await runCli(['evaluate', '.'], fixture.dir)
    expect(run.code).toBe(1)
    expect(run.stderr).toMatchInlineSnapshot(`
      "reviews/zoë.json: reviewer "zoë" has two files: this one, its name written with the accents composed (Unicode NFC), and reviews/zoë.json, written decomposed (not in NFC); which holds their labels would be a guess.
        fix:      merge the labels of the file named decomposed into reviews/zoë.json, the one named composed, and remove it.
      "
    `)
  })
})
