// The design variance of the prediction-powered estimate is the design's: over every sample a
// design can draw from a small split, the weighted rectifier's mean is the split's mean rectifier and
// the variance estimate's mean is the estimator's true variance, exactly, for a uniform draw without
// replacement and for a stratified one (the textbook unbiasedness, Cochran 1977, ch. 2 and 5).
import { describe, expect, test } from 'vitest'
import { designMoments, type WeightedUnit } from '../../../src/core/stats/ppi-design.js'

/** Every subset of `count` of `items`. */
function subsets<T>(items: readonly T[], count: number): T[][] {
  if (count === 0) return [[]]
  if (items.length < count) return []
  const [first, ...rest] = items as [T, ...T[]]
  return [...subsets(rest, count - 1).map((subset) => [first, ...subset]), ...subsets(rest, count)]
}

const LAMBDA = 0.6
const humans = [1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0]
const judges = [1, 0, 1, 0, 1, 1, 0.5, 0, 1, 1, 1]

/** The rectifier's estimate θ̂ − λ·f̄_N and its variance estimate, from designMoments. */
function rectifier(units: readonly WeightedUnit[]): { estimate: number; variance: number } {
  const m = designMoments(units)
  return {
    estimate: m.humanMean - LAMBDA * m.judgeMean,
    variance: m.humanVariance - 2 * LAMBDA * m.covariance + LAMBDA * LAMBDA * m.judgeVariance,
  }
}

function expectExact(draws: readonly { estimate: number; variance: number }[]) {
  const meanRectifier = humans.reduce((sum, y, i) => sum + y - LAMBDA * judges[i]!, 0) / humans.length
  const mean = draws.reduce((sum, d) => sum + d.estimate, 0) / draws.length
  const trueVariance = draws.reduce((sum, d) => sum + (d.estimate - mean) ** 2, 0) / draws.length
  const meanEstimate = draws.reduce((sum, d) => sum + d.variance, 0) / draws.length
  expect(mean).toBeCloseTo(meanRectifier, 13)
  expect(trueVariance).toBeGreaterThan(0)
  expect(meanEstimate).toBeCloseTo(trueVariance, 13)
}

describe('the design variance, over every sample a design can draw', () => {
  test('a uniform draw of 4 of 11 cases without replacement (330 samples): unbiased estimate, unbiased variance', () => {
    const cases = humans.map((_, i) => i)
    const draws = subsets(cases, 4).map((sample) => rectifier(sample.map((i) => ({ probability: 4 / 11, human: humans[i]!, judge: judges[i]!, stratum: '' }))))
    expect(draws).toHaveLength(330)
    expectExact(draws)
  })

  test('a stratified draw, 3 of the first 6 cases and 2 of the other 5 (200 samples): unbiased estimate, unbiased variance', () => {
    const first = [0, 1, 2, 3, 4, 5]
    const second = [6, 7, 8, 9, 10]
    const unit = (i: number, stratum: 'a' | 'b'): WeightedUnit => ({
      probability: stratum === 'a' ? 3 / 6 : 2 / 5,
      human: humans[i]!,
      judge: judges[i]!,
      stratum,
    })
    const draws = subsets(first, 3).flatMap((a) => subsets(second, 2).map((b) => rectifier([...a.map((i) => unit(i, 'a')), ...b.map((i) => unit(i, 'b'))])))
    expect(draws).toHaveLength(200)
    expectExact(draws)
  })

  test('without the strata, the same stratified draws get another design’s variance, here too small: strata are part of the design', () => {
    const first = [0, 1, 2, 3, 4, 5]
    const second = [6, 7, 8, 9, 10]
    const unit = (i: number, probability: number): WeightedUnit => ({ probability, human: humans[i]!, judge: judges[i]!, stratum: '' })
    const draws = subsets(first, 3).flatMap((a) => subsets(second, 2).map((b) => rectifier([...a.map((i) => unit(i, 0.5)), ...b.map((i) => unit(i, 0.4))])))
    const mean = draws.reduce((sum, d) => sum + d.estimate, 0) / draws.length
    const trueVariance = draws.reduce((sum, d) => sum + (d.estimate - mean) ** 2, 0) / draws.length
    expect(draws.reduce((sum, d) => sum + d.variance, 0) / draws.length).toBeLessThan(0.9 * trueVariance)
  })
})
