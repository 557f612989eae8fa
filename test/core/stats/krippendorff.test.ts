import { describe, expect, test } from 'vitest'
import { StatisticsInputError } from '../../../src/core/stats/errors.js'
import { alphaBootstrap, krippendorffAlpha, type AlphaMetric } from '../../../src/core/stats/krippendorff.js'
import { percentileInterval } from '../../../src/core/stats/percentile.js'
import { createRandom, randomIndex } from '../../../src/core/stats/random.js'
import type { Rating, ReliabilityData } from '../../../src/core/stats/reliability-data.js'

const _ = null

/** Coders × units, as printed in the paper, turned into units × coders. */
function byUnit(coders: readonly (readonly (Rating | null)[])[]): (Rating | null)[][] {
  const length = coders[0]?.length ?? 0
  return Array.from({ length }, (_unused, unit) => coders.map((row) => row[unit] ?? null))
}

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: four observers,
// twelve units, values 1–5, missing data. Unit 12 has one value only and is not pairable.
const WORKED_EXAMPLE = byUnit([
  [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
  [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
])

// Krippendorff (2011), section A: two observers, ten units, binary data.
const BINARY_EXAMPLE = byUnit([
  [0, 1, 0, 0, 0, 0, 0, 0, 1, 0],
  [1, 1, 1, 0, 0, 1, 0, 0, 0, 0],
])

/**
 * A second implementation, from the pairwise definition rather than the coincidence matrix:
 * D_o = (1/n) Σ_u (1/(m_u − 1)) Σ_{i ≠ j in u} δ²(v_i, v_j) and
 * D_e = (1/(n(n − 1))) Σ_{i ≠ j} δ²(v_i, v_j) over all n pairable values.
 */
function pairwiseAlpha(units: ReliabilityData, metric: AlphaMetric): number | null {
  const delta = (a: Rating, b: Rating) => (metric === 'nominal' ? (a === b ? 0 : 1) : (Number(a) - Number(b)) ** 2)
  const pairable = units.map((unit) => unit.filter((value): value is Rating => value !== null)).filter((unit) => unit.length >= 2)
  const all = pairable.flat()
  const n = all.length
  let observed = 0
  for (const unit of pairable) {
    let sum = 0
    for (const [i, a] of unit.entries()) for (const [j, b] of unit.entries()) if (i !== j) sum += delta(a, b)
    observed += sum / (unit.length - 1)
  }
  let expected = 0
  for (const [i, a] of all.entries()) for (const [j, b] of all.entries()) if (i !== j) expected += delta(a, b)
  if (n < 2 || expected === 0) return null
  return 1 - observed / n / (expected / (n * (n - 1)))
}

function randomUnits(seed: number, options: { units: number; coders: number; values: readonly Rating[]; missing: number }) {
  const random = createRandom(seed)
  return Array.from({ length: options.units }, () =>
    Array.from({ length: options.coders }, () => (random() < options.missing ? null : (options.values[randomIndex(random, options.values.length)] as Rating))),
  )
}

describe('krippendorffAlpha: published examples (Krippendorff 2011)', () => {
  test('the worked example with missing data: nominal 0.743, interval 0.849', () => {
    const nominal = krippendorffAlpha(WORKED_EXAMPLE, 'nominal')
    expect(nominal.alpha).toBeCloseTo(0.743, 3)
    expect(krippendorffAlpha(WORKED_EXAMPLE, 'interval').alpha).toBeCloseTo(0.849, 3)
    // The paper's n.. = 40 pairable values in 11 units (unit 12 dropped), over the five values 1–5.
    expect(nominal).toMatchObject({ units: 11, pairable: 40, categories: 5 })
  })

  test('the binary two-observer example: 0.095', () => {
    // By hand: o₀₁ = o₁₀ = 4 (units 1, 3, 6, 9), n₀ = 14, n₁ = 6, n = 20;
    // α = 1 − (n − 1)·(o₀₁ + o₁₀)/(2·n₀·n₁) = 1 − 19·8/168 = 16/168 = 0.0952.
    const result = krippendorffAlpha(BINARY_EXAMPLE, 'nominal')
    expect(result.alpha).toBeCloseTo(0.095, 3)
    expect(result.alpha).toBeCloseTo(16 / 168, 12)
  })
})

describe('krippendorffAlpha: hand computations', () => {
  test('two coders, four units', () => {
    // Units (a,a) (a,b) (b,b) (b,b): o_aa = 2, o_ab = o_ba = 1, o_bb = 4; n_a = 3, n_b = 5, n = 8.
    // α = 1 − 7·(1 + 1)/(2·3·5) = 1 − 14/30 = 16/30.
    const result = krippendorffAlpha(
      [
        ['a', 'a'],
        ['a', 'b'],
        ['b', 'b'],
        ['b', 'b'],
      ],
      'nominal',
    )
    expect(result.alpha).toBeCloseTo(16 / 30, 12)
  })

  test('three coders with a missing value, and a unit with one value that is ignored', () => {
    // (a,a,b): m = 3, o_aa = 2·1/2 = 1, o_ab = o_ba = 2·1/2 = 1.  (a,b,–): o_ab = o_ba = 1.
    // (b,b,b): o_bb = 3·2/2 = 3.  n_a = 1 + 2 = 3, n_b = 2 + 3 = 5, n = 8.
    // α = 1 − 7·(2 + 2)/(2·3·5) = 1 − 28/30 = 2/30.
    const units = [
      ['a', 'a', 'b'],
      ['a', 'b', _],
      ['b', 'b', 'b'],
    ]
    const result = krippendorffAlpha(units, 'nominal')
    expect(result.alpha).toBeCloseTo(2 / 30, 12)
    expect(result).toMatchObject({ units: 3, pairable: 8, categories: 2 })
    const withSingle = krippendorffAlpha([...units, [_, 'c', _]], 'nominal')
    expect(withSingle).toEqual(result)
  })

  test('interval: squared differences', () => {
    // Units (1,2) (3,3): o₁₂ = o₂₁ = 1, o₃₃ = 2; Σ o δ² = 2·(1 − 2)² = 2; n₁ = n₂ = 1, n₃ = 2, n = 4.
    // Σ n_c n_k δ² = 2·(1·1·1² + 1·2·2² + 1·2·1²) = 2·(1 + 8 + 2) = 22; α = 1 − 3·2/22 = 16/22.
    expect(
      krippendorffAlpha(
        [
          [1, 2],
          [3, 3],
        ],
        'interval',
      ).alpha,
    ).toBeCloseTo(16 / 22, 12)
    // Nominal on the same data: o₁₂ + o₂₁ = 2, Σ n_c n_k [c ≠ k] = 4² − (1 + 1 + 4) = 10; α = 1 − 3·2/10 = 0.4.
    expect(
      krippendorffAlpha(
        [
          [1, 2],
          [3, 3],
        ],
        'nominal',
      ).alpha,
    ).toBeCloseTo(0.4, 12)
  })

  test('agrees with the pairwise definition on random data with missing values', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const values = seed % 2 === 0 ? ['meets', 'does_not_meet', 'partly'] : [1, 2, 3, 4, 5, 7.5]
      const units = randomUnits(seed, { units: 5 + seed, coders: 2 + (seed % 4), values, missing: 0.3 })
      for (const metric of seed % 2 === 0 ? (['nominal'] as const) : (['nominal', 'interval'] as const)) {
        const expected = pairwiseAlpha(units, metric)
        const actual = krippendorffAlpha(units, metric).alpha
        if (expected === null) expect(actual).toBeNull()
        else expect(actual).toBeCloseTo(expected, 12)
      }
    }
  })

  test('interval alpha does not depend on where the scale starts', () => {
    const shifted = WORKED_EXAMPLE.map((unit) => unit.map((value) => (value === null ? null : Number(value) + 1e6)))
    expect(krippendorffAlpha(shifted, 'interval').alpha).toBeCloseTo(krippendorffAlpha(WORKED_EXAMPLE, 'interval').alpha as number, 9)
  })
})

describe('krippendorffAlpha: when alpha is undefined', () => {
  test('no variation is null with a reason, not 1', () => {
    const result = krippendorffAlpha(
      [
        ['meets', 'meets'],
        ['meets', 'meets', _],
        ['does_not_meet', _],
      ],
      'nominal',
    )
    expect(result).toEqual({ alpha: null, reason: 'no variation: every pairable value is "meets"', units: 2, pairable: 4, categories: 1 })
    expect(
      krippendorffAlpha(
        [
          [3, 3],
          [3, 3],
        ],
        'interval',
      ).reason,
    ).toBe('no variation: every pairable value is 3')
  })

  test('a single coder is null with a reason, not 0', () => {
    const result = krippendorffAlpha([['meets'], ['does_not_meet'], ['meets']], 'nominal')
    expect(result).toEqual({ alpha: null, reason: 'fewer than two coders judged any unit', units: 0, pairable: 0, categories: 0 })
    expect(krippendorffAlpha([], 'nominal').alpha).toBeNull()
  })
})

describe('krippendorffAlpha: input checks', () => {
  test('interval needs numbers', () => {
    expect(() =>
      krippendorffAlpha(
        [
          [1, 2],
          ['a', 'b'],
        ] as never,
        'interval',
      ),
    ).toThrow(StatisticsInputError)
    expect(() => krippendorffAlpha([['a', 'b']], 'interval')).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: krippendorffAlpha: the interval metric needs finite numbers; units[0][0] is "a"]`,
    )
  })

  test('strings and numbers are not mixed, and a hole is not a missing value', () => {
    expect(() => krippendorffAlpha([['1', 1]], 'nominal')).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: krippendorffAlpha: units[0][1] is a number but units[0][0] is a string; use one type for all values (e.g. "meets" or 1, not both)]`,
    )
    // biome-ignore lint/suspicious/noSparseArray: a hole in the data is what is refused
    expect(() => krippendorffAlpha([[1, , 2]] as unknown as ReliabilityData, 'nominal')).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: krippendorffAlpha: units[0][1] must be a string, a finite number or null (missing); found undefined (write null for a missing value)]`,
    )
  })

  test('an unknown metric is refused', () => {
    expect(() => krippendorffAlpha([[1, 2]], 'ordinal' as AlphaMetric)).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: krippendorffAlpha: metric must be one of nominal, interval; found ordinal]`,
    )
    expect(() => krippendorffAlpha([[1, 2]], 'constructor' as AlphaMetric)).toThrow(StatisticsInputError)
  })
})

describe('alphaBootstrap', () => {
  test('equals resampling the pairable units one by one and recomputing alpha', () => {
    const samples = 300
    const actual = alphaBootstrap(WORKED_EXAMPLE, 'interval', { seed: 'worked', samples })
    // The same draws, taken as documented: per replicate, 11 randomIndex calls over the pairable units.
    const pairable = WORKED_EXAMPLE.filter((unit) => unit.filter((value) => value !== null).length >= 2)
    const random = createRandom('worked')
    const alphas: number[] = []
    for (let r = 0; r < samples; r++) {
      const replicate = pairable.map(() => pairable[randomIndex(random, pairable.length)] as (Rating | null)[])
      const alpha = krippendorffAlpha(replicate, 'interval').alpha
      if (alpha !== null) alphas.push(alpha)
    }
    const expected = percentileInterval(alphas, 0.95)
    expect(actual?.samples).toBe(alphas.length)
    expect(actual?.skipped).toBe(samples - alphas.length)
    expect(actual?.low).toBeCloseTo(expected?.low as number, 12)
    expect(actual?.high).toBeCloseTo(expected?.high as number, 12)
  })

  test('is reproducible by seed, and contains the point estimate', () => {
    const first = alphaBootstrap(WORKED_EXAMPLE, 'nominal', { seed: 1 })
    expect(alphaBootstrap(WORKED_EXAMPLE, 'nominal', { seed: 1 })).toEqual(first)
    expect(alphaBootstrap(WORKED_EXAMPLE, 'nominal', { seed: 2 })).not.toEqual(first)
    const alpha = krippendorffAlpha(WORKED_EXAMPLE, 'nominal').alpha as number
    expect(first?.low).toBeLessThanOrEqual(alpha)
    expect(first?.high).toBeGreaterThanOrEqual(alpha)
    expect(first?.low).toBeLessThanOrEqual(first?.high as number)
    // Default: 2000 replicates, each either counted or skipped.
    expect((first?.samples ?? 0) + (first?.skipped ?? 0)).toBe(2000)
  })

  test('skips and counts replicates without variation', () => {
    // Units (a,a) and (b,b): α = 1 (no disagreement, some variation). A replicate drawing the same
    // unit twice (probability 1/2) has no variation and is skipped; every other replicate has α = 1.
    const result = alphaBootstrap(
      [
        ['a', 'a'],
        ['b', 'b'],
      ],
      'nominal',
      { seed: 5, samples: 400 },
    )
    expect(result?.skipped).toBeGreaterThan(100)
    expect(result?.samples).toBeGreaterThan(100)
    expect((result?.samples ?? 0) + (result?.skipped ?? 0)).toBe(400)
    expect(result).toMatchObject({ low: 1, high: 1 })
  })

  test('is null when alpha is', () => {
    expect(alphaBootstrap([['meets', 'meets']], 'nominal', { seed: 1 })).toBeNull()
    expect(alphaBootstrap([['meets'], [_, 'meets']], 'nominal', { seed: 1 })).toBeNull()
  })

  test('refuses bad options even where alpha is null', () => {
    expect(() => alphaBootstrap([], 'nominal', { seed: 1, samples: 0 })).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: bootstrap samples must be a whole number of at least 1; found 0]`,
    )
    expect(() => alphaBootstrap(WORKED_EXAMPLE, 'nominal', { seed: 1, level: 95 })).toThrow(StatisticsInputError)
  })
})

describe('alphaBootstrap with clusters (issue 26, item 8)', () => {
  test('resamples whole clusters: equals drawing clusters and recomputing alpha over all their units', () => {
    // Three coders, 12 clusters (cases) of three units (criteria) each, clusters labelled by case.
    const random = createRandom('clusters data')
    const units: (Rating | null)[][] = []
    const clusters: string[] = []
    for (let c = 0; c < 12; c++) {
      for (let j = 0; j < 3; j++) {
        units.push(Array.from({ length: 3 }, () => (random() < 0.1 ? null : random() < 0.6 ? 'meets' : 'does_not_meet')))
        clusters.push(`case ${c}`)
      }
    }
    const samples = 300
    const actual = alphaBootstrap(units, 'nominal', { seed: 'clusters', samples, clusters })
    // The documented draws: per replicate, one randomIndex call per cluster, each bringing its units.
    const byCluster = Array.from({ length: 12 }, (_unused, c) => units.slice(3 * c, 3 * c + 3))
    const draw = createRandom('clusters')
    const alphas: number[] = []
    for (let r = 0; r < samples; r++) {
      const replicate = byCluster.flatMap(() => byCluster[randomIndex(draw, byCluster.length)]!)
      const alpha = krippendorffAlpha(replicate, 'nominal').alpha
      if (alpha !== null) alphas.push(alpha)
    }
    const expected = percentileInterval(alphas, 0.95)
    expect(actual).toMatchObject({ cases: 12, samples: alphas.length, skipped: samples - alphas.length })
    expect(actual?.low).toBeCloseTo(expected?.low as number, 12)
    expect(actual?.high).toBeCloseTo(expected?.high as number, 12)
    // Units one by one would draw every pairable unit, not every cluster, per replicate.
    expect(alphaBootstrap(units, 'nominal', { seed: 'clusters', samples })).toMatchObject({ cases: krippendorffAlpha(units, 'nominal').units })
  })

  test('a cluster of units that are not pairable is not drawn; a clusters list of the wrong length is refused', () => {
    const units = [
      ['a', 'b'],
      ['a', null],
      ['b', 'b'],
      ['a', 'a'],
    ]
    expect(alphaBootstrap(units, 'nominal', { seed: 1, samples: 10, clusters: [1, 2, 3, 3] })).toMatchObject({ cases: 2 })
    expect(() => alphaBootstrap(units, 'nominal', { seed: 1, clusters: [1, 2] })).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: alphaBootstrap: clusters must hold one label per unit (4); found 2 labels]`,
    )
  })
})

describe('interval alpha at extreme magnitudes (issue 26, item 7)', () => {
  // Interval alpha is unchanged by a change of scale, so the worked example scaled by 2^±k must give
  // Krippendorff's 0.849 too, whether the squared differences would underflow or overflow.
  const scaled = (factor: number) => WORKED_EXAMPLE.map((unit) => unit.map((value) => (value === null ? null : (value as number) * factor)))
  const reference = krippendorffAlpha(WORKED_EXAMPLE, 'interval').alpha as number

  test.each([
    ['2^-700, where squared differences underflow to 0', 2 ** -700],
    ['2^700, where they overflow to Infinity', 2 ** 700],
    ['1e-200', 1e-200],
    ['1e200', 1e200],
  ])('the worked example scaled by %s still gives 0.849', (_name, factor) => {
    const result = krippendorffAlpha(scaled(factor), 'interval')
    expect(result.reason).toBeNull()
    expect(result.alpha).toBeCloseTo(reference, 12)
    expect(result.alpha).toBeCloseTo(0.849, 3)
    const interval = alphaBootstrap(scaled(factor), 'interval', { seed: 'scale', samples: 200 })
    const unscaled = alphaBootstrap(WORKED_EXAMPLE, 'interval', { seed: 'scale', samples: 200 })
    expect(interval?.low).toBeCloseTo(unscaled?.low as number, 12)
    expect(interval?.high).toBeCloseTo(unscaled?.high as number, 12)
  })

  test('values near the largest double: a figure, never NaN', () => {
    const result = krippendorffAlpha(
      [
        [1.7e308, 1.7e308],
        [-1.7e308, -1.7e308],
        [1.7e308, -1.7e308],
      ],
      'interval',
    )
    expect(Number.isNaN(result.alpha)).toBe(false)
    expect(result.alpha).toBeCloseTo(
      krippendorffAlpha(
        [
          [1, 1],
          [-1, -1],
          [1, -1],
        ],
        'interval',
      ).alpha as number,
      12,
    )
  })
})
