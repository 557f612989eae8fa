import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { drawRequest } from '../../helpers/draw-request.js'
import { scratchDir } from '../../helpers/scratch.js'
import { RubricError } from '../../../src/core/common/errors.js'
import type { Split } from '../../../src/core/common/primitives.js'
import { drawSample, type DrawRequest, type Population } from '../../../src/core/sample/draw.js'
import type { JudgeCaseDesign } from '../../../src/core/sample/judge-design.js'
import { checkSample } from '../../../src/core/sample/sample-check.js'
import { readSampleFile, writeSampleFile, type SampleFile, type SampleStrata } from '../../../src/core/sample/sample-file.js'

const FILE = 'lab/sample.json'

/**
 * n cases whose ids are not in the order of cases.json (t0, t7919 mod n, …), one in three held out,
 * the judge unsure of some (entirely of one in eleven, so that a large active draw caps them at 1),
 * pending on one in seven, least sure of `rare` in one development case only (a stratum merged at the draw).
 */
function population(n: number): Population {
  return {
    cases: Array.from({ length: n }, (_, index) => {
      const judge: JudgeCaseDesign = {
        decision: index % 7 === 0 ? 'pending' : index % 4 === 1 ? 'rejected' : 'accepted',
        uncertainty: index % 11 === 0 ? 1 : ((index * 37) % 100) / 400,
        leastSure: { criterion: index === 5 ? 'rare' : index % 13 === 0 ? null : index % 2 === 0 ? 'support' : 'command', confidence: 0.8 },
      }
      return { id: `t${(index * 7919) % n}`, split: (index % 3 === 0 ? 'held_out' : 'development') as Split, answerSha256: null, judge }
    }),
    caseSetSha256: null,
  }
}

/** The designs `sample` draws, as requests: the judge's designs with judge ix. */
const DESIGNS: Record<string, (size: number, seed: string) => DrawRequest> = {
  uniform: (size, seed) => drawRequest(size, seed),
  'by split': (size, seed) => drawRequest(size, seed, { method: 'stratified' }),
  'by decision': (size, seed) => drawRequest(size, seed, { method: 'stratified', strata: 'decision' satisfies SampleStrata, judge: 'ix' }),
  'by criterion': (size, seed) => drawRequest(size, seed, { method: 'stratified', strata: 'criterion', judge: 'ix' }),
  active: (size, seed) => drawRequest(size, seed, { method: 'active', judge: 'ix' }),
}

/** The sample as the file holds it: JSON keeps every double. */
const asRead = (sample: SampleFile): SampleFile => JSON.parse(JSON.stringify(sample)) as SampleFile

function refusal(check: () => unknown): { code: string; message: string } {
  try {
    check()
  } catch (error) {
    if (error instanceof RubricError) return { code: error.code, message: error.message }
    throw error
  }
  throw new Error('the sample was not refused')
}

describe('every sample the sampler writes passes the check', () => {
  test('each design, over seeds and sizes (the whole split, for a uniform draw), extended where the design extends', () => {
    let checked = 0
    for (const n of [23, 120]) {
      const cases = population(n)
      const fixtureCases = cases.cases.map(({ id, split }) => ({ id, split }))
      for (const [design, request] of Object.entries(DESIGNS)) {
        const sizes = design === 'uniform' ? [1, Math.round(n / 3), n] : design === 'by split' ? [2, Math.round(n / 3)] : [12, Math.round(n * 0.9)]
        for (const size of sizes) {
          for (const seed of ['1', '2', 'x']) {
            const first = drawSample(undefined, cases, request(size, seed))
            const drawn = [first.sample]
            if (design === 'uniform' || design === 'by split') {
              const left = n - first.sample.cases.length
              if (left > 0) drawn.push(drawSample(first.sample, cases, request(Math.min(left, 1 + (size % 5)), `${seed}+`)).sample)
            }
            if (design === 'active') {
              const room = Math.floor(first.sample.draws[0]!.inclusion_probabilities!.reduce((sum, p) => sum + (1 - p), 0) + 1e-9)
              if (room >= 1) {
                const second = drawSample(first.sample, cases, request(Math.min(room, 4), `${seed}+`)).sample
                drawn.push(second)
                const more = Math.floor(second.draws[1]!.inclusion_probabilities!.reduce((sum, p) => sum + (1 - p), 0) + 1e-9)
                if (more >= 1) drawn.push(drawSample(second, cases, request(more, `${seed}++`)).sample)
              }
            }
            for (const sample of drawn) {
              expect(() => checkSample(asRead(sample), FILE, fixtureCases), `${design}, n ${n}, size ${size}, seed ${seed}`).not.toThrow()
              expect(() => checkSample(asRead(sample), FILE)).not.toThrow()
              checked++
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100)
  })

  test('what is written reads back, checked against the cases it was drawn from', async () => {
    const root = await scratchDir('sample-check')
    const cases = population(120)
    for (const [index, request] of Object.values(DESIGNS).entries()) {
      await mkdir(join(root, `lab${index}`))
      const place = { dir: join(root, `lab${index}`), displayDir: `lab${index}`, root }
      const { sample } = drawSample(undefined, cases, request(40, '7'))
      await writeSampleFile(place, sample, null)
      expect((await readSampleFile(place, { cases: cases.cases })).sample).toEqual(sample)
    }
  })
})

describe('a sample that contradicts its own draws is refused (SAMPLE_INVALID), naming the path and what the draws give', () => {
  const cases = population(120)
  const fixtureCases = cases.cases.map(({ id, split }) => ({ id, split }))
  const draw = (name: string, size = 40) => asRead(drawSample(undefined, cases, DESIGNS[name]!(size, '7')).sample)

  test('uniform: a probability other than n/N', () => {
    const sample = draw('uniform')
    sample.cases[2]!.probability = 1
    expect(refusal(() => checkSample(sample, FILE))).toEqual({
      code: 'SAMPLE_INVALID',
      message: expect.stringContaining(
        'lab/sample.json › cases[2] › probability: the inclusion probability is 1, and the draws give 0.3333333333333333: 40 of 120 cases drawn uniformly without replacement (n/N = 40/120).\n  expected: 0.3333333333333333, as the recorded draws give it\n  found:    1\n',
      ),
    })
  })

  test("uniform: a case's split changed, which only the fixture's cases tell", () => {
    const sample = draw('uniform')
    const moved = sample.cases.findIndex((entry) => entry.split === 'development')
    sample.cases[moved]!.split = 'held_out'
    expect(() => checkSample(sample, FILE)).not.toThrow()
    expect(refusal(() => checkSample(sample, FILE, fixtureCases)).message).toContain(
      `lab/sample.json › cases[${moved}] › split: the case "${sample.cases[moved]!.id}" is in development in the fixture, which holds the cases the draws were made from (population_sha256), and the sample lists it in held_out.\n  expected: "development", the split it was drawn in\n  found:    "held_out"\n`,
    )
  })

  test('without the fixture: a population that is not the sum of the splits, a split with fewer cases than were drawn from it', () => {
    const sample = draw('uniform')
    sample.draws[0]!.population = 0
    expect(refusal(() => checkSample(sample, FILE)).message).toMatch(
      /^lab\/sample\.json › draws\[0\] › population: the draw records a population of 0 cases, and its splits 120 cases \(development 80, held_out 40\): the population is the cases of every split\.\n {2}expected: 120, the sum of splits/,
    )
    const split = draw('by split')
    split.draws[0]!.splits.held_out = 1
    split.draws[0]!.population = 81
    expect(refusal(() => checkSample(split, FILE)).message).toMatch(
      /^lab\/sample\.json › draws\[0\] › splits › held_out: the draw records 1 held_out case, and the sample lists 13 drawn from held_out\.\n {2}expected: at least 13\n/,
    )
  })

  test('by split: a case moved to the other split with its stratum, and its probability, is not the allocation of the draw', () => {
    const sample = draw('by split')
    const moved = sample.cases.findIndex((entry) => entry.split === 'development')
    Object.assign(sample.cases[moved]!, { split: 'held_out', stratum: 'held_out' })
    const counts = { development: 26, held_out: 14 }
    for (const entry of sample.cases) entry.probability = counts[entry.split] / (entry.split === 'development' ? 80 : 40)
    expect(refusal(() => checkSample(sample, FILE)).message).toMatch(
      /^lab\/sample\.json › cases: 26 development cases of the sample name draw 0, and the draw's proportional allocation of its 40 cases over 120 cases \(development 80, held_out 40\), at least one of each split, gives development 27\.\n/,
    )
  })

  test('by decision: every probability set to 1 puts fewer cases in the strata than the split holds', () => {
    const sample = draw('by decision')
    for (const entry of sample.cases) entry.probability = 1
    expect(refusal(() => checkSample(sample, FILE)).message).toMatch(
      /^lab\/sample\.json › cases\[\d+\] › probability: the inclusion probabilities of the development strata put \d+ cases in them \(N_h = n_h\/π; development\/\w+: \d+\/1 = \d+, .*\), and the draw records 80 development cases, each in one stratum with drawn cases\.\n {2}expected: probabilities n_h\/N_h whose N_h add up to 80, the development cases at the draw\n/,
    )
  })

  test('by decision: one case of a stratum with another probability than the others', () => {
    const sample = draw('by decision')
    const shared = sample.cases[1]!.probability
    sample.cases[0]!.probability = shared === 0.5 ? 0.25 : 0.5
    const stratum = sample.cases[0]!.stratum!
    expect(refusal(() => checkSample(sample, FILE)).message).toContain(`the cases of the stratum "${stratum}" share one probability, n_h/N_h`)
  })

  test('by criterion: a case given a stratum merged at the draw', () => {
    const sample = draw('by criterion')
    expect(sample.draws[0]!.merged_strata).toEqual({ 'development/rare': expect.stringMatching(/^development\//) })
    const index = sample.cases.findIndex((entry) => entry.split === 'development')
    sample.cases[index]!.stratum = 'development/rare'
    expect(refusal(() => checkSample(sample, FILE)).message).toContain(
      `lab/sample.json › cases[${index}] › stratum: the stratum "development/rare" was merged into "${sample.draws[0]!.merged_strata!['development/rare']}" at the draw`,
    )
  })

  test('active: a case probability other than the one its draw records, every recorded probability set to 1, or below the floor', () => {
    const sample = draw('active')
    const raised = asRead(sample)
    // The cases the judge is entirely unsure of are drawn for certain (capped at 1): another is raised.
    const index = raised.cases.findIndex((entry) => entry.probability < 1)
    raised.cases[index]!.probability = 1
    expect(refusal(() => checkSample(raised, FILE, fixtureCases)).message).toMatch(
      new RegExp(
        `^lab/sample\\.json › cases\\[${index}\\] › probability: the case "t\\d+" has the inclusion probability 1, and the last draw records 0\\.\\d+ for it \\(draws\\[0\\] › inclusion_probabilities\\[\\d+\\]`,
      ),
    )
    const everyOne = asRead(sample)
    everyOne.draws[0]!.inclusion_probabilities = everyOne.draws[0]!.inclusion_probabilities!.map(() => 1)
    for (const entry of everyOne.cases) entry.probability = 1
    expect(refusal(() => checkSample(everyOne, FILE)).message).toMatch(
      /^lab\/sample\.json › draws\[0\] › inclusion_probabilities: the probabilities add up to 120, and the draw's expected size is 40: an active draw scales every case's probability so that they add up to it\.\n {2}expected: probabilities that add up to 40\n {2}found: {4}120\n/,
    )
    const tiny = asRead(sample)
    tiny.draws[0]!.inclusion_probabilities = tiny.draws[0]!.inclusion_probabilities!.map(() => 1e-300)
    expect(refusal(() => checkSample(tiny, FILE)).message).toMatch(
      /^lab\/sample\.json › draws\[0\] › inclusion_probabilities\[0\]: the probability 1e-300 is below the floor of the draw, τ·n\/N = 0\.2·40\/120 = 0\.0666/,
    )
  })

  test('active: a draw that records no judge, floor, expected size or probability of every case, and every case claimed certain', () => {
    const sample = draw('active')
    // A uniform sample relabelled active, every probability set to 1: nothing it records would check the probabilities.
    const relabelled = asRead(draw('uniform'))
    relabelled.draws[0]!.method = 'active'
    for (const entry of relabelled.cases) entry.probability = 1
    expect(refusal(() => checkSample(relabelled, FILE)).message).toMatch(
      /^lab\/sample\.json › draws\[0\] › judge: the draw is active and records no judge: an active draw records its judge, its floor, its expected size and every case's inclusion probability, without which the probabilities of its cases cannot be checked\.\n {2}expected: "judge", as `vitest-rubric sample --method active` writes it\n/,
    )
    for (const field of ['floor', 'expected_size', 'inclusion_probabilities'] as const) {
      const without = asRead(sample)
      delete without.draws[0]![field]
      expect(refusal(() => checkSample(without, FILE)).message).toContain(`lab/sample.json › draws[0] › ${field}: the draw is active and records no ${field}`)
    }
    // A census claimed: every case certain, the expected size the population, the sample holding the cases drawn.
    const census = asRead(sample)
    census.draws[0]!.expected_size = 120
    census.draws[0]!.inclusion_probabilities = census.draws[0]!.inclusion_probabilities!.map(() => 1)
    for (const entry of census.cases) entry.probability = 1
    expect(refusal(() => checkSample(census, FILE)).message).toMatch(
      new RegExp(
        `^lab/sample\\.json › cases: 120 cases of the population have the inclusion probability 1 under the draws \\(draws\\[0\\] › inclusion_probabilities\\), and the sample holds ${census.cases.length} of probability 1: a case of probability 1 is drawn whatever the seed\\.`,
      ),
    )
    // As drawn, the cases of probability 1 are all in the sample.
    expect(() => checkSample(asRead(sample), FILE, fixtureCases)).not.toThrow()
  })

  test('uniform and by split: a case the seed did not draw, put in the place of one it drew, with everything else as the draw wrote it', () => {
    for (const [name, extended] of [
      ['uniform', false],
      ['by split', true],
    ] as const) {
      let drawn = drawSample(undefined, cases, DESIGNS[name]!(20, '7')).sample
      if (extended) drawn = drawSample(drawn, cases, DESIGNS[name]!(10, '8')).sample
      const sample = asRead(drawn)
      expect(() => checkSample(sample, FILE, fixtureCases)).not.toThrow()
      // Swap the last drawn case for an undrawn one of the same split: same counts, same probabilities.
      const at = sample.cases.length - 1
      const picked = fixtureCases.find((entry) => entry.split === sample.cases[at]!.split && !sample.cases.some((drawnCase) => drawnCase.id === entry.id))!
      const dropped = sample.cases[at]!.id
      sample.cases[at]!.id = picked.id
      expect(() => checkSample(sample, FILE)).not.toThrow()
      const message = refusal(() => checkSample(sample, FILE, fixtureCases)).message
      expect(message).toContain(
        `lab/sample.json › cases[${at}] › id: the case "${picked.id}" is not the one the draw gives: draws[${extended ? 1 : 0}] (seed "${extended ? 8 : 7}", ${name === 'uniform' ? 'uniform' : 'stratified by split'}) over the fixture's 120 cases, in their order, draws "${dropped}" there.`,
      )
      expect(message).toContain(`  expected: "${dropped}", the case the seed draws\n  found:    "${picked.id}"\n`)
    }
  })

  test("a design drawn by the judge's labels is not replayed: the labels at the draw need not be the fixture's now", () => {
    const sample = draw('by decision')
    expect(() => checkSample(sample, FILE, fixtureCases)).not.toThrow()
    const active = draw('active')
    expect(() => checkSample(active, FILE, fixtureCases)).not.toThrow()
  })

  test('draws of one sample that record different cases', () => {
    const first = drawSample(undefined, cases, DESIGNS['uniform']!(10, '1')).sample
    const sample = asRead(drawSample(first, cases, DESIGNS['uniform']!(5, '2')).sample)
    sample.draws[1]!.population = 121
    sample.draws[1]!.splits.development = 81
    expect(refusal(() => checkSample(sample, FILE)).message).toMatch(
      /^lab\/sample\.json › draws\[1\] › population: the draw records a population of 121 cases, and draw 0 of 120; every draw of a sample is made from the same cases/,
    )
  })
})
