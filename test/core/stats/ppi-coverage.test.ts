// The coverage of the prediction-powered interval, on synthetic splits of a known true rate reviewed
// by a judge of a known quality (test/bench/ppi-simulation.mjs), seeded: the 95% interval covers the
// truth in about 95% of replicates, under a uniform and an active (weighted) design, and is narrower
// than the human-only interval when the judge is good. test/bench/ppi-coverage.mjs runs the larger
// grid whose table is in docs/statistics.md.
import { describe, expect, test } from 'vitest'
import { ppiMean } from '../../../src/core/stats/ppi.js'
import { ppiDifference } from '../../../src/core/stats/ppi-difference.js'
import { createRandom } from '../../../src/core/stats/random.js'
import { activeProbabilities } from '../../../src/core/sample/draw-judge.js'
import { coverage, JUDGES, PAIRED_JUDGES, pairedCoverage, type Design } from '../../bench/ppi-simulation.mjs'

const REPLICATES = 1000
// Three binomial standard deviations of a coverage of 95% over REPLICATES intervals: a correct
// interval falls outside this band about once in 370 runs of a seed, and this seed is fixed.
const TOLERANCE = 3 * Math.sqrt((0.95 * 0.05) / REPLICATES)
const judge = (name: string) => JUDGES.find((j) => j.name === name)!

describe.each<Design>(['uniform', 'active'])('coverage of the 95%% interval, %s design', (design) => {
  test.each(['good', 'biased to accept'])('a %s judge: the truth is covered in 95% of 1,000 splits, within a binomial tolerance', (name) => {
    const figures = coverage(
      { ppiMean, createRandom },
      { seed: `${design} ${name}`, replicates: REPLICATES, cases: 2000, size: 200, rate: 0.7, judge: judge(name), design },
    )
    expect(figures.refused).toBe(0)
    expect(figures.ppiCoverage).toBeGreaterThanOrEqual(0.95 - TOLERANCE)
    expect(figures.ppiCoverage).toBeLessThanOrEqual(0.95 + TOLERANCE)
    expect(figures.classicalCoverage).toBeGreaterThanOrEqual(0.95 - TOLERANCE)
  })
})

// The designs `vitest-rubric sample` draws by the judge: `--method active` with its own probabilities
// (activeProbabilities, capped at 1), and `--by decision` (the simulation's stratified design: strata
// the judge's label, proportional allocation).
describe.each([
  ['active, as sample --method active draws it', 'active'],
  ['stratified by the judge’s decision, as sample --by decision draws it', 'stratified'],
] as const)('coverage of the 95%% interval, %s', (_, design) => {
  test.each(['good', 'biased to accept', 'poor'])('a %s judge: the truth is covered in 95% of 1,000 splits, within a binomial tolerance', (name) => {
    const figures = coverage(
      { ppiMean, createRandom, activeProbabilities },
      { seed: `sample ${design} ${name}`, replicates: REPLICATES, cases: 2000, size: 200, rate: 0.7, judge: judge(name), design },
    )
    expect(figures.refused).toBe(0)
    expect(figures.ppiCoverage).toBeGreaterThanOrEqual(0.95 - TOLERANCE)
    expect(figures.ppiCoverage).toBeLessThanOrEqual(0.95 + TOLERANCE)
    expect(figures.classicalCoverage).toBeGreaterThanOrEqual(0.95 - TOLERANCE)
  })
})

test('with a good judge the PPI interval is narrower than the human-only one on the same sample, and worth more reviews than were made', () => {
  const figures = coverage(
    { ppiMean, createRandom },
    { seed: 'width', replicates: 300, cases: 2000, size: 200, rate: 0.7, judge: judge('good'), design: 'uniform' },
  )
  expect(figures.ppiWidth).toBeLessThan(0.8 * figures.classicalWidth)
  expect(figures.effectiveReviews).toBeGreaterThan(1.5 * figures.reviews)
})

test('the judge-only rate of a biased judge misses the truth, which the PPI interval covers', () => {
  const figures = coverage(
    { ppiMean, createRandom },
    { seed: 'bias', replicates: 200, cases: 2000, size: 200, rate: 0.7, judge: judge('biased to accept'), design: 'uniform' },
  )
  expect(figures.judgeError).toBeGreaterThan(0.05)
  expect(figures.ppiCoverage).toBeGreaterThanOrEqual(0.95 - 3 * Math.sqrt((0.95 * 0.05) / 200))
})

describe.each<Design>(['uniform', 'active'])('coverage of the 95%% interval of the paired difference B − A, %s design', (design) => {
  test.each(['good', 'favours B'])('a %s judge: the split’s B − A is covered in 95% of 1,000 paired splits, within a binomial tolerance', (name) => {
    const figures = pairedCoverage(
      { ppiDifference, createRandom },
      { seed: `paired ${design} ${name}`, replicates: REPLICATES, cases: 2000, size: 200, judge: PAIRED_JUDGES.find((j) => j.name === name)!, design },
    )
    expect(figures.refused).toBe(0)
    expect(figures.ppiCoverage).toBeGreaterThanOrEqual(0.95 - TOLERANCE)
    expect(figures.ppiCoverage).toBeLessThanOrEqual(0.95 + TOLERANCE)
    expect(figures.classicalCoverage).toBeGreaterThanOrEqual(0.95 - TOLERANCE)
  })
})

test('the paired difference: a judge that favours B makes the judge-only B − A miss the truth, which the PPI interval covers, narrower than the human-only one', () => {
  const figures = pairedCoverage(
    { ppiDifference, createRandom },
    { seed: 'paired bias', replicates: 300, cases: 2000, size: 200, judge: PAIRED_JUDGES.find((j) => j.name === 'favours B')!, design: 'uniform' },
  )
  expect(figures.judgeError).toBeGreaterThan(0.05)
  expect(figures.ppiCoverage).toBeGreaterThanOrEqual(0.95 - 3 * Math.sqrt((0.95 * 0.05) / 300))
  expect(figures.ppiWidth).toBeLessThan(figures.classicalWidth)
})
