import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import { generateFixture } from '../bench/generate.mjs'
import { runCli } from '../helpers/cli.js'
import { ROOT } from '../helpers/fixture-copy.js'
import { removeFileScratch, scratchDir } from '../helpers/scratch.js'

/*
 * Where there is no estimate, `estimate` says why in words that fit the sample: a split without
 * cases has nothing to estimate, and a census (every case of the split sampled and decided) needs
 * no estimate, its rate being known exactly. "Review more of the sample" is no advice when nothing
 * of it is left to review.
 */

afterAll(removeFileScratch)

/** 12 cases in development, every fourth rejected and the rest accepted, or some `pending`; judged by the keyword judge. */
async function judgedFixture(pending: (index: number) => boolean): Promise<string> {
  const root = await scratchDir('estimate-census', 'file')
  const outcomeOf = (index: number) => (pending(index) ? 'pending' : index % 4 === 0 ? 'rejected' : 'accepted')
  await generateFixture(join(root, 'fixtures/c12'), 12, { fingerprint, outcomeOf })
  expect((await runCli(['judge', 'fixtures/c12', '--judge', 'kw', '--run', join(ROOT, 'examples/judges/keyword-judge.mjs')], root)).code).toBe(0)
  return root
}

let census: string
let pending: string
let partial: string

/** Every case drawn: a census once every drawn case is decided. */
beforeAll(async () => {
  census = await judgedFixture(() => false)
  pending = await judgedFixture((index) => index % 6 === 1)
  partial = await judgedFixture(() => false)
  for (const root of [census, pending]) expect((await runCli(['sample', 'fixtures/c12', '--size', '12', '--seed', 's1'], root)).code).toBe(0)
  expect((await runCli(['sample', 'fixtures/c12', '--size', '8', '--seed', 's1'], partial)).code).toBe(0)
}, 120_000)

const estimate = (root: string, ...more: string[]) => runCli(['estimate', 'fixtures/c12', '--judge', 'kw', ...more], root)

describe('estimate where there is nothing more to review', { timeout: 60_000 }, () => {
  test('a census gives each rate exactly, with nothing left to estimate', async () => {
    const run = await estimate(census)
    expect(run.code).toBe(0)
    const lines = run.stdout.split('\n')
    expect(lines[1]).toBe('  development: 12 cases, 12 sampled (12 decided, 0 pending)')
    expect(lines[2]).toBe(
      '    no estimate: every case of the split is sampled and decided (a census): the rate is 0.750 exactly (9 of 12), with nothing left to estimate',
    )
    expect(run.stdout).toContain(
      '      command         no estimate: every case of the split is sampled and decided (a census): the rate is 1.000 exactly (12 of 12), with nothing left to estimate',
    )
    expect(run.stdout).not.toContain('review more of the sample')
  })

  test('a split without cases has nothing to estimate, in the text and in --json', async () => {
    const run = await estimate(census, '--split', 'held_out')
    expect(run.code).toBe(0)
    expect(run.stdout.split('\n').slice(1)).toEqual(['  held_out: no cases: nothing to estimate (the fixture holds no held_out case)', ''])
    const report = JSON.parse((await estimate(census, '--split', 'held_out', '--json')).stdout) as {
      splits: { result: { message: string }; criteria: Record<string, { message: string }> }[]
    }
    const [split] = report.splits
    expect(split!.result.message).toBe('the split holds no case, so there is nothing to estimate')
    expect(new Set(Object.values(split!.criteria).map((criterion) => criterion.message))).toEqual(
      new Set(['the split holds no case, so there is nothing to estimate']),
    )
  })

  test('every case drawn but some pending is no census: the pending cases are to review', async () => {
    const run = await estimate(pending)
    expect(run.stdout).toContain('    no estimate: 10 sampled cases are decided (2 pending); an estimate needs at least 30: review more of the sample')
  })

  test('a sample whose every case is decided, smaller than the split, says to draw more cases, not to review more of it', async () => {
    const run = await estimate(partial)
    expect(run.stdout).toContain('  development: 12 cases, 8 sampled (8 decided, 0 pending)')
    expect(run.stdout).toContain(
      '    no estimate: 8 sampled cases are decided (0 pending); an estimate needs at least 30: every sampled case is decided, so draw more cases: run `vitest-rubric sample` again with --size to extend the sample (one stratified by the judge is drawn anew with --new), then review them',
    )
    expect(run.stdout).not.toContain('review more of')
  })
})
