// Cross-checks against a second implementation: scikit-learn (Cohen's kappa), statsmodels (Wilson
// interval), SciPy (normal quantile) and NumPy (type 7 percentiles). Their values for hundreds of
// fixed inputs are committed in test/reference/second-implementation.json, so the tests need no
// Python; test/reference/generate.py computes them again (see CONTRIBUTING.md).
import { describe, expect, test } from 'vitest'
import { cohenKappa, type RatingPair } from '../../../src/core/stats/cohen-kappa.js'
import { wilsonInterval } from '../../../src/core/stats/intervals.js'
import { normalQuantile } from '../../../src/core/stats/normal-quantile.js'
import { percentileInterval } from '../../../src/core/stats/percentile.js'
import { generatorSha256, readReference, type ReferenceHeader } from '../../helpers/reference.js'

interface SecondImplementation extends ReferenceHeader {
  readonly labels: string[]
  /** Each coder's labels as indexes into `labels`; `kappa` is null where scikit-learn gives NaN. */
  readonly kappa: { a: number[]; b: number[]; kappa: number | null }[]
  readonly wilson: { s: number; n: number; level: number; interval: [number, number] }[]
  readonly ndtri: { p: number; ndtri: number }[]
  readonly percentile: { samples: number[]; level: number; interval: [number, number] }[]
}

const reference = readReference<SecondImplementation>('second-implementation.json')

describe('second implementation', () => {
  test('the reference values are those test/reference/generate.py computes, for hundreds of inputs', () => {
    expect(reference.scriptSha256, 'test/reference/generate.py changed: run it again (CONTRIBUTING.md)').toBe(generatorSha256())
    expect(reference.kappa.length).toBeGreaterThanOrEqual(300)
    expect(reference.wilson.length).toBeGreaterThanOrEqual(200)
    expect(reference.ndtri.length).toBeGreaterThanOrEqual(200)
    expect(reference.percentile.length).toBeGreaterThanOrEqual(100)
  })

  test("Cohen's kappa equals scikit-learn's cohen_kappa_score, null where it is NaN", () => {
    const label = (index: number) => reference.labels[index] as string
    let undefinedCases = 0
    for (const [i, { a, b, kappa: expected }] of reference.kappa.entries()) {
      const pairs = a.map((first, unit): RatingPair => [label(first), label(b[unit] as number)])
      const actual = cohenKappa(pairs).kappa
      if (expected === null) {
        undefinedCases++
        expect(actual, `kappa set ${i}`).toBeNull()
      } else expect(actual, `kappa set ${i}`).toBeCloseTo(expected, 12)
    }
    // The sample must exercise the undefined case, not only the ordinary one.
    expect(undefinedCases).toBeGreaterThan(0)
  })

  test("the Wilson interval equals statsmodels' proportion_confint(method='wilson')", () => {
    for (const {
      s,
      n,
      level,
      interval: [low, high],
    } of reference.wilson) {
      const interval = wilsonInterval(s, n, { level })
      expect(interval?.low, `wilson ${s}/${n} at ${level}`).toBeCloseTo(low, 12)
      expect(interval?.high, `wilson ${s}/${n} at ${level}`).toBeCloseTo(high, 12)
    }
  })

  test("the normal quantile equals SciPy's ndtri", () => {
    for (const { p, ndtri } of reference.ndtri) expect(normalQuantile(p), `p = ${p}`).toBeCloseTo(ndtri, 12)
  })

  test("percentileInterval equals NumPy's default (linear) percentile", () => {
    for (const [
      i,
      {
        samples,
        level,
        interval: [low, high],
      },
    ] of reference.percentile.entries()) {
      expect(percentileInterval(samples, level)?.low, `percentile set ${i}`).toBeCloseTo(low, 12)
      expect(percentileInterval(samples, level)?.high, `percentile set ${i}`).toBeCloseTo(high, 12)
    }
  })
})
