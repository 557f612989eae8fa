import { runBuiltCli } from '../helpers/cli.js'
import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import type { SampleFile } from '../../src/core/sample/sample-file.js'
import { ppiMean } from '../../src/core/stats/ppi.js'
import { situatedRefusal } from '../../src/core/sample/refusal-text.js'
import { generateFixture } from '../bench/generate.mjs'
import type { AnnotationsJson, CasesJson } from '../helpers/fixture-copy.js'
import { removeFileScratch, scratchDir } from '../helpers/scratch.js'

afterAll(removeFileScratch)

/** The built command line, in a process of its own. */
const bin = runBuiltCli

/** The human outcome of each generated case: a quarter rejected, one in twenty pending (each of those with an uncertain review). */
const outcomeOf = (index: number) => (index % 20 === 6 ? 'pending' : index % 4 === 1 ? 'rejected' : 'accepted')
/** 360 development cases, 40 held out. */
const splitOf = (index: number) => (index < 360 ? undefined : 'held_out')
/** The judge's error: it reverses the human decision of one case in ten. */
const judgeErrs = (index: number) => index % 10 === 3
const N = 400

/** A deterministic judge: it fails `verification` where the human rejected the case, except where it errs. */
const JUDGE = `export const description = 'index judge r1'
export default async function judge({ answer, criterion }) {
  const index = Number(/^Answer (\\d+):/.exec(answer.text)[1])
  const rejected = index % 20 !== 6 && index % 4 === 1
  const errs = index % 10 === 3
  if (criterion.id === 'verification' && rejected !== errs) return { rating: 'does_not_meet', reason: 'No health check.', span: '' }
  return { rating: 'meets', reason: 'Met.', span: 'check service health' }
}
`

const indexOf = (id: string) => Number(id.slice('case-'.length))
/** The judge's decision of a case, worked out from its rule: rejected where it fails verification. */
const judgeLabel = (index: number) => ((outcomeOf(index) === 'rejected') !== judgeErrs(index) ? 0 : 1)
const humanLabel = (index: number) => ({ accepted: 1 as const, rejected: 0 as const, pending: null })[outcomeOf(index)]

let template: string

beforeAll(async () => {
  template = await scratchDir('sample-template', 'file')
  await generateFixture(join(template, 'lab'), N, { fingerprint, outcomeOf, splitOf })
  await writeFile(join(template, 'judge.mjs'), JUDGE)
  const judged = await bin(template, 'judge', 'lab', '--judge', 'ix', '--run', 'judge.mjs')
  expect(judged.code).toBe(0)
}, 120_000)

/** A copy of the generated, judged project. */
async function project(): Promise<string> {
  const root = await scratchDir('sample')
  await cp(template, root, { recursive: true })
  return root
}

const readSample = async (root: string) => JSON.parse(await readFile(join(root, 'lab/sample.json'), 'utf8')) as SampleFile

describe('vitest-rubric sample and estimate', { timeout: 120_000 }, () => {
  test('estimates the development rate over all 360 cases with an interval holding the true rate, as ppiMean does on the same inputs', async () => {
    const root = await project()
    const drawn = await bin(root, 'sample', 'lab', '--size', '60', '--seed', '7')
    expect(drawn.code).toBe(0)
    expect(drawn.stdout).toMatch(/^lab: drew 60 cases of 400, uniform \(simple random sample without replacement\), seed "7"\n/)
    expect(drawn.stdout).toContain('wrote lab/sample.json')
    const sample = await readSample(root)
    expect(sample).toMatchObject({ format: 'vitest-rubric/sample', version: 1 })
    expect(sample.cases).toHaveLength(60)
    expect(sample.cases.every((entry) => entry.probability === 60 / N)).toBe(true)

    const json = await bin(root, 'estimate', 'lab', '--judge', 'ix', '--json')
    expect(json.code).toBe(0)
    const report = JSON.parse(json.stdout)
    expect(Object.keys(report)).toEqual(['dir', 'name', 'judge', 'judgeFile', 'sample', 'splits', 'changedAnswers', 'missingCases', 'populationChanged'])
    expect(report.splits.map((item: { split: string }) => item.split)).toEqual(['development', 'held_out'])
    const development = report.splits[0]

    // The inputs, worked out from the generator and the judge's rule rather than read back.
    const devIndices = Array.from({ length: 360 }, (_, index) => index)
    // In the order of the cases, as the command passes them: the sums are then made in the same order.
    const sampled = sample.cases.filter((entry) => entry.split === 'development').sort((a, b) => indexOf(a.id) - indexOf(b.id))
    // Given how many of the uniform draw fell in the split, they are a simple random sample of it:
    // each weighed by n_h/N_h, the variance's finite-population factor 1 − n_h/N_h, not the draw's 1 − 60/400.
    expect(sampled.length).not.toBe(54)
    const direct = ppiMean({
      judge: devIndices.map(judgeLabel),
      sample: sampled.map((entry) => ({ index: indexOf(entry.id), probability: sampled.length / 360, human: humanLabel(indexOf(entry.id)) })),
    })
    expect(development.result).toEqual(direct)
    expect(direct.status).toBe('estimate')

    const decided = devIndices.filter((index) => humanLabel(index) !== null)
    const truth = decided.filter((index) => humanLabel(index) === 1).length / decided.length
    expect(development.result.low).toBeLessThanOrEqual(truth)
    expect(development.result.high).toBeGreaterThanOrEqual(truth)

    const pendingIds = sampled.filter((entry) => humanLabel(indexOf(entry.id)) === null).map((entry) => entry.id)
    expect(pendingIds.length).toBeGreaterThan(0)
    expect(development.pending.map((entry: { id: string }) => entry.id)).toEqual(pendingIds)
    const sampledIds = new Set(sampled.map((entry) => entry.id))
    expect(development.outsideReviews).toBe(decided.filter((index) => !sampledIds.has(`case-${String(index).padStart(6, '0')}`)).length)

    const text = await bin(root, 'estimate', 'lab', '--judge', 'ix')
    expect(text.code).toBe(0)
    const r = development.result
    const f = (value: number) => value.toFixed(3)
    expect(text.stdout).toContain(`judge-assisted (PPI++)     ${f(r.estimate)} [${f(r.low)}, ${f(r.high)}]  95% interval`)
    expect(text.stdout).toContain(`human-only, same sample    ${f(r.classical.estimate)} [${f(r.classical.low)}, ${f(r.classical.high)}]`)
    expect(text.stdout).toContain(`judge-only                 ${f(r.judgeOnly.rate)}  biased by the judge's errors: not an estimate`)
    expect(text.stdout).toContain(`effective reviews          ${r.effectiveReviews.toFixed(1)} (from ${r.decided} decided)`)
    expect(text.stdout).toContain(`worst case over the ${pendingIds.length} pending sampled case`)
    expect(text.stdout).toContain(`pending sampled cases: ${pendingIds.join(', ')}`)
    expect(text.stdout).toContain(`left out: ${development.outsideReviews} reviewed cases outside the sample (not drawn at random`)
    // The held-out split has too few sampled cases: ppiMean's refusal, not a number.
    const held = report.splits[1]
    expect(held.result.status).toBe('unsupported')
    expect(text.stdout).toContain(`  held_out: 40 cases, ${held.sampled} sampled`)
    expect(text.stdout).toContain(`    no estimate: ${held.result.message}`)

    const only = JSON.parse((await bin(root, 'estimate', 'lab', '--judge', 'ix', '--split', 'development', '--json')).stdout)
    expect(only.splits).toEqual([development])
  })

  test('a stratified sample gives each split its share, and the estimate computes within the strata', async () => {
    const root = await project()
    const drawn = await bin(root, 'sample', 'lab', '--size', '100', '--seed', 'strata', '--by', 'split')
    expect(drawn.stdout).toContain('development: 90 drawn now, 90 in the sample of 360 cases (inclusion probability 0.2500)')
    expect(drawn.stdout).toContain('held_out: 10 drawn now, 10 in the sample of 40 cases (inclusion probability 0.2500)')
    const sample = await readSample(root)
    const report = JSON.parse((await bin(root, 'estimate', 'lab', '--judge', 'ix', '--json')).stdout)
    for (const [position, split] of (['development', 'held_out'] as const).entries()) {
      const indices = Array.from({ length: N }, (_, index) => index).filter((index) => (splitOf(index) ?? 'development') === split)
      const first = indices[0]!
      const sampled = sample.cases.filter((entry) => entry.split === split).sort((a, b) => indexOf(a.id) - indexOf(b.id))
      // The estimate tells a refusal as the sample stands (every sampled case decided: draw more), as situatedRefusal does.
      const direct = situatedRefusal(
        ppiMean({
          judge: indices.map(judgeLabel),
          sample: sampled.map((entry) => ({
            index: indexOf(entry.id) - first,
            probability: entry.probability,
            human: humanLabel(indexOf(entry.id)),
            stratum: split,
          })),
        }),
        sampled.map((entry) => humanLabel(indexOf(entry.id))),
      )
      expect(report.splits[position].result).toEqual(direct)
    }
    expect(report.splits[0].result.status).toBe('estimate')
  })

  test('a second draw extends the sample; a changed case set is refused until --new; --dry-run writes nothing', async () => {
    const root = await project()
    await bin(root, 'sample', 'lab', '--size', '60', '--seed', '7')
    const first = await readSample(root)
    const dry = await bin(root, 'sample', 'lab', '--size', '40', '--seed', '8', '--dry-run')
    expect(dry.stdout).toContain('lab: would extend the sample by 40 cases of 400')
    expect(await readSample(root)).toEqual(first)
    expect((await bin(root, 'sample', 'lab', '--size', '40', '--seed', '8')).code).toBe(0)
    const extended = await readSample(root)
    expect(extended.cases.slice(0, 60).map((entry) => entry.id)).toEqual(first.cases.map((entry) => entry.id))
    expect(extended.cases.every((entry) => entry.probability === 100 / N)).toBe(true)

    // Withdraw the last case, its review and its judge labels.
    const casesPath = join(root, 'lab/cases.json')
    const cases = JSON.parse(await readFile(casesPath, 'utf8')) as CasesJson
    const gone = cases.cases.pop()!
    await writeFile(casesPath, JSON.stringify(cases))
    for (const file of ['lab/annotations.json', 'lab/judges/ix.json']) {
      const reviews = JSON.parse(await readFile(join(root, file), 'utf8')) as AnnotationsJson
      reviews.reviews = reviews.reviews.filter((review) => review.answer_id !== gone.id)
      await writeFile(join(root, file), JSON.stringify(reviews))
    }
    const refused = await bin(root, 'sample', 'lab', '--size', '10', '--seed', '9')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(
      'lab/sample.json › draws[1] › population_sha256: the cases changed since the sample was drawn: 400 cases (development 360, held_out 40) then, 399 cases (development 360, held_out 39) now, 1 case fewer',
    )
    expect(refused.stderr).toContain('--new')
    expect(await readSample(root)).toEqual(extended)
    // The estimate still reads the sample, and says that its probabilities describe the cases as they were.
    const stale = await bin(root, 'estimate', 'lab', '--judge', 'ix')
    expect(stale.stdout).toContain('the cases changed since the last draw (400 then, 399 now): the inclusion probabilities describe the cases as they were')
    const staleJson = JSON.parse((await bin(root, 'estimate', 'lab', '--judge', 'ix', '--json')).stdout)
    expect(staleJson.populationChanged).toEqual({ atDraw: 400, now: 399 })
    expect(staleJson.missingCases).toEqual(extended.cases.some((entry) => entry.id === gone.id) ? [gone.id] : [])
    expect((await bin(root, 'sample', 'lab', '--size', '10', '--seed', '9', '--new')).code).toBe(0)
    const fresh = await readSample(root)
    expect(fresh.draws).toHaveLength(1)
    expect(fresh.cases.every((entry) => entry.probability === 10 / 399)).toBe(true)

    // A case added since, which the judge has not labelled, is named by its id, not by its position among the split's cases.
    expect((await bin(root, 'add', 'lab', '--id', 'added-later', '--answer', 'Roll back with docuctl.', '--citation', 'the guide')).code).toBe(0)
    const unlabelled = JSON.parse((await bin(root, 'estimate', 'lab', '--judge', 'ix', '--json')).stdout)
    const development = unlabelled.splits.find((each: { split: string }) => each.split === 'development')
    expect(development.result.message).toContain('(the first is "added-later")')
  })

  test('names a sampled case whose answer was edited after the draw, and shows it pending until it is reviewed again', async () => {
    const root = await project()
    await bin(root, 'sample', 'lab', '--size', '60', '--seed', '7')
    const edited = (await readSample(root)).cases.find((entry) => entry.split === 'development' && humanLabel(indexOf(entry.id)) !== null)!
    const casesPath = join(root, 'lab/cases.json')
    const cases = JSON.parse(await readFile(casesPath, 'utf8')) as CasesJson
    cases.cases.find((entry) => entry.id === edited.id)!.input.answer.text += ' Edited.'
    await writeFile(casesPath, JSON.stringify(cases))
    // The judge labels the new answer; the review still describes the old one.
    expect((await bin(root, 'judge', 'lab', '--judge', 'ix', '--run', 'judge.mjs')).code).toBe(0)
    const text = await bin(root, 'estimate', 'lab', '--judge', 'ix')
    expect(text.code).toBe(0)
    expect(text.stdout).toContain(`answers changed since the draw: ${edited.id} (development)`)
    expect(text.stdout).toMatch(new RegExp(`pending sampled cases: .*${edited.id} \\(refused: [^)]*answer`))
    const report = JSON.parse((await bin(root, 'estimate', 'lab', '--judge', 'ix', '--json')).stdout)
    expect(report.changedAnswers).toEqual([{ id: edited.id, split: 'development' }])
  })

  test('refuses a sample.json that does not have the format, naming the file and the JSON path, and a fixture without one', async () => {
    const root = await project()
    const missing = await bin(root, 'estimate', 'lab', '--judge', 'ix')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('lab/sample.json: the fixture has no sample')
    expect(missing.stderr).toContain('vitest-rubric sample lab --size <n> --seed <s>')
    await bin(root, 'sample', 'lab', '--size', '60', '--seed', '7')
    const sample = await readSample(root)
    await writeFile(join(root, 'lab/sample.json'), JSON.stringify({ ...sample, cases: [{ ...sample.cases[0]!, probability: 1.5 }, ...sample.cases.slice(1)] }))
    const bad = await bin(root, 'estimate', 'lab', '--judge', 'ix')
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/^lab\/sample\.json › cases\[0\] › probability: .*\n {2}expected: an inclusion probability in \(0, 1\]\n {2}found: {4}1\.5\n/)
    expect(bad.stderr).toContain('fix:      restore sample.json from version control')
    await writeFile(join(root, 'lab/sample.json'), '{"format": ')
    expect((await bin(root, 'estimate', 'lab', '--judge', 'ix')).stderr).toMatch(/^lab\/sample\.json/)
  })

  test('keeps sample.json a plain file of the fixture in the records layout, and estimates alike', async () => {
    const root = await project()
    await bin(root, 'sample', 'lab', '--size', '60', '--seed', '7')
    const seedLayout = JSON.parse((await bin(root, 'estimate', 'lab', '--judge', 'ix', '--json')).stdout)
    await rm(join(root, 'lab/sample.json'))
    expect((await bin(root, 'convert', 'lab', '--to', 'records')).code).toBe(0)
    expect((await bin(root, 'sample', 'lab', '--size', '60', '--seed', '7')).code).toBe(0)
    const records = JSON.parse((await bin(root, 'estimate', 'lab', '--judge', 'ix', '--json')).stdout)
    expect(records.splits).toEqual(seedLayout.splits)
    expect(records.sample.file).toBe('lab/sample.json')
  })
})
