import { describe, expect, test } from 'vitest'
import { drawRequest } from '../../helpers/draw-request.js'
import { RubricError } from '../../../src/core/common/errors.js'
import type { Split } from '../../../src/core/common/primitives.js'
import { allocate, drawSample, type Population } from '../../../src/core/sample/draw.js'
import type { SampleFile } from '../../../src/core/sample/sample-file.js'

/** n cases, the first `development` of them in development and the rest held out. */
function population(n: number, development = n): Population {
  return {
    cases: Array.from({ length: n }, (_, index) => ({
      id: `c${index}`,
      split: (index < development ? 'development' : 'held_out') as Split,
      answerSha256: null,
    })),
    caseSetSha256: null,
  }
}

const request = drawRequest

const ids = (sample: SampleFile) => sample.cases.map((entry) => entry.id)

describe('drawSample: uniform', () => {
  test('draws exactly n distinct cases, the same for the same seed and another for another seed', () => {
    const cases = population(400)
    const first = drawSample(undefined, cases, request(60, '7'))
    expect(first.sample.cases).toHaveLength(60)
    expect(new Set(ids(first.sample)).size).toBe(60)
    expect(ids(drawSample(undefined, cases, request(60, '7')).sample)).toEqual(ids(first.sample))
    expect(ids(drawSample(undefined, cases, request(60, '8')).sample)).not.toEqual(ids(first.sample))
  })

  test('gives every case the inclusion probability n/N, and records N, N_h, the seed and the method', () => {
    const { sample } = drawSample(undefined, population(400, 360), request(60, 'seed'))
    expect(new Set(sample.cases.map((entry) => entry.probability))).toEqual(new Set([60 / 400]))
    expect(sample.cases.every((entry) => entry.stratum === null && entry.draw === 0)).toBe(true)
    expect(sample.draws).toMatchObject([{ seed: 'seed', method: 'uniform', size: 60, population: 400, splits: { development: 360, held_out: 40 } }])
  })

  test('draws each case with probability n/N over seeds', () => {
    const counts = new Map<string, number>()
    const seeds = 4000
    for (let seed = 0; seed < seeds; seed++) {
      for (const id of ids(drawSample(undefined, population(20), request(5, String(seed))).sample)) counts.set(id, (counts.get(id) ?? 0) + 1)
    }
    const shares = [...counts.values()].map((count) => count / seeds)
    expect(counts.size).toBe(20)
    // 0.25 ± 4 standard errors of a share over 4,000 draws (√(0.25·0.75/4000) ≈ 0.0068).
    expect(shares.every((share) => Math.abs(share - 0.25) < 0.028)).toBe(true)
  })
})

describe('drawSample: stratified by split', () => {
  test('allocates proportionally, at least one case of each split, with probabilities n_h/N_h', () => {
    const { sample } = drawSample(undefined, population(400, 395), request(10, '1', { method: 'stratified' }))
    const bySplit = (split: Split) => sample.cases.filter((entry) => entry.split === split)
    // 10 · 5/400 = 0.125 of a case: the one-per-split floor gives the held-out split one.
    expect([bySplit('development').length, bySplit('held_out').length]).toEqual([9, 1])
    expect(bySplit('development').every((entry) => entry.probability === 9 / 395 && entry.stratum === 'development')).toBe(true)
    expect(bySplit('held_out').every((entry) => entry.probability === 1 / 5 && entry.stratum === 'held_out')).toBe(true)
  })

  test('allocate brings each split to its share of the total', () => {
    expect(
      allocate(
        60,
        [
          { size: 360, drawn: 0 },
          { size: 40, drawn: 0 },
        ],
        'f',
      ),
    ).toEqual([54, 6])
    // An extension tops up the split below its share: 30 of 100 in total, 3 already in the first split.
    expect(
      allocate(
        27,
        [
          { size: 50, drawn: 3 },
          { size: 50, drawn: 0 },
        ],
        'f',
      ),
    ).toEqual([12, 15])
    expect(() =>
      allocate(
        1,
        [
          { size: 5, drawn: 0 },
          { size: 5, drawn: 0 },
        ],
        'f',
      ),
    ).toThrow(/at least one case of each of the 2 splits/)
  })
})

describe('drawSample: extending a sample', () => {
  test('draws only cases not drawn yet, keeps the earlier ones, and brings every probability to (total drawn)/N', () => {
    const cases = population(200)
    const first = drawSample(undefined, cases, request(30, '7')).sample
    const { sample, drawn } = drawSample(first, cases, request(20, '7'))
    expect(sample.cases.slice(0, 30).map((entry) => [entry.id, entry.draw])).toEqual(first.cases.map((entry) => [entry.id, 0]))
    expect(drawn).toHaveLength(20)
    expect(drawn.every((entry) => entry.draw === 1 && !ids(first).includes(entry.id))).toBe(true)
    expect(new Set(sample.cases.map((entry) => entry.probability))).toEqual(new Set([50 / 200]))
    expect(sample.draws.map((draw) => draw.size)).toEqual([30, 20])
  })

  test('stratified: each split keeps its earlier cases, and its probability becomes its total over N_h', () => {
    const cases = population(100, 80)
    const first = drawSample(undefined, cases, request(10, 'a', { method: 'stratified' })).sample
    const { sample } = drawSample(first, cases, request(10, 'b', { method: 'stratified' }))
    const held = sample.cases.filter((entry) => entry.split === 'held_out')
    expect(sample.cases).toHaveLength(20)
    expect(held).toHaveLength(4)
    expect(held.every((entry) => entry.probability === 4 / 20)).toBe(true)
    expect(sample.cases.filter((entry) => entry.split === 'development').every((entry) => entry.probability === 16 / 80)).toBe(true)
  })

  test('refuses to extend a sample drawn from other cases, saying how many and that --new starts a new sample', () => {
    const first = drawSample(undefined, population(50), request(10, '7')).sample
    const grown = population(53)
    let error: unknown
    try {
      drawSample(first, grown, request(5, '8'))
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(RubricError)
    expect((error as RubricError).code).toBe('SAMPLE_POPULATION_CHANGED')
    expect((error as RubricError).message).toMatchInlineSnapshot(`
      "lab/sample.json › draws[0] › population_sha256: the cases changed since the sample was drawn: 50 cases (development 50) then, 53 cases (development 53) now, 3 cases more. Extending the sample would give inclusion probabilities that hold for neither set of cases.
        expected: the same cases, in the same splits, as at the last draw
        fix:      start a new sample with \`vitest-rubric sample <dir> --size <n> --seed <s> --new\` (it replaces sample.json), or restore the cases."
    `)
    // A new sample replaces it.
    const fresh = drawSample(first, grown, request(5, '8', { fresh: true })).sample
    expect(fresh.draws).toHaveLength(1)
    expect(fresh.cases.every((entry) => entry.probability === 5 / 53)).toBe(true)
  })

  test('refuses a size beyond the cases not drawn yet, and another design than the sample has', () => {
    const cases = population(20)
    const first = drawSample(undefined, cases, request(15, '7')).sample
    expect(() => drawSample(first, cases, request(6, '8'))).toThrow(/--size must be a whole number from 1 to the 5 cases not drawn yet; found 6/)
    expect(() => drawSample(first, cases, request(2, '8', { method: 'stratified' }))).toThrow(
      /the sample was drawn uniformly, and an extension keeps its design/,
    )
  })
})
