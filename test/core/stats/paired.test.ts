import { describe, expect, test } from 'vitest'
import { twoSidedZ } from '../../../src/core/stats/normal-quantile.js'
import { mcnemarExact, newcombePairedInterval, pairedProportions, type PairedCounts } from '../../../src/core/stats/paired.js'

/** A table written as published, x = (a, b, c, d) with θ = p1 − p2 = (b − c)/n: system 1 is B here, so b is `bOnly`. */
const published = (a: number, b: number, c: number, d: number): PairedCounts => ({ both: a, bOnly: b, aOnly: c, neither: d })

describe('newcombePairedInterval (Newcombe 1998, method 10)', () => {
  // Each row: the table, the estimate and the bounds as printed, to the digits printed.
  const examples: [string, PairedCounts, number, number, number, number][] = [
    // Newcombe (1998), paired paper, method 10, as reproduced in the ratesci R package's tests (tests/testthat/test3.R).
    ['Newcombe (1998): 20, 12, 2, 16', published(20, 12, 2, 16), 0.2, 0.0562, 0.3292, 4],
    // Fagerland, Lydersen & Laake (2014), Table II (Bentur et al. 2009), "Newcombe hybrid score", via ratesci's tests.
    ['Fagerland et al. (2014): 1, 1, 7, 12', published(1, 1, 7, 12), -6 / 21, -0.507, -0.026, 3],
    // Fagerland, Lydersen & Laake (2017), chapter 8 (Cavo et al. 2012), as the contingencytables package's tests print it.
    ['Fagerland et al. (2017): 59, 6, 16, 80', published(59, 6, 16, 80), -0.0621, -0.1186, -0.0046, 4],
    // Tang, Ling, Ling & Tian (2010), MOVER with Wilson intervals, via ratesci's tests.
    ['Tang et al. (2010): 8, 3, 1, 2', published(8, 3, 1, 2), 2 / 14, -0.1574, 0.4136, 4],
  ]
  for (const [name, counts, difference, low, high, digits] of examples) {
    test(name, () => {
      const interval = newcombePairedInterval(counts)
      expect(interval?.difference).toBeCloseTo(difference, digits)
      expect(interval?.low).toBeCloseTo(low, digits)
      expect(interval?.high).toBeCloseTo(high, digits)
    })
  }

  test('B − A is A − B mirrored: swapping the systems negates the interval', () => {
    const forward = newcombePairedInterval({ both: 20, aOnly: 2, bOnly: 12, neither: 16 })!
    const back = newcombePairedInterval({ both: 20, aOnly: 12, bOnly: 2, neither: 16 })!
    expect(back.difference).toBeCloseTo(-forward.difference, 15)
    expect(back.low).toBeCloseTo(-forward.high, 15)
    expect(back.high).toBeCloseTo(-forward.low, 15)
  })

  test('no discordant pairs, by hand: 5 both, 5 neither', () => {
    // p_A = p_B = 0.5, θ = 0. ad − bc = 25 > n/2 = 5, so φ = (25 − 5)/√(5·5·5·5) = 0.8.
    // Wilson 5/10: δ = ε = z·√(2.5 + z²/4)/(10 + z²) = 0.263401; each bound = δ·√(2 − 2·0.8) = δ·√0.4.
    const z = twoSidedZ(0.95)
    const half = (z * Math.sqrt(2.5 + (z * z) / 4)) / (10 + z * z)
    const interval = newcombePairedInterval({ both: 5, aOnly: 0, bOnly: 0, neither: 5 })!
    expect(interval.difference).toBe(0)
    expect(interval.low).toBeCloseTo(-half * Math.sqrt(0.4), 12)
    expect(interval.high).toBeCloseTo(half * Math.sqrt(0.4), 12)
    expect(interval.high).toBeCloseTo(0.16659, 5)
  })

  test('every pair discordant one way, by hand: B alone passes 7 of 7', () => {
    // p_B = 1, p_A = 0, θ = 1; a margin is empty, so φ = 0. Wilson 7/7 low = 7/(7 + z²), 0/7 high = z²/(7 + z²):
    // L = 1 − √((1 − 7/(7 + z²))² + (z²/(7 + z²))²) = 1 − √2·z²/(7 + z²); U = 1.
    const z2 = twoSidedZ(0.95) ** 2
    const interval = newcombePairedInterval({ both: 0, aOnly: 0, bOnly: 7, neither: 0 })!
    expect(interval.difference).toBe(1)
    expect(interval.low).toBeCloseTo(1 - (Math.SQRT2 * z2) / (7 + z2), 12)
    expect(interval.low).toBeCloseTo(0.4989, 4)
    expect(interval.high).toBe(1)
  })

  test('n = 1, by hand: A passes, B fails', () => {
    // θ = −1, φ = 0 (empty margins). L = −1. U = −1 + √((1 − 1/(1 + z²))² + (z²/(1 + z²))²) = −1 + √2·z²/(1 + z²).
    const z2 = twoSidedZ(0.95) ** 2
    const interval = newcombePairedInterval({ both: 0, aOnly: 1, bOnly: 0, neither: 0 })!
    expect(interval.difference).toBe(-1)
    expect(interval.low).toBe(-1)
    expect(interval.high).toBeCloseTo(-1 + (Math.SQRT2 * z2) / (1 + z2), 12)
    // One concordant pair: θ = 0, the interval spans every difference a single pair allows at 95%.
    const one = newcombePairedInterval({ both: 1, aOnly: 0, bOnly: 0, neither: 0 })!
    expect(one.difference).toBe(0)
    expect(one.low).toBeCloseTo(-(1 - 1 / (1 + z2)), 12)
    expect(one.high).toBeCloseTo(1 - 1 / (1 + z2), 12)
  })

  test('is null for an empty table and refuses counts that are not whole numbers', () => {
    expect(newcombePairedInterval({ both: 0, aOnly: 0, bOnly: 0, neither: 0 })).toBeNull()
    expect(() => newcombePairedInterval({ both: 1.5, aOnly: 0, bOnly: 0, neither: 0 })).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: newcombePairedInterval: counts.both must be a whole number of items, 0 or more; found 1.5]`,
    )
  })
})

describe('mcnemarExact', () => {
  test('by hand: 2·P(X ≤ min) for X ~ Binomial(discordant, ½)', () => {
    // 12 and 2 discordant: 2·(1 + 14 + 91)/2¹⁴ = 212/16384.
    expect(mcnemarExact({ both: 20, aOnly: 2, bOnly: 12, neither: 16 })).toEqual({ discordant: 14, pValue: expect.closeTo(212 / 16384, 15) })
  })

  test('no discordant pairs: p = 1, the only outcome possible', () => {
    expect(mcnemarExact({ both: 5, aOnly: 0, bOnly: 0, neither: 5 })).toEqual({ discordant: 0, pValue: 1 })
  })

  test('all discordant one way: 7 of 7 favour B, p = 2/2⁷', () => {
    expect(mcnemarExact({ both: 0, aOnly: 0, bOnly: 7, neither: 0 })).toEqual({ discordant: 7, pValue: expect.closeTo(1 / 64, 15) })
  })

  test('n = 1: one discordant pair, p = 1 (2·½ = 1)', () => {
    expect(mcnemarExact({ both: 0, aOnly: 1, bOnly: 0, neither: 0 })).toEqual({ discordant: 1, pValue: 1 })
  })

  test('stays finite far past where 2⁻ⁿ underflows', () => {
    const { pValue } = mcnemarExact({ both: 0, aOnly: 1000, bOnly: 1100, neither: 0 })
    expect(pValue).toBeGreaterThan(0)
    expect(pValue).toBeLessThan(0.05)
  })
})

describe('pairedProportions', () => {
  test('the rates, their Wilson intervals, the difference and the test of one table', () => {
    const figures = pairedProportions({ both: 20, aOnly: 2, bOnly: 12, neither: 16 })
    expect(figures.n).toBe(50)
    expect(figures.a).toMatchObject({ passed: 22, rate: 0.44 })
    expect(figures.b).toMatchObject({ passed: 32, rate: 0.64 })
    expect(figures.difference).toBeCloseTo(0.2, 15)
    expect(figures.differenceInterval?.low).toBeCloseTo(0.0562, 4)
    expect(figures.reason).toBeNull()
  })

  test('no pair: no rate, no interval, and the reason', () => {
    const figures = pairedProportions({ both: 0, aOnly: 0, bOnly: 0, neither: 0 })
    expect(figures).toMatchObject({ n: 0, difference: null, differenceInterval: null, reason: 'no pair is decided for both systems' })
    expect(figures.a).toEqual({ passed: 0, rate: null, interval: null })
  })
})
