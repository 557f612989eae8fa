import { describe, expect, test } from 'vitest'
import { cohenKappa, confusionMatrix, kappaBootstrap, type RatingPair } from '../../../src/core/stats/cohen-kappa.js'
import { StatisticsInputError } from '../../../src/core/stats/errors.js'

function pairs(...groups: readonly [number, RatingPair][]): RatingPair[] {
  return groups.flatMap(([count, pair]) => Array.from({ length: count }, () => pair))
}

// Wikipedia, "Cohen's kappa", first worked example: 50 proposals, A and B both yes 20,
// A yes B no 5, A no B yes 10, both no 15; κ = 0.4.
const WIKIPEDIA = pairs([20, ['yes', 'yes']], [5, ['yes', 'no']], [10, ['no', 'yes']], [15, ['no', 'no']])

// Three categories, 12 units; rows are the first coder's label, columns the second's.
//        x  y  z
//    x   4  1  0
//    y   1  3  1
//    z   0  0  2
const THREE = pairs([4, ['x', 'x']], [1, ['x', 'y']], [1, ['y', 'x']], [3, ['y', 'y']], [1, ['y', 'z']], [2, ['z', 'z']])

describe('cohenKappa', () => {
  test("Wikipedia's worked example: κ = 0.4", () => {
    // p_o = 35/50 = 0.7; p_yes(A) = 25/50, p_yes(B) = 30/50; p_e = 0.5·0.6 + 0.5·0.4 = 0.5; κ = 0.2/0.5.
    expect(cohenKappa(WIKIPEDIA)).toMatchObject({ n: 50, reason: null })
    expect(cohenKappa(WIKIPEDIA).kappa).toBeCloseTo(0.4, 12)
    expect(cohenKappa(WIKIPEDIA).po).toBeCloseTo(0.7, 12)
    expect(cohenKappa(WIKIPEDIA).pe).toBeCloseTo(0.5, 12)
  })

  test('three categories, by hand', () => {
    // Row totals 5, 5, 2; column totals 5, 4, 3; agreeing 4 + 3 + 2 = 9 of 12.
    // κ = (12·9 − (5·5 + 5·4 + 2·3))/(12² − 51) = (108 − 51)/93 = 19/31.
    expect(cohenKappa(THREE).kappa).toBeCloseTo(19 / 31, 12)
  })

  test('perfect agreement is 1, systematic disagreement on a balanced scale is −1', () => {
    expect(cohenKappa(pairs([3, ['a', 'a']], [2, ['b', 'b']])).kappa).toBeCloseTo(1, 12)
    // p_o = 0, p_e = 0.5·0.5 + 0.5·0.5 = 0.5: κ = −0.5/0.5.
    expect(cohenKappa(pairs([5, ['a', 'b']], [5, ['b', 'a']])).kappa).toBeCloseTo(-1, 12)
  })

  test('one coder who never varies agrees no better than chance: κ = 0', () => {
    // A always "meets"; B "meets" 6 of 10. p_o = 0.6, p_e = 1·0.6 + 0·0.4 = 0.6: κ = 0/0.4.
    expect(cohenKappa(pairs([6, ['meets', 'meets']], [4, ['meets', 'not']])).kappa).toBeCloseTo(0, 12)
  })

  test('unused categories of the scale do not change κ; labels outside it are refused', () => {
    expect(cohenKappa(WIKIPEDIA, ['yes', 'no', 'maybe']).kappa).toBeCloseTo(0.4, 12)
    expect(() => cohenKappa(WIKIPEDIA, ['yes'])).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: cohenKappa: pairs[20][1] is "no", which is not in categories ("yes")]`,
    )
  })

  test('is null with a reason without pairs or without variation', () => {
    expect(cohenKappa([])).toEqual({ n: 0, kappa: null, po: null, pe: null, reason: 'no pairs of ratings' })
    expect(cohenKappa(pairs([4, ['meets', 'meets']]))).toEqual({
      n: 4,
      kappa: null,
      po: 1,
      pe: 1,
      reason: 'no variation: both coders labelled every unit "meets"',
    })
  })

  test('a pair needs exactly two labels', () => {
    expect(() =>
      cohenKappa([
        ['a', 'b'],
        ['a', null],
      ] as unknown as RatingPair[]),
    ).toThrow(StatisticsInputError)
    expect(() => cohenKappa([['a', 'b', 'c']] as unknown as RatingPair[])).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: cohenKappa: pairs[0] must hold exactly two labels, [first coder, second coder], and no null]`,
    )
  })
})

describe('kappaBootstrap', () => {
  test('is reproducible by seed and contains κ', () => {
    const first = kappaBootstrap(WIKIPEDIA, { seed: 'kappa', samples: 1000 })
    expect(kappaBootstrap(WIKIPEDIA, { seed: 'kappa', samples: 1000 })).toEqual(first)
    expect(kappaBootstrap(WIKIPEDIA, { seed: 'other', samples: 1000 })).not.toEqual(first)
    expect(first?.low).toBeLessThan(0.4)
    expect(first?.high).toBeGreaterThan(0.4)
    expect(first).toMatchObject({ samples: 1000, skipped: 0 })
  })

  test('a wider level gives a wider interval from the same replicates', () => {
    const narrow = kappaBootstrap(THREE, { seed: 3, level: 0.8 })
    const wide = kappaBootstrap(THREE, { seed: 3, level: 0.99 })
    expect(wide?.low).toBeLessThanOrEqual(narrow?.low as number)
    expect(wide?.high).toBeGreaterThanOrEqual(narrow?.high as number)
    expect((wide?.high as number) - (wide?.low as number)).toBeGreaterThan((narrow?.high as number) - (narrow?.low as number))
  })

  test('skips replicates without variation and counts them', () => {
    // Pairs (a,a) and (b,b): κ = 1. A replicate of one pair twice (probability 1/2) has p_e = 1.
    const result = kappaBootstrap(
      [
        ['a', 'a'],
        ['b', 'b'],
      ],
      { seed: 9, samples: 400 },
    )
    expect(result?.skipped).toBeGreaterThan(100)
    expect((result?.samples ?? 0) + (result?.skipped ?? 0)).toBe(400)
    expect(result).toMatchObject({ low: 1, high: 1 })
  })

  test('is null when κ is', () => {
    expect(kappaBootstrap([], { seed: 1 })).toBeNull()
    expect(kappaBootstrap(pairs([3, ['meets', 'meets']]), { seed: 1 })).toBeNull()
  })
})

describe('confusionMatrix', () => {
  test('counts every cell, zeros included', () => {
    expect(confusionMatrix(THREE, ['x', 'y', 'z'], ['x', 'y', 'z', 'w'])).toEqual({
      x: { x: 4, y: 1, z: 0, w: 0 },
      y: { x: 1, y: 3, z: 1, w: 0 },
      z: { x: 0, y: 0, z: 2, w: 0 },
    })
    expect(confusionMatrix([], ['meets'], ['meets', 'not'])).toEqual({ meets: { meets: 0, not: 0 } })
  })

  test('a category named like an Object property is an ordinary key', () => {
    const matrix = confusionMatrix([['__proto__', 'constructor']], ['__proto__'], ['constructor'])
    expect(Object.keys(matrix)).toEqual(['__proto__'])
    // biome-ignore lint/suspicious/noProto: a rating named __proto__ must be an ordinary key
    expect(matrix['__proto__']).toEqual({ constructor: 1 })
  })

  test('refuses labels outside the lists and duplicate categories', () => {
    expect(() => confusionMatrix([['x', 'q']], ['x'], ['x'])).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: confusionMatrix: pairs[0][1] is "q", which is not in columnCategories ("x")]`,
    )
    expect(() => confusionMatrix([], [1, '1'] as never, ['x'])).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: confusionMatrix: rowCategories lists "1" twice; each category must appear once]`,
    )
  })
})
