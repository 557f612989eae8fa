import { describe, expect, test } from 'vitest'
import { StatisticsInputError } from '../../../src/core/stats/errors.js'
import { meanWithError, pairedDifference, wilsonInterval } from '../../../src/core/stats/intervals.js'
import { createRandom } from '../../../src/core/stats/random.js'

describe('wilsonInterval', () => {
  test('Newcombe (1998), Table I, method 3 (score interval without continuity correction)', () => {
    const cases: [number, number, number, number][] = [
      [81, 263, 0.2553, 0.3662],
      [15, 148, 0.0624, 0.1605],
      [0, 20, 0, 0.1611],
      [1, 29, 0.0061, 0.1718],
    ]
    for (const [successes, n, low, high] of cases) {
      const interval = wilsonInterval(successes, n)
      expect(interval?.low).toBeCloseTo(low, 4)
      expect(interval?.high).toBeCloseTo(high, 4)
    }
  })

  test('0, 5 and 10 of 10, by hand', () => {
    // z = 1.959964, z² = 3.841459, n + z² = 13.841459.
    // 0/10: high = z²/(n + z²) = 3.841459/13.841459 = 0.2775.
    // 5/10: centre 0.5, half = z·√(5·5/10 + z²/4)/(n + z²) = 1.959964·√3.460365/13.841459 = 0.2634.
    // 10/10 mirrors 0/10: low = 1 − 0.2775 = 0.7225.
    expect(wilsonInterval(0, 10)).toEqual({ low: 0, high: expect.closeTo(0.2775, 4) })
    expect(wilsonInterval(5, 10)?.low).toBeCloseTo(0.2366, 4)
    expect(wilsonInterval(5, 10)?.high).toBeCloseTo(0.7634, 4)
    expect(wilsonInterval(10, 10)).toEqual({ low: expect.closeTo(0.7225, 4), high: 1 })
  })

  test('the level sets z: 99% at 5 of 10, by hand', () => {
    // z = 2.5758293, z² = 6.6348966; half = z·√(2.5 + 1.6587241)/16.6348966 = 2.5758293·2.0392950/16.6348966 = 0.3157760.
    expect(wilsonInterval(5, 10, { level: 0.99 })?.low).toBeCloseTo(0.5 - 0.315776, 5)
  })

  test('is null for n = 0 and refuses impossible counts', () => {
    expect(wilsonInterval(0, 0)).toBeNull()
    expect(() => wilsonInterval(11, 10)).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: wilsonInterval needs whole numbers 0 ≤ successes ≤ n; found successes 11, n 10]`,
    )
    expect(() => wilsonInterval(1.5, 10)).toThrow(StatisticsInputError)
    expect(() => wilsonInterval(1, 10, { level: 1 })).toThrow(StatisticsInputError)
  })
})

describe('meanWithError', () => {
  test('SE = √(Σ(sᵢ − s̄)² / (n(n − 1))), by hand', () => {
    // Mean 2.5; squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5; SE = √(5/12) = 0.6455.
    const result = meanWithError([1, 2, 3, 4])
    expect(result.mean).toBeCloseTo(2.5, 12)
    expect(result.se).toBeCloseTo(Math.sqrt(5 / 12), 12)
    expect(result.n).toBe(4)
  })

  test('binary scores: SE is √(p(1 − p)/(n − 1))', () => {
    // 3 passes of 4: p = 0.75; Σ(sᵢ − p)² = 3·0.0625 + 0.5625 = 0.75; SE = √(0.75/12) = √(0.1875/3).
    expect(meanWithError([1, 1, 1, 0]).se).toBeCloseTo(Math.sqrt((0.75 * 0.25) / 3), 12)
  })

  test('the mean is null without values, the SE without two', () => {
    expect(meanWithError([])).toEqual({ mean: null, se: null, n: 0 })
    expect(meanWithError([7])).toEqual({ mean: 7, se: null, n: 1 })
    expect(() => meanWithError([1, Number.NaN])).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: meanWithError: values[1] must be a finite number; found NaN]`,
    )
  })
})

describe('pairedDifference', () => {
  const SMALL: [number, number][] = [
    [3, 1],
    [5, 4],
    [2, 2],
    [6, 3],
  ]

  test('mean and SE of the differences, by hand', () => {
    // Differences 2, 1, 0, 3: mean 1.5; squared deviations 0.25 + 0.25 + 2.25 + 2.25 = 5; SE = √(5/12).
    const result = pairedDifference(SMALL, { seed: 1 })
    expect(result.n).toBe(4)
    expect(result.mean).toBeCloseTo(1.5, 12)
    expect(result.se).toBeCloseTo(Math.sqrt(5 / 12), 12)
    // A bootstrap mean of four differences lies between the smallest (0) and largest (3).
    expect(result.low).toBeGreaterThanOrEqual(0)
    expect(result.high).toBeLessThanOrEqual(3)
  })

  test('is reproducible by seed and contains the mean', () => {
    const random = createRandom('items')
    const pairs = Array.from({ length: 60 }, (): [number, number] => [random(), random()])
    const first = pairedDifference(pairs, { seed: 4 })
    expect(pairedDifference(pairs, { seed: 4 })).toEqual(first)
    expect(pairedDifference(pairs, { seed: 5 })).not.toEqual(first)
    expect(first.low).toBeLessThanOrEqual(first.mean as number)
    expect(first.high).toBeGreaterThanOrEqual(first.mean as number)
  })

  test('on many items the percentile interval is close to mean ± 1.96·SE', () => {
    const random = createRandom('normal-ish')
    const pairs = Array.from({ length: 400 }, (): [number, number] => [random() + random() + random(), random() + random()])
    const { mean, se, low, high } = pairedDifference(pairs, { seed: 6, samples: 4000 })
    // The bootstrap SE of a mean is SE·√((n − 1)/n), about SE here; allow 10% of the half-width for sampling noise.
    const half = 1.96 * (se as number)
    expect(Math.abs((low as number) - ((mean as number) - half))).toBeLessThan(0.1 * half)
    expect(Math.abs((high as number) - ((mean as number) + half))).toBeLessThan(0.1 * half)
  })

  test('is narrower than an unpaired comparison when the two systems share item difficulty', () => {
    // Each item has a difficulty that moves both scores; b trails a by about 0.05. Var(a − b) =
    // Var(a) + Var(b) − 2·Cov(a, b): the shared difficulty cancels from the paired differences,
    // while the unpaired SE √(SE_a² + SE_b²) keeps all of it.
    const random = createRandom('difficulty')
    const pairs = Array.from({ length: 200 }, (): [number, number] => {
      const difficulty = random()
      return [difficulty + 0.1 * random(), difficulty - 0.05 + 0.1 * random()]
    })
    const paired = pairedDifference(pairs, { seed: 1 })
    const a = meanWithError(pairs.map(([x]) => x))
    const b = meanWithError(pairs.map(([, y]) => y))
    const unpaired = Math.sqrt((a.se as number) ** 2 + (b.se as number) ** 2)
    expect(paired.se as number).toBeLessThan(unpaired / 3)
  })

  test('has no interval below two pairs', () => {
    expect(pairedDifference([], { seed: 1 })).toEqual({ n: 0, mean: null, se: null, low: null, high: null })
    expect(pairedDifference([[2, 1]], { seed: 1 })).toEqual({ n: 1, mean: 1, se: null, low: null, high: null })
  })

  test('refuses a pair that is not two numbers', () => {
    expect(() => pairedDifference([[1, 2, 3]] as unknown as [number, number][], { seed: 1 })).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: pairedDifference: pairs[0] must be [a, b], two scores of one item]`,
    )
    expect(() => pairedDifference([[1, Number.POSITIVE_INFINITY]], { seed: 1 })).toThrow(StatisticsInputError)
  })
})
