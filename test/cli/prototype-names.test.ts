import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { copyFixture, ROOT } from '../helpers/fixture-copy.js'

/*
 * A reviewer or judge may be named as any member of Object.prototype is (`constructor`,
 * `toString`, `valueOf`, `hasOwnProperty`): the name is an author's like any other, so every
 * command writes their file and reads it back, in either layout.
 */

const KEYWORDS = join(ROOT, 'examples/judges/keyword-judge.mjs')
const judged = ['--rating', 'command=meets', '--reason', 'command=Names the command.']

async function fixtureIn(layout: 'seed' | 'records'): Promise<{ dir: string; files: (subdir: string) => Promise<string[] | undefined> }> {
  const fixture = await copyFixture()
  if (layout === 'records') expect((await runCli(['convert', '.', '--to', 'records'], fixture.dir)).code).toBe(0)
  // The records layout keeps every author's labels in its record files, no file per author.
  return { dir: fixture.dir, files: async (subdir) => (layout === 'seed' ? await readdir(join(fixture.dir, subdir)) : undefined) }
}

describe.each(['seed', 'records'] as const)('in the %s layout', (layout) => {
  test.each(['constructor', 'toString', 'valueOf', 'hasOwnProperty'])('reviewer %s records a review, and evaluate and status read it back', async (name) => {
    const fixture = await fixtureIn(layout)
    const review = await runCli(['review', '.', '--case', 'not-reviewed', '--reviewer', name, ...judged], fixture.dir)
    expect(review.stderr).toBe('')
    expect(review.code).toBe(0)
    expect(await fixture.files('reviews')).toEqual(layout === 'seed' ? [`${name}.json`] : undefined)
    const second = await runCli(['review', '.', '--case', 'complete', '--reviewer', name, ...judged], fixture.dir)
    expect(second.stderr).toBe('')
    expect(second.code).toBe(0)
    if (layout === 'seed') {
      const written = JSON.parse(await readFile(join(fixture.dir, 'reviews', `${name}.json`), 'utf8')) as { reviews: { answer_id: string }[] }
      expect(written.reviews.map((each) => each.answer_id).sort()).toEqual(['complete', 'not-reviewed'])
    }
    const agreement = await runCli(['agreement', '.'], fixture.dir)
    expect(agreement.stderr).toBe('')
    expect(agreement.stdout).toContain(`1 reviewer (${name}), 2 cases reviewed independently`)
    const evaluate = await runCli(['evaluate', '.'], fixture.dir)
    expect(evaluate.stderr).toBe('')
    expect(evaluate.stdout).toContain('not-reviewed: pending (1 review, not adopted yet)')
    const status = await runCli(['status', '.'], fixture.dir)
    expect(status.stderr).toBe('')
    expect(status.code).toBe(0)
  })

  test.each(['toString', 'constructor'])('a label by the judge %s is recorded, and evaluate --judge reads it', async (name) => {
    const fixture = await fixtureIn(layout)
    const label = await runCli(['review', '.', '--case', 'not-reviewed', '--judge', name, ...judged], fixture.dir)
    expect(label.stderr).toBe('')
    expect(label.code).toBe(0)
    expect(await fixture.files('judges')).toEqual(layout === 'seed' ? [`${name}.json`] : undefined)
    const evaluate = await runCli(['evaluate', '.', '--judge', name], fixture.dir)
    expect(evaluate.stderr).toBe('')
    expect(evaluate.code).toBe(0)
    const status = await runCli(['status', '.'], fixture.dir)
    expect(status.stderr).toBe('')
    expect(status.code).toBe(0)
  })

  test('judge --judge constructor writes every label, and calibrate reads them', async () => {
    const fixture = await fixtureIn(layout)
    const run = await runCli(['judge', '.', '--judge', 'constructor', '--run', KEYWORDS], fixture.dir)
    expect(run.stderr).not.toContain('internal error')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('judge constructor: wrote 40 labels of 40')
    expect(await fixture.files('judges')).toEqual(layout === 'seed' ? ['constructor.json'] : undefined)
    const calibrate = await runCli(['calibrate', '.', '--judge', 'constructor'], fixture.dir)
    expect(calibrate.stderr).toBe('')
    expect(calibrate.stdout).toContain('7 cases with a current adopted review and a current label')
    const status = await runCli(['status', '.'], fixture.dir)
    expect(status.stderr).toBe('')
    expect(status.code).toBe(0)
  })
})
