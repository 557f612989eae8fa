import { runBuiltCli } from '../helpers/cli.js'
// `vitest-rubric compare A B --judge <name>` and the compare gate with a judge, end to end: two
// generated fixtures of 400 held-out tasks answered by two systems, a judge of known errors on each
// system's answers, and a sample drawn alike in both.
import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { judgeAssistedLines } from '../../src/core/compare/compare-judge-text.js'
import { compareGate } from '../../src/core/compare/gate.js'
import { PLAIN } from '../../src/core/common/colors.js'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import type { SampleFile } from '../../src/core/sample/sample-file.js'
import { ppiDifference, type PpiDifferenceEstimate } from '../../src/core/stats/ppi-difference.js'
import { generateFixture } from '../bench/generate.mjs'
import type { AnnotationsJson, CasesJson } from '../helpers/fixture-copy.js'
import { removeFileScratch, scratchDir } from '../helpers/scratch.js'
import { comparisonLines } from '../../src/reporter/render-text.js'

afterAll(removeFileScratch)

/** The built command line, in a process of its own. */
const bin = runBuiltCli

const N = 400
/** System A's answers: a quarter rejected. System B's: a fifth rejected, one in twenty pending (with an uncertain review). */
type Outcome = 'accepted' | 'rejected' | 'pending'
const SYSTEMS = {
  a: { outcomeOf: (index: number): Outcome => (index % 4 === 1 ? 'rejected' : 'accepted'), errs: (index: number) => index % 10 === 3 },
  b: {
    outcomeOf: (index: number): Outcome => (index % 20 === 6 ? 'pending' : index % 5 === 1 ? 'rejected' : 'accepted'),
    errs: (index: number) => index % 10 === 7,
  },
}
type Side = keyof typeof SYSTEMS

/** The judge of one system's answers: it fails `verification` where people rejected the answer, except where it errs. */
const judgeModule = (side: Side) => `export const description = 'index judge r1'
const outcomeOf = ${SYSTEMS[side].outcomeOf.toString()}
const errs = ${SYSTEMS[side].errs.toString()}
export default async function judge({ answer, criterion }) {
  const index = Number(/^Answer (\\d+):/.exec(answer.text)[1])
  if (criterion.id === 'verification' && (outcomeOf(index) === 'rejected') !== errs(index)) return { rating: 'does_not_meet', reason: 'No health check.', span: '' }
  return { rating: 'meets', reason: 'Met.', span: 'check service health' }
}
`

const indexOf = (id: string) => Number(id.slice('case-'.length))
/** The judge's decision and the human one, worked out from the rules above. */
const judgeLabel = (side: Side, index: number) => ((SYSTEMS[side].outcomeOf(index) === 'rejected') !== SYSTEMS[side].errs(index) ? 0 : 1)
const humanLabel = (side: Side, index: number) => ({ accepted: 1 as const, rejected: 0 as const, pending: null })[SYSTEMS[side].outcomeOf(index)]

let template: string

beforeAll(async () => {
  template = await scratchDir('compare-judge-template', 'file')
  for (const side of ['a', 'b'] as const) {
    await generateFixture(join(template, side), N, { fingerprint, outcomeOf: SYSTEMS[side].outcomeOf, splitOf: () => 'held_out' })
    await writeFile(join(template, `judge-${side}.mjs`), judgeModule(side))
    const judged = await bin(template, 'judge', side, '--judge', 'ix', '--run', `judge-${side}.mjs`)
    expect(judged.code, judged.stderr).toBe(0)
  }
}, 120_000)

async function project(): Promise<string> {
  const root = await scratchDir('compare-judge')
  await cp(template, root, { recursive: true })
  return root
}

const readSample = async (root: string, side: Side) => JSON.parse(await readFile(join(root, side, 'sample.json'), 'utf8')) as SampleFile

/** Draws the same sample in both fixtures: the same size and seed over the same cases in the same order. */
async function drawBoth(root: string, size = 120, seed = '7') {
  for (const side of ['a', 'b'] as const) expect((await bin(root, 'sample', side, '--size', String(size), '--seed', seed)).code).toBe(0)
}

describe('vitest-rubric compare --judge', { timeout: 120_000 }, () => {
  test('gives B − A over all 400 paired tasks, as ppiDifference does on the same inputs, with an interval holding the true difference', async () => {
    const root = await project()
    await drawBoth(root)
    const sample = await readSample(root, 'a')
    expect((await readSample(root, 'b')).cases.map((entry) => entry.id)).toEqual(sample.cases.map((entry) => entry.id))

    const json = await bin(root, 'compare', 'a', 'b', '--judge', 'ix', '--json')
    expect(json.code, json.stderr).toBe(0)
    const comparison = JSON.parse(json.stdout)
    expect(comparison.judge_assisted).toMatchObject({
      judge: 'ix',
      judge_files: { a: 'a/judges/ix.json', b: 'b/judges/ix.json' },
      samples: { a: 'a/sample.json', b: 'b/sample.json' },
    })
    // Only the held-out split has paired tasks.
    expect(comparison.judge_assisted.splits.map((section: { split: string }) => section.split)).toEqual(['held_out'])
    const held = comparison.judge_assisted.splits[0]

    // The inputs, worked out from the generator and the judges' rules rather than read back.
    const tasks = Array.from({ length: N }, (_, index) => index)
    const sampled = sample.cases.map((entry) => indexOf(entry.id)).sort((x, y) => x - y)
    const direct = ppiDifference({
      judge: { a: tasks.map((index) => judgeLabel('a', index)), b: tasks.map((index) => judgeLabel('b', index)) },
      sample: sampled.map((index) => ({ index, probability: 120 / N, a: humanLabel('a', index), b: humanLabel('b', index) })),
    })
    expect(direct.status).toBe('estimate')
    expect(held.result).toEqual(direct)
    const result = held.result as PpiDifferenceEstimate
    const decided = tasks.filter((index) => humanLabel('b', index) !== null)
    const truth = decided.reduce((sum, index) => sum + humanLabel('b', index)! - humanLabel('a', index)!, 0) / decided.length
    expect(result.low).toBeLessThanOrEqual(truth)
    expect(result.high).toBeGreaterThanOrEqual(truth)
    const pendingIds = sampled.filter((index) => humanLabel('b', index) === null).map((index) => `case-${String(index).padStart(6, '0')}`)
    expect(pendingIds.length).toBeGreaterThan(0)
    expect(held.pending.map((pair: { id: string }) => pair.id)).toEqual(pendingIds)
    expect(held.outside_reviews).toBe(decided.length - (sampled.length - pendingIds.length))

    const text = await bin(root, 'compare', 'a', 'b', '--judge', 'ix')
    expect(text.code).toBe(0)
    const pts = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(100 * value).toFixed(1)}`
    expect(text.stdout).toContain(
      `  judge-assisted sample: ${sampled.length} of 400 tasks drawn in both samples (${result.decided} decided in both, ${result.pending} pending)`,
    )
    expect(text.stdout).toContain(
      `  judge-assisted: B − A = ${pts(result.estimate)} points, 95% interval [${pts(result.low)}, ${pts(result.high)}] (judge-assisted, PPI++, judge ix), λ = ${result.lambda.toFixed(3)}`,
    )
    expect(text.stdout).toContain(`  human-only, same sample: B − A = ${pts(result.classical.estimate)} points`)
    expect(text.stdout).toContain(`B − A = ${pts(result.judgeOnly.difference)} points: biased by the judge's errors, not an estimate`)
    expect(text.stdout).toContain(`  worst case over the ${result.pending} pending pairs: [${pts(result.worstCase!.low)}, ${pts(result.worstCase!.high)}]`)
    expect(text.stdout).toContain(`  pending sampled tasks: ${pendingIds[0]} (A accepted, B pending)`)
    // Without --judge, the comparison is the decided pairs' alone.
    const plain = JSON.parse((await bin(root, 'compare', 'a', 'b', '--json')).stdout)
    expect(plain.judge_assisted).toBeUndefined()
    expect(plain.splits).toEqual(comparison.splits)
  })

  test('refuses an estimate from two samples that are not one draw, and from stale judge labels, saying why; a fixture without a sample is an error', async () => {
    const root = await project()
    expect((await bin(root, 'sample', 'a', '--size', '120', '--seed', '7')).code).toBe(0)
    const missing = await bin(root, 'compare', 'a', 'b', '--judge', 'ix')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('b/sample.json: the fixture has no sample')

    expect((await bin(root, 'sample', 'b', '--size', '120', '--seed', '8')).code).toBe(0)
    const differ = JSON.parse((await bin(root, 'compare', 'a', 'b', '--judge', 'ix', '--json')).stdout).judge_assisted.splits[0]
    const inA = new Set((await readSample(root, 'a')).cases.map((entry) => entry.id))
    const inB = new Set((await readSample(root, 'b')).cases.map((entry) => entry.id))
    expect(differ.samples_differ.a_only).toEqual([...inA].filter((id) => !inB.has(id)).sort())
    expect(differ.result).toMatchObject({ status: 'unsupported', reason: 'samples-differ' })
    const text = await bin(root, 'compare', 'a', 'b', '--judge', 'ix')
    expect(text.code).toBe(0)
    expect(text.stdout).toContain(
      `  judge-assisted: no estimate (samples-differ): a/sample.json and b/sample.json are not one draw of the paired tasks: ${differ.samples_differ.a_only.length} drawn in A's sample only`,
    )

    expect((await bin(root, 'sample', 'b', '--size', '120', '--seed', '7', '--new')).code).toBe(0)
    // An answer of B edited after the judge labelled it: its label is stale.
    const casesPath = join(root, 'b/cases.json')
    const cases = JSON.parse(await readFile(casesPath, 'utf8')) as CasesJson
    cases.cases[5]!.input.answer.text += ' Edited.'
    await writeFile(casesPath, JSON.stringify(cases))
    const stale = JSON.parse((await bin(root, 'compare', 'a', 'b', '--judge', 'ix', '--json')).stdout).judge_assisted.splits[0]
    expect(stale.judge_gaps.b).toEqual({ missing: 0, stale: 1, undecided: 0 })
    expect(stale.result).toMatchObject({
      status: 'unsupported',
      reason: 'judge-stale',
      message:
        "the judge's labels of 1 in B of the 400 tasks are stale (the answer, the source or the rubric changed since it labelled them) or refused: run the judge on them again",
    })
    await rm(join(root, 'b/judges/ix.json'))
    const unjudged = await bin(root, 'compare', 'a', 'b', '--judge', 'ix')
    expect(unjudged.code).toBe(2)
    expect(unjudged.stderr).toContain('b/judges/ix.json: there are no labels by the judge "ix"')
  })

  test('names a fixture whose cases changed since its sample was drawn', async () => {
    const root = await project()
    await drawBoth(root)
    // Withdraw B's last case, its review and its judge labels.
    const casesPath = join(root, 'b/cases.json')
    const cases = JSON.parse(await readFile(casesPath, 'utf8')) as CasesJson
    const gone = cases.cases.pop()!
    await writeFile(casesPath, JSON.stringify(cases))
    for (const file of ['b/annotations.json', 'b/judges/ix.json']) {
      const reviews = JSON.parse(await readFile(join(root, file), 'utf8')) as AnnotationsJson
      reviews.reviews = reviews.reviews.filter((review) => review.answer_id !== gone.id)
      await writeFile(join(root, file), JSON.stringify(reviews))
    }
    const comparison = JSON.parse((await bin(root, 'compare', 'a', 'b', '--judge', 'ix', '--json')).stdout)
    expect(comparison.judge_assisted.population_changed).toEqual({ a: null, b: { atDraw: 400, now: 399 } })
    expect(comparison.judge_assisted.splits[0].tasks).toBe(399)
    const text = await bin(root, 'compare', 'a', 'b', '--judge', 'ix')
    expect(text.stdout).toContain(
      'judge-assisted: the cases of B changed since the last draw of b/sample.json (400 then, 399 now): the inclusion probabilities describe the cases as they were',
    )
  })

  test('the compare gate with a judge reads the PPI++ bound: failed below −margin, todo when only the decided pairs clear it, passed at the worst case too', async () => {
    const root = await project()
    await drawBoth(root)
    const gate = (margin: number) =>
      compareGate(join(root, 'b'), { against: join(root, 'a'), split: 'held_out', margin, judge: 'ix' }, { cwd: root, named: true })
    const probe = (await gate(1))!
    expect(probe.name).toBe('b is not worse than a by more than 100 points on held-out cases, judge-assisted by ix')
    const { result } = probe.judge_assisted!.split
    if (result.status !== 'estimate') throw new Error(result.message)
    const worstLow = result.worstCase!.low
    expect(worstLow).toBeLessThan(result.low)
    expect(probe.status).toBe('passed')

    const failed = (await gate(-result.low - 0.001))!
    expect(failed.status).toBe('failed')
    expect(failed.message.split('\n')[0]).toMatch(/\(judge-assisted, PPI\+\+, judge ix\): the lower bound .* is below .* so B may be more than/)
    // A threshold between the worst case's bound and the decided pairs' bound.
    const todo = (await gate(-(result.low + worstLow) / 2))!
    expect(todo.status).toBe('todo')
    expect(todo.message).toContain('on the decided pairs, but not regardless of the')
    const passed = (await gate(-worstLow))!
    expect(passed).toMatchObject({ status: 'passed', holds_regardless: true })
    expect(passed.message).toContain('it holds regardless of the')
    // The reporter's comparison block shows the judge-assisted figures the check read, and the check's line.
    const block = comparisonLines(passed, PLAIN)
    for (const line of judgeAssistedLines(passed.judge_assisted!.split, 'ix')) expect(block).toContain(`${' '.repeat(24)}${line}`)
    expect(block.at(-1)).toBe(`    ✓ ${passed.name}: ${passed.message}`)
  })
})
