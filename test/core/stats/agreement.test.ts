import { describe, expect, test } from 'vitest'
import { gwetAc1, percentAgreement } from '../../../src/core/stats/agreement.js'
import { cohenKappa, type RatingPair } from '../../../src/core/stats/cohen-kappa.js'
import { StatisticsInputError } from '../../../src/core/stats/errors.js'
import { createRandom } from '../../../src/core/stats/random.js'

const _ = null
const SCALE = ['meets', 'does_not_meet']

function repeat<T>(count: number, item: T): T[] {
  return Array.from({ length: count }, () => item)
}

// Two raters, 100 units: 95 both "meets", 3 only A "meets", 2 only B "meets", none both "does_not_meet".
const HIGH_AGREEMENT: (string | null)[][] = [
  ...repeat(95, ['meets', 'meets']),
  ...repeat(3, ['meets', 'does_not_meet']),
  ...repeat(2, ['does_not_meet', 'meets']),
]

describe('percentAgreement', () => {
  test('pools agreeing pairs over all pairs within units', () => {
    // (a,a,b): 3 pairs, 1 agrees.  (a,a): 1 pair, agrees.  (b,–): no pair.  2 of 4 pairs agree.
    expect(
      percentAgreement([
        ['a', 'a', 'b'],
        ['a', 'a'],
        ['b', _],
      ]),
    ).toEqual({ agreement: 0.5, reason: null, units: 2, pairs: 4 })
  })

  test('with two raters and no gap, it is the share of units they agree on', () => {
    expect(percentAgreement(HIGH_AGREEMENT).agreement).toBeCloseTo(0.95, 12)
  })

  test('is null when no unit has two ratings', () => {
    expect(
      percentAgreement([
        ['a', _],
        [_, 'b'],
      ]),
    ).toEqual({ agreement: null, reason: 'no unit has ratings from two coders', units: 0, pairs: 0 })
  })
})

describe('gwetAc1', () => {
  test('stays high where kappa collapses (high agreement on a skewed scale)', () => {
    // p_a = 95/100 = 0.95.  π_meets = ((98 + 97)/100)/2 = 0.975, π_not = 0.025.
    // p_e = (1/(2 − 1))·(0.975·0.025 + 0.025·0.975) = 0.04875.
    // AC1 = (0.95 − 0.04875)/(1 − 0.04875) = 0.90125/0.95125 = 721/761 ≈ 0.9474.
    const ac1 = gwetAc1(HIGH_AGREEMENT, SCALE)
    expect(ac1.pa).toBeCloseTo(0.95, 12)
    expect(ac1.pe).toBeCloseTo(0.04875, 12)
    expect(ac1.ac1).toBeCloseTo(721 / 761, 12)
    // Kappa on the same ratings: p_e = 0.98·0.97 + 0.02·0.03 = 0.9512;
    // κ = (0.95 − 0.9512)/(1 − 0.9512) = −0.0012/0.0488 = −3/122 ≈ −0.0246.
    const kappa = cohenKappa(HIGH_AGREEMENT as unknown as RatingPair[], SCALE)
    expect(kappa.kappa).toBeCloseTo(-3 / 122, 12)
  })

  test('three raters with missing ratings', () => {
    // Units (a,a,a) (a,a,b) (a,b,–) (b,–,–).
    // p_a over the 3 units with ≥ 2 ratings: (3·2/6 + 2·1/6 + 0/2)/3 = (1 + 1/3 + 0)/3 = 4/9.
    // π_a over the 4 rated units: (1 + 2/3 + 1/2 + 0)/4 = 13/24, π_b = 11/24.
    // q = 2: p_e = 2·(13/24)·(11/24) = 286/576 = 143/288; AC1 = (128/288 − 143/288)/(145/288) = −15/145.
    const units = [
      ['a', 'a', 'a'],
      ['a', 'a', 'b'],
      ['a', 'b', _],
      ['b', _, _],
    ]
    const result = gwetAc1(units, ['a', 'b'])
    expect(result.pa).toBeCloseTo(4 / 9, 12)
    expect(result.pe).toBeCloseTo(143 / 288, 12)
    expect(result.ac1).toBeCloseTo(-15 / 145, 12)
    expect(result).toMatchObject({ units: 3, rated: 4, categories: 2 })
    // q counts the scale, not what was observed: with an unused third category π_c = 0 and
    // p_e = (1/2)·(286/576) = 143/576, so AC1 = (256/576 − 143/576)/(433/576) = 113/433.
    expect(gwetAc1(units, ['a', 'b', 'c']).ac1).toBeCloseTo(113 / 433, 12)
  })

  test('for two raters and q = 2 it is the two-rater formula, p_e = 2π(1 − π)', () => {
    const random = createRandom('two-rater')
    for (let set = 0; set < 50; set++) {
      const n = 5 + Math.floor(random() * 60)
      const skew = random()
      const label = () => (random() < skew ? 'meets' : 'does_not_meet')
      const units = Array.from({ length: n }, () => {
        const a = label()
        return [a, random() < 0.7 ? a : label()]
      })
      // Gwet (2008), two raters: π = (n_A,meets + n_B,meets)/(2n), p_e = 2π(1 − π), p_a = agreeing units / n.
      const meets = units.flat().filter((value) => value === 'meets').length
      const pi = meets / (2 * n)
      const pe = 2 * pi * (1 - pi)
      const pa = units.filter(([a, b]) => a === b).length / n
      expect(gwetAc1(units, SCALE).ac1).toBeCloseTo((pa - pe) / (1 - pe), 12)
    }
  })

  test('is 1 when every rating is the same category (where kappa and alpha are null)', () => {
    // π = (1, 0): p_e = 0, p_a = 1, AC1 = 1.
    expect(gwetAc1(repeat(10, ['meets', 'meets']), SCALE)).toMatchObject({ ac1: 1, pa: 1, pe: 0 })
  })

  test('is null without a unit rated twice, or with a one-category scale', () => {
    expect(
      gwetAc1(
        [
          ['meets', _],
          [_, 'meets'],
        ],
        SCALE,
      ),
    ).toMatchObject({ ac1: null, reason: 'no unit has ratings from two coders' })
    expect(gwetAc1([['meets', 'meets']], ['meets'])).toMatchObject({ ac1: null, reason: 'AC1 needs a scale of at least two categories; found 1' })
  })

  test('refuses a rating outside the scale, and a scale that lists a category twice', () => {
    expect(() => gwetAc1([['meets', 'exceeds']], SCALE)).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: gwetAc1: units[0][1] is "exceeds", which is not in categories ("meets", "does_not_meet")]`,
    )
    expect(() => gwetAc1([['meets', 'meets']], ['meets', 'meets'])).toThrow(StatisticsInputError)
  })
})
