import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { evaluateFixture } from '../../../../src/core/engine/evaluate.js'
import { loadFixture } from '../../../../src/core/registry.js'
import type { BenchmarkFigures } from '../../../../src/core/kinds/scored/benchmark.js'
import { ROOT } from '../../../helpers/fixture-copy.js'

const DEBATE = join(ROOT, 'fixtures/debate-benchmark')

async function benchmark(options: Parameters<typeof evaluateFixture>[1] = {}): Promise<BenchmarkFigures> {
  return evaluateFixture(await loadFixture(DEBATE), options).summary as BenchmarkFigures
}

describe('the bundled debate benchmark, with its uncertainty', () => {
  test('the paired margin over the cases scoreable for both systems, and its standard error by hand', async () => {
    const figures = await benchmark()
    // The eight cases scoreable for both (debate mean, baseline mean), read off the case decisions.
    const pairs: [number, number][] = [
      [0.95, 0.4],
      [0.8933333333333333, 0.7],
      [0.875, 0.4],
      [0.8333333333333334, 0.5],
      [0.4, 0.8],
      [1, 0.5],
      [1, 0.6],
      [0.8, 0.6],
    ]
    const differences = pairs.map(([a, b]) => a - b)
    const mean = differences.reduce((sum, value) => sum + value, 0) / differences.length
    const se = Math.sqrt(differences.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (differences.length * (differences.length - 1)))
    expect(figures.paired.n).toBe(8)
    expect(figures.paired.mean).toBeCloseTo(mean, 12)
    expect(figures.paired.se).toBeCloseTo(se, 12)
    // Python's statistics.stdev(differences) / sqrt(8), computed apart.
    expect(figures.paired.se).toBeCloseTo(0.10797350383201383, 12)
    // The interval is seeded, holds the estimate, and here does not clear the rubric's 0.10.
    const [low, high] = figures.paired.interval!
    expect(low).toBeLessThan(mean)
    expect(high).toBeGreaterThan(mean)
    expect(low).toBeLessThan(0.1)
    expect(figures.paired.lowerBoundClears).toBe(false)
    expect((await benchmark()).paired.interval).toEqual(figures.paired.interval)
    expect((await benchmark({ seed: 7 })).paired.interval).not.toEqual(figures.paired.interval)
  })

  test("the pass fraction's Wilson interval and the mean's standard error", async () => {
    const { system } = await benchmark()
    expect(system.passed).toBe(6)
    expect(system.scoreable).toBe(9)
    // statsmodels' proportion_confint(6, 9, method='wilson').
    expect(system.passInterval![0]).toBeCloseTo(0.3542021355803963, 10)
    expect(system.passInterval![1]).toBeCloseTo(0.879416181613089, 10)
    // Python's statistics.stdev of the nine scoreable means / sqrt(9).
    expect(system.meanSe).toBeCloseTo(0.06047784967889702, 12)
  })

  test("the rubric's gate stays the point estimate; marginGate: 'lower-bound' makes the interval's lower bound the gate", async () => {
    const point = await benchmark()
    expect(point.marginGate).toBe('point')
    expect(point.gates.baseline.passed).toBe(true)
    const strict = await benchmark({ marginGate: 'lower-bound' })
    expect(strict.gates.baseline.passed).toBe(false)
    expect(strict.gates.baseline.message).toMatch(
      /^fails the lower-bound gate: paired 95% interval \[0\.06\d*, 0\.44\d*\] over 8 cases, lower bound 0\.06\d* < 0\.10; beats the baseline: /,
    )
    // The other figures do not move.
    expect(strict.margin).toBe(point.margin)
    expect(strict.gates.benchmark).toEqual(point.gates.benchmark)
  })
})
