import { describe, expect, test } from 'vitest'
import { StatisticsInputError } from '../../../src/core/stats/errors.js'
import { normalQuantile, twoSidedZ } from '../../../src/core/stats/normal-quantile.js'
import { percentileInterval, quantileSorted } from '../../../src/core/stats/percentile.js'
import { twoSidedT } from '../../../src/core/stats/student-t.js'

describe('normalQuantile', () => {
  test('published critical values of the standard normal', () => {
    // As tabulated (e.g. R's qnorm): Φ⁻¹(0.9), Φ⁻¹(0.95), Φ⁻¹(0.975), Φ⁻¹(0.995).
    expect(normalQuantile(0.9)).toBeCloseTo(1.2815515655446004, 14)
    expect(normalQuantile(0.95)).toBeCloseTo(1.6448536269514722, 14)
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 14)
    expect(normalQuantile(0.995)).toBeCloseTo(2.5758293035489004, 14)
    expect(normalQuantile(0.5)).toBe(0)
  })

  test('is antisymmetric about 1/2, in every branch of the approximation', () => {
    // Powers of two, so that 1 − p is exact: 2⁻² central, 2⁻⁴ … 2⁻²⁷ the near tail (√(−ln p) ≤ 5), 2⁻⁴⁰ the far tail.
    for (const p of [2 ** -2, 2 ** -4, 2 ** -10, 2 ** -27, 2 ** -40]) expect(normalQuantile(p)).toBeCloseTo(-normalQuantile(1 - p), 13)
  })

  test('twoSidedZ(0.95) is 1.959963984540054', () => {
    expect(twoSidedZ(0.95)).toBeCloseTo(1.959963984540054, 14)
  })

  test('refuses probabilities outside (0, 1)', () => {
    for (const p of [0, 1, -0.1, Number.NaN]) expect(() => normalQuantile(p)).toThrow(StatisticsInputError)
  })
})

describe("twoSidedT: Student's t quantile for any degrees of freedom", () => {
  test('the closed forms for 1 and 2 degrees of freedom, at several levels', () => {
    for (const level of [0.5, 0.9, 0.95, 0.99]) {
      const p = (1 + level) / 2
      expect(twoSidedT(level, 1)).toBeCloseTo(Math.tan(Math.PI * (p - 0.5)), 11)
      expect(twoSidedT(level, 2)).toBeCloseTo((2 * p - 1) / Math.sqrt(2 * p * (1 - p)), 12)
    }
  })

  test("tabulated and fractional degrees of freedom (SciPy's t.ppf(0.975, ν)), and the normal quantile at infinity", () => {
    expect(twoSidedT(0.95, 9)).toBeCloseTo(2.262157162798205, 12)
    expect(twoSidedT(0.95, 30)).toBeCloseTo(2.0422724563012378, 12)
    expect(twoSidedT(0.95, 10.7)).toBeCloseTo(2.208537614849555, 12)
    expect(twoSidedT(0.95, 0.5)).toBeCloseTo(164.55767348048818, 9)
    expect(twoSidedT(0.95, 1000)).toBeCloseTo(1.9623390808264083, 11)
    expect(twoSidedT(0.95, Number.POSITIVE_INFINITY)).toBe(twoSidedZ(0.95))
  })

  test('falls towards the normal quantile as the degrees of freedom grow', () => {
    const values = [3, 10, 100, 10_000].map((degrees) => twoSidedT(0.95, degrees))
    for (let k = 1; k < values.length; k++) expect(values[k]).toBeLessThan(values[k - 1]!)
    expect(values.at(-1)).toBeGreaterThan(twoSidedZ(0.95))
  })

  test('refuses a level outside (0, 1)', () => {
    expect(() => twoSidedT(1, 10)).toThrow(StatisticsInputError)
  })
})

describe('percentileInterval (type 7, linear interpolation)', () => {
  test('by hand', () => {
    // [1 … 5], level 0.5: h = 4·0.25 = 1 → 2, h = 4·0.75 = 3 → 4.
    expect(percentileInterval([1, 2, 3, 4, 5], 0.5)).toEqual({ low: 2, high: 4 })
    // [10, 20, 30, 40], level 0.9: h = 3·0.05 = 0.15 → 10 + 0.15·10 = 11.5; h = 2.85 → 30 + 0.85·10 = 38.5.
    const interval = percentileInterval([40, 10, 30, 20], 0.9)
    expect(interval?.low).toBeCloseTo(11.5, 12)
    expect(interval?.high).toBeCloseTo(38.5, 12)
  })

  test('sorts numerically, leaves its input alone, and defaults to 95%', () => {
    const samples = [100, 9, 20, 3]
    // h = 3·0.025 = 0.075 → 3 + 0.075·6 = 3.45; h = 2.925 → 20 + 0.925·80 = 94.
    const interval = percentileInterval(samples)
    expect(interval?.low).toBeCloseTo(3.45, 12)
    expect(interval?.high).toBeCloseTo(94, 12)
    expect(samples).toEqual([100, 9, 20, 3])
  })

  test('one sample is its own interval; none is null', () => {
    expect(percentileInterval([0.7])).toEqual({ low: 0.7, high: 0.7 })
    expect(percentileInterval([])).toBeNull()
    expect(quantileSorted([1, 3], 0.5)).toBe(2)
  })

  test('refuses NaN and a level outside (0, 1)', () => {
    expect(() => percentileInterval([1, Number.NaN])).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: percentileInterval needs numbers; samples[1] is NaN]`,
    )
    expect(() => percentileInterval([1, 2], 1.5)).toThrow(StatisticsInputError)
  })
})
