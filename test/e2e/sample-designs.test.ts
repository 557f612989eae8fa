import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import { ACTIVE_FLOOR } from '../../src/core/sample/draw-judge.js'
import type { SampleFile } from '../../src/core/sample/sample-file.js'
import { ppiMean } from '../../src/core/stats/ppi.js'
import { generateFixture } from '../bench/generate.mjs'
import { runBuiltCli as bin } from '../helpers/cli.js'
import type { CasesJson } from '../helpers/fixture-copy.js'
import { removeFileScratch, scratchDir } from '../helpers/scratch.js'

afterAll(removeFileScratch)

/** A quarter of the cases rejected by people; every case reviewed. */
const outcomeOf = (index: number) => (index % 4 === 1 ? 'rejected' : 'accepted')
/** 360 development cases, 40 held out. */
const splitOf = (index: number) => (index < 360 ? undefined : 'held_out')
/** The judge reverses the human decision of one case in ten, and is unsure of it there. */
const judgeErrs = (index: number) => index % 10 === 3
const N = 400

/** The judge fails `verification` where people rejected the case (except where it errs), with a confidence of 0.55 where it errs and 0.9 elsewhere; 0.99 on the other criteria. */
const JUDGE = `export default async function judge({ answer, criterion }) {
  const index = Number(/^Answer (\\d+):/.exec(answer.text)[1])
  const rejected = index % 4 === 1
  const errs = index % 10 === 3
  const confidence = criterion.id === 'verification' ? (errs ? 0.55 : 0.9) : 0.99
  if (criterion.id === 'verification' && rejected !== errs) return { rating: 'does_not_meet', reason: 'No health check.', span: '', confidence }
  return { rating: 'meets', reason: 'Met.', span: 'check service health', confidence }
}
`
/** The same judge without confidences. */
const PLAIN = `import judge from './judge.mjs'
export default async (input) => { const { confidence, ...verdict } = await judge(input); return verdict }
`

const indexOf = (id: string) => Number(id.slice('case-'.length))
const judgeLabel = (index: number) => ((outcomeOf(index) === 'rejected') !== judgeErrs(index) ? 0 : 1)
const humanLabel = (index: number) => (outcomeOf(index) === 'rejected' ? 0 : 1)
/** The judge's uncertainty of a case: 1 minus its least confidence. */
const uncertaintyOf = (index: number) => 1 - (judgeErrs(index) ? 0.55 : 0.9)

let template: string

beforeAll(async () => {
  template = await scratchDir('designs-template', 'file')
  await generateFixture(join(template, 'lab'), N, { fingerprint, outcomeOf, splitOf })
  await writeFile(join(template, 'judge.mjs'), JUDGE)
  await writeFile(join(template, 'plain.mjs'), PLAIN)
  expect((await bin(template, 'judge', 'lab', '--judge', 'ix', '--run', 'judge.mjs')).code).toBe(0)
  expect((await bin(template, 'judge', 'lab', '--judge', 'plain', '--run', 'plain.mjs')).code).toBe(0)
}, 180_000)

async function project(): Promise<string> {
  const root = await scratchDir('designs')
  await cp(template, root, { recursive: true })
  return root
}

const readSample = async (root: string, dir = 'lab') => JSON.parse(await readFile(join(root, dir, 'sample.json'), 'utf8')) as SampleFile

describe('vitest-rubric sample: designs drawn by the judge', { timeout: 120_000 }, () => {
  test('--by decision: the development estimate is the stratified mean Σ (N_h/N)·ȳ_h with variance Σ (N_h/N)²(1 − n_h/N_h)s²_h/n_h, computed by hand', async () => {
    const root = await project()
    const drawn = await bin(root, 'sample', 'lab', '--by', 'decision', '--judge', 'ix', '--size', '120', '--seed', '3')
    expect(drawn.code).toBe(0)
    expect(drawn.stdout).toMatch(
      /^lab: drew 120 cases of 400, stratified by the judge's decision within each split of judge ix \(proportional allocation\), seed "3"\n/,
    )
    const sample = await readSample(root)
    expect(sample.draws[0]).toMatchObject({ method: 'stratified', strata: 'decision', judge: 'ix' })
    const report = JSON.parse((await bin(root, 'estimate', 'lab', '--judge', 'ix', '--split', 'development', '--json')).stdout)
    const { result } = report.splits[0]
    expect(result.status).toBe('estimate')
    // The judge is constant within each stratum: λ is 0, and the estimate is the stratified human mean.
    expect(result.lambda).toBe(0)
    const development = Array.from({ length: 360 }, (_, index) => index)
    let estimate = 0
    let variance = 0
    for (const decision of [1, 0]) {
      const stratum = `development/${decision === 1 ? 'accepted' : 'rejected'}`
      const size = development.filter((index) => judgeLabel(index) === decision).length
      const ys = sample.cases.filter((entry) => entry.stratum === stratum).map((entry): number => humanLabel(indexOf(entry.id)))
      const n = ys.length
      expect(sample.cases.filter((entry) => entry.stratum === stratum).every((entry) => entry.probability === n / size)).toBe(true)
      const mean = ys.reduce((sum, y) => sum + y, 0) / n
      const s2 = ys.reduce((sum, y) => sum + (y - mean) ** 2, 0) / (n - 1)
      estimate += (size / 360) * mean
      variance += (size / 360) ** 2 * (1 - n / size) * (s2 / n)
    }
    expect(result.estimate).toBeCloseTo(estimate, 12)
    expect(result.se).toBeCloseTo(Math.sqrt(variance), 12)
  })

  test('--method active: each case drawn with π = min(1, s·(τ/N + (1 − τ)·u/Σu)); the estimate is ppiMean over those probabilities', async () => {
    const root = await project()
    const drawn = await bin(root, 'sample', 'lab', '--method', 'active', '--judge', 'ix', '--size', '80', '--seed', '5')
    expect(drawn.code).toBe(0)
    expect(drawn.stdout).toContain(`active by judge ix's uncertainty (Poisson, expected size 80, floor ${ACTIVE_FLOOR})`)
    const sample = await readSample(root)
    const all = Array.from({ length: N }, (_, index) => index)
    const total = all.reduce((sum, index) => sum + uncertaintyOf(index), 0)
    // No probability reaches 1 here, so s = n.
    const piOf = (index: number) => 80 * (ACTIVE_FLOOR / N + ((1 - ACTIVE_FLOOR) * uncertaintyOf(index)) / total)
    for (const entry of sample.cases) {
      const index = indexOf(entry.id)
      expect(entry.probability).toBeCloseTo(piOf(index), 12)
      expect(entry.stratum).toBeNull()
      expect(entry.least_sure).toEqual({ criterion: 'verification', confidence: judgeErrs(index) ? 0.55 : 0.9 })
    }
    // The cases the judge errs on are drawn about 3.6 times as often as the others.
    expect(sample.cases.filter((entry) => judgeErrs(indexOf(entry.id))).length).toBeGreaterThan(sample.cases.length / 4)
    const report = JSON.parse((await bin(root, 'estimate', 'lab', '--judge', 'ix', '--split', 'development', '--json')).stdout)
    const sampled = sample.cases.filter((entry) => entry.split === 'development').sort((a, b) => indexOf(a.id) - indexOf(b.id))
    const direct = ppiMean({
      judge: all.slice(0, 360).map(judgeLabel),
      sample: sampled.map((entry) => ({ index: indexOf(entry.id), probability: piOf(indexOf(entry.id)), human: humanLabel(indexOf(entry.id)) })),
    })
    expect(direct.status).toBe('estimate')
    expect(report.splits[0].result.estimate).toBeCloseTo((direct as { estimate: number }).estimate, 12)
    expect(report.splits[0].result.se).toBeCloseTo((direct as { se: number }).se, 12)
  })

  test('--method active, extended: every first case stays, each case gets 1 − (1 − π1)(1 − π2), and the estimate is ppiMean over those probabilities', async () => {
    const root = await project()
    expect((await bin(root, 'sample', 'lab', '--method', 'active', '--judge', 'ix', '--size', '80', '--seed', '5')).code).toBe(0)
    const first = await readSample(root)
    const extended = await bin(root, 'sample', 'lab', '--method', 'active', '--judge', 'ix', '--size', '40', '--seed', '6')
    expect(extended.code).toBe(0)
    expect(extended.stdout).toContain(`active by judge ix's uncertainty (Poisson, expected size 40, floor ${ACTIVE_FLOOR})`)
    const sample = await readSample(root)
    expect(sample.draws).toHaveLength(2)
    expect(sample.cases.slice(0, first.cases.length).map(({ id, draw }) => ({ id, draw }))).toEqual(first.cases.map(({ id, draw }) => ({ id, draw })))
    expect(sample.cases.slice(first.cases.length).every((entry) => entry.draw === 1)).toBe(true)
    // By hand: the same labels, so the same shares; s₂ so that Σ (1 − π1)·π2 = 40, none reaching 1.
    const all = Array.from({ length: N }, (_, index) => index)
    const total = all.reduce((sum, index) => sum + uncertaintyOf(index), 0)
    const share = (index: number) => ACTIVE_FLOOR / N + ((1 - ACTIVE_FLOOR) * uncertaintyOf(index)) / total
    const pi1 = (index: number) => 80 * share(index)
    const s2 = 40 / all.reduce((sum, index) => sum + (1 - pi1(index)) * share(index), 0)
    const combined = (index: number) => 1 - (1 - pi1(index)) * (1 - s2 * share(index))
    expect(Math.max(...all.map((index) => s2 * share(index)))).toBeLessThan(1)
    for (const entry of sample.cases) expect(entry.probability).toBeCloseTo(combined(indexOf(entry.id)), 12)
    // Ids case-000000 … case-000399: their code-point order is the index order.
    expect(sample.draws[1]!.inclusion_probabilities).toEqual(all.map((index) => expect.closeTo(combined(index), 12)))

    const report = JSON.parse((await bin(root, 'estimate', 'lab', '--judge', 'ix', '--split', 'development', '--json')).stdout)
    expect(report.splits[0].result.status).toBe('estimate')
    const sampled = sample.cases.filter((entry) => entry.split === 'development').sort((a, b) => indexOf(a.id) - indexOf(b.id))
    const direct = ppiMean({
      judge: all.slice(0, 360).map(judgeLabel),
      sample: sampled.map((entry) => ({ index: indexOf(entry.id), probability: entry.probability, human: humanLabel(indexOf(entry.id)) })),
    })
    expect(report.splits[0].result.estimate).toBeCloseTo((direct as { estimate: number }).estimate, 12)
    expect(report.splits[0].result.se).toBeCloseTo((direct as { se: number }).se, 12)

    // A sample that does not record every case's probability cannot be checked: refused by the estimate and by an extension, and --new draws again.
    const old = { ...sample, draws: sample.draws.map(({ inclusion_probabilities: _, ...draw }) => draw) }
    await writeFile(join(root, 'lab/sample.json'), `${JSON.stringify(old, null, 2)}\n`)
    for (const command of [
      ['estimate', 'lab', '--judge', 'ix'],
      ['sample', 'lab', '--method', 'active', '--judge', 'ix', '--size', '40', '--seed', '7'],
    ]) {
      const refused = await bin(root, ...command)
      expect(refused.code, command.join(' ')).toBe(1)
      expect(refused.stderr).toContain('lab/sample.json › draws[0] › inclusion_probabilities: the draw is active and records no inclusion_probabilities')
      expect(refused.stderr).toContain('--new')
    }
    expect((await bin(root, 'sample', 'lab', '--method', 'active', '--judge', 'ix', '--size', '40', '--seed', '7', '--new')).code).toBe(0)
  })

  test('--method active and --by criterion refuse a judge without confidences (SAMPLE_NO_CONFIDENCE), and write nothing', async () => {
    const root = await project()
    for (const design of [
      ['--method', 'active'],
      ['--by', 'criterion'],
    ]) {
      const refused = await bin(root, 'sample', 'lab', ...design, '--judge', 'plain', '--size', '80', '--seed', '5')
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain('no current label of the judge "plain" gives one')
    }
    await expect(readFile(join(root, 'lab/sample.json'))).rejects.toThrow(/ENOENT/)
  })

  test('--by criterion: each case in the stratum of the criterion the judge is least sure of, within its split', async () => {
    const root = await project()
    expect((await bin(root, 'sample', 'lab', '--by', 'criterion', '--judge', 'ix', '--size', '40', '--seed', '5')).code).toBe(0)
    const sample = await readSample(root)
    expect(new Set(sample.cases.map((entry) => entry.stratum))).toEqual(new Set(['development/verification', 'held_out/verification']))
  })

  test('--by criterion: a criterion the judge doubts in one case only is merged into its split’s largest stratum, and the estimate gives a number', async () => {
    const root = await project()
    // Judge odd is ix, but unsure (0.5) of every criterion other than verification in case 7 alone.
    await writeFile(
      join(root, 'odd.mjs'),
      `import judge from './judge.mjs'
export default async (input) => {
  const verdict = await judge(input)
  return /^Answer 7:/.test(input.answer.text) && input.criterion.id !== 'verification' ? { ...verdict, confidence: 0.5 } : verdict
}
`,
    )
    expect((await bin(root, 'judge', 'lab', '--judge', 'odd', '--run', 'odd.mjs')).code).toBe(0)
    const rubric = JSON.parse(await readFile(join(root, 'lab', 'rubric.json'), 'utf8')) as { criteria: { id: string }[] }
    const doubted = rubric.criteria.find((criterion) => criterion.id !== 'verification')!.id
    const drawn = await bin(root, 'sample', 'lab', '--by', 'criterion', '--judge', 'odd', '--size', '40', '--seed', '5')
    expect(drawn.code).toBe(0)
    expect(drawn.stdout).toContain(`stratum development/${doubted} has fewer than 2 cases: merged into development/verification`)
    const sample = await readSample(root)
    expect(sample.draws[0]!.merged_strata).toEqual({ [`development/${doubted}`]: 'development/verification' })
    expect(new Set(sample.cases.map((entry) => entry.stratum))).toEqual(new Set(['development/verification', 'held_out/verification']))
    const report = JSON.parse((await bin(root, 'estimate', 'lab', '--judge', 'odd', '--split', 'development', '--json')).stdout)
    expect(report.splits[0].result.status).toBe('estimate')
    expect(report.splits[0].result.low).toBeLessThanOrEqual(report.splits[0].result.estimate)
  })

  test('--like: B copies A’s design over the same tasks, compare --judge pairs them, and names B’s answers changed since', async () => {
    const root = await project()
    await cp(join(root, 'lab'), join(root, 'lab-b'), { recursive: true })
    expect((await bin(root, 'sample', 'lab', '--method', 'active', '--judge', 'ix', '--size', '120', '--seed', '9')).code).toBe(0)
    const copied = await bin(root, 'sample', 'lab-b', '--like', 'lab')
    expect(copied.code).toBe(0)
    expect(copied.stdout).toContain(', the design of lab/sample.json')
    const [a, b] = [await readSample(root), await readSample(root, 'lab-b')]
    expect(b.cases.map(({ id, probability, stratum }) => ({ id, probability, stratum }))).toEqual(
      a.cases.map(({ id, probability, stratum }) => ({ id, probability, stratum })),
    )
    expect(b.draws[0]!.like).toEqual({ file: 'lab/sample.json', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) })

    // An answer of B edited after the copy.
    const edited = b.cases[0]!.id
    const casesFile = join(root, 'lab-b/cases.json')
    const cases = JSON.parse(await readFile(casesFile, 'utf8')) as CasesJson
    cases.cases.find((entry) => entry.id === edited)!.input.answer.text += ' Edited.'
    await writeFile(casesFile, `${JSON.stringify(cases, null, 2)}\n`)

    const compared = await bin(root, 'compare', 'lab', 'lab-b', '--judge', 'ix', '--split', 'all', '--json')
    const judged = JSON.parse(compared.stdout).judge_assisted
    for (const split of judged.splits) {
      expect(split.samples_differ).toEqual({ a_only: [], b_only: [], design: [] })
      expect(split.result.reason).not.toBe('samples-differ')
    }
    expect(judged.answers_changed).toEqual({ a: [], b: [edited] })
    const text = await bin(root, 'compare', 'lab', 'lab-b', '--judge', 'ix')
    expect(text.stdout).toContain(`judge-assisted: 1 sampled task has another answer in B than at the draw of lab-b/sample.json (${edited})`)

    // Over other tasks (one moved to another split), the copy is refused.
    cases.cases[0]!.split = 'held_out'
    await writeFile(casesFile, `${JSON.stringify(cases, null, 2)}\n`)
    const refused = await bin(root, 'sample', 'lab-b', '--like', 'lab', '--new')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(
      'lab-b does not hold the tasks lab/sample.json was drawn from: 400 cases there, 400 cases here, not the same ids in the same splits',
    )
  })
})
