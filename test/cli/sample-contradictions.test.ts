import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { evaluateFixture } from '../../src/core/engine/evaluate.js'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import { loadFixture } from '../../src/core/registry.js'
import { estimateGateCheck } from '../../src/core/sample/estimate-gate.js'
import type { SampleFile } from '../../src/core/sample/sample-file.js'
import { generateFixture } from '../bench/generate.mjs'
import { runCli } from '../helpers/cli.js'
import { ROOT } from '../helpers/fixture-copy.js'
import { removeFileScratch, scratchDir } from '../helpers/scratch.js'

afterAll(removeFileScratch)

/** 200 cases, one in five rejected and a few pending; odd cases held out: 100 a split. */
const outcomeOf = (index: number) => (index % 5 === 0 ? 'rejected' : index % 37 === 3 ? 'pending' : 'accepted')
const splitOf = (index: number) => (index % 2 ? 'held_out' : 'development')
const FIX = '  fix:      restore sample.json from version control, or draw a new sample with `vitest-rubric sample <dir> --size <n> --seed <s> --new`.'

let template: string
let drawn: SampleFile

/** The fixture judged by the keyword judge, with 120 cases drawn by split: 60 of the 100 of each split. */
beforeAll(async () => {
  template = await scratchDir('sample-contradictions', 'file')
  await generateFixture(join(template, 'fixtures/big'), 200, { fingerprint, outcomeOf, splitOf })
  expect((await runCli(['judge', 'fixtures/big', '--judge', 'kw', '--run', join(ROOT, 'examples/judges/keyword-judge.mjs')], template)).code).toBe(0)
  expect((await runCli(['sample', 'fixtures/big', '--size', '120', '--seed', 's1', '--by', 'split'], template)).code).toBe(0)
  drawn = JSON.parse(await readFile(join(template, 'fixtures/big/sample.json'), 'utf8')) as SampleFile
}, 120_000)

/** A copy of the project with sample.json edited by hand. */
async function edited(edit: (sample: SampleFile) => void): Promise<string> {
  const root = await scratchDir('sample-edited')
  await cp(template, root, { recursive: true })
  const sample = structuredClone(drawn)
  edit(sample)
  await writeFile(join(root, 'fixtures/big/sample.json'), `${JSON.stringify(sample, null, 2)}\n`)
  return root
}

const estimate = (root: string) => runCli(['estimate', 'fixtures/big', '--judge', 'kw', '--split', 'held_out'], root)

/** The estimate gate `rubric({ estimate: { judge: 'kw', min: 0.78 } })` of the plugin, on the held-out split. */
async function gate(root: string) {
  const evaluation = evaluateFixture(await loadFixture('fixtures/big', { cwd: root }))
  return (await estimateGateCheck(evaluation, { judge: 'kw', split: 'held_out', min: 0.78 }, root)).check
}

describe('a hand-edited sample.json that contradicts its own draws is refused (SAMPLE_INVALID)', { timeout: 60_000 }, () => {
  test('every probability set to 1: estimate exits 1 naming the path and n_h/N_h, and the estimate gate no longer passes', async () => {
    const before = await gate(template)
    expect(before.ok).toBe(false)
    expect(before.message).toMatch(/^PPI\+\+ 0\.828, 95% interval \[0\.764, 0\.892\]: the lower bound 0\.764 is below 0\.780/)

    const root = await edited((sample) => {
      for (const entry of sample.cases) entry.probability = 1
    })
    const refused = await estimate(root)
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe('')
    const message = [
      'fixtures/big/sample.json › cases[0] › probability: the inclusion probability is 1, and the draws give 0.6: 60 of the 100 development cases drawn, stratified by split (n_h/N_h = 60/100).',
      '  expected: 0.6, as the recorded draws give it',
      '  found:    1',
      FIX,
    ].join('\n')
    expect(refused.stderr).toBe(`${message}\n`)
    const after = await gate(root)
    expect(after).toEqual({ name: 'acceptance rate on held-out cases (PPI++ with judge kw) is at least 0.78', ok: false, message })
  })

  test('every probability set to 1e-300', async () => {
    const refused = await estimate(
      await edited((sample) => {
        for (const entry of sample.cases) entry.probability = 1e-300
      }),
    )
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(
      'fixtures/big/sample.json › cases[0] › probability: the inclusion probability is 1e-300, and the draws give 0.6: 60 of the 100 development cases drawn, stratified by split (n_h/N_h = 60/100).\n  expected: 0.6, as the recorded draws give it\n  found:    1e-300\n',
    )
  })

  test("a case's split changed, with its stratum", async () => {
    const moved = drawn.cases.findIndex((entry) => entry.split === 'development')
    const refused = await estimate(
      await edited((sample) => {
        Object.assign(sample.cases[moved]!, { split: 'held_out', stratum: 'held_out' })
      }),
    )
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(
      [
        `fixtures/big/sample.json › cases[${moved}] › split: the case "${drawn.cases[moved]!.id}" is in development in the fixture, which holds the cases the draws were made from (population_sha256), and the sample lists it in held_out.`,
        '  expected: "development", the split it was drawn in',
        '  found:    "held_out"',
        FIX,
        '',
      ].join('\n'),
    )
  })

  test('population: 0', async () => {
    const refused = await estimate(
      await edited((sample) => {
        sample.draws[0]!.population = 0
      }),
    )
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(
      'fixtures/big/sample.json › draws[0] › population: the draw records a population of 0 cases, and the fixture, whose cases are those the draws were made from (their ids and splits have the fingerprint population_sha256 records), holds 200.\n  expected: 200, the cases of the fixture\n  found:    0\n',
    )
  })

  test('splits.held_out: 1', async () => {
    const refused = await estimate(
      await edited((sample) => {
        sample.draws[0]!.splits.held_out = 1
      }),
    )
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(
      'fixtures/big/sample.json › draws[0] › splits › held_out: the draw records 1 held_out case, and the fixture, whose cases are those the draws were made from (their ids and splits have the fingerprint population_sha256 records), holds 100.\n  expected: 100, the held_out cases of the fixture\n  found:    1\n',
    )
  })

  test("sampled cases deleted: the draw's size is checked against the cases listed, and its allocation when the size is edited too", async () => {
    const removed = await estimate(
      await edited((sample) => {
        sample.cases.splice(5, 3)
      }),
    )
    expect(removed.code).toBe(1)
    expect(removed.stderr).toContain(
      'fixtures/big/sample.json › cases: 117 cases of the sample name draw 0, which drew 120 (draws[0] › size): a drawn case was removed or one added, or the size changed.\n  expected: 120 cases with "draw": 0\n  found:    117\n',
    )
    const resized = await estimate(
      await edited((sample) => {
        const gone = sample.cases.splice(0, 3)
        expect(gone.map((entry) => entry.split)).toEqual(['development', 'development', 'development'])
        sample.draws[0]!.size = 117
        for (const entry of sample.cases) if (entry.split === 'development') entry.probability = 57 / 100
      }),
    )
    expect(resized.code).toBe(1)
    expect(resized.stderr).toContain(
      'fixtures/big/sample.json › cases: 57 development cases of the sample name draw 0, and the draw\'s proportional allocation of its 117 cases over 200 cases (development 100, held_out 100), at least one of each split, gives development 59.\n  expected: 59 development cases with "draw": 0\n',
    )
  })

  test('the file as drawn is estimated, and `sample --new`, the fix the refusal gives, replaces an edited file', async () => {
    expect((await estimate(template)).code).toBe(0)
    const root = await edited((sample) => {
      for (const entry of sample.cases) entry.probability = 1
    })
    expect((await runCli(['sample', 'fixtures/big', '--size', '10', '--seed', 's2', '--by', 'split'], root)).code).toBe(1)
    const again = await runCli(['sample', 'fixtures/big', '--size', '120', '--seed', 's1', '--by', 'split', '--new'], root)
    expect(again.code).toBe(0)
    const estimated = await estimate(root)
    expect(estimated.code).toBe(0)
    expect(estimated.stdout).toContain('judge-assisted (PPI++)     0.828 [0.764, 0.892]')
  })

  test('`sample --like` copies a sample that then loads, checked against the cases of its own fixture', async () => {
    const root = await scratchDir('sample-like-check')
    await cp(template, root, { recursive: true })
    await cp(join(root, 'fixtures/big'), join(root, 'fixtures/copy'), { recursive: true })
    const copied = await runCli(['sample', 'fixtures/copy', '--like', 'fixtures/big', '--new'], root)
    expect(copied.code, copied.stderr).toBe(0)
    expect((await runCli(['estimate', 'fixtures/copy', '--judge', 'kw', '--split', 'held_out'], root)).code).toBe(0)
  })
})
