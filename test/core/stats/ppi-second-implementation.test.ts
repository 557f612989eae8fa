// Cross-checks ppiMean against a second implementation written in NumPy from the papers
// (test/reference/generate_ppi.py): its values for 400 splits drawn from a fixed seed are committed in
// test/reference/ppi-second-implementation.json, so the test runs no Python.
import { describe, expect, test } from 'vitest'
import { ppiMean } from '../../../src/core/stats/ppi.js'
import type { PpiSampledCase } from '../../../src/core/stats/ppi-input.js'
import { generatorSha256, readReference, type ReferenceHeader } from '../../helpers/reference.js'

interface Bounded {
  estimate: number
  se: number
  low: number
  high: number
}

interface ReferenceCase {
  design: 'uniform' | 'stratified' | 'active'
  /** One character a case: the judge label in quarters ('0' to '4'), 'x' for none. */
  judge: string
  sample: {
    index: number[]
    /** '0', '1', or 'p' for pending. */
    human: string
    /** One number (uniform), one per stratum initial (stratified) or one per sampled case (active). */
    probability: number | Record<string, number> | number[]
    stratum?: string
  }
  options: { level: number; lambda: 'tuned' | number; worstCase: boolean }
  expected:
    | ({
        status: 'estimate'
        lambda: number
        cases: number
        sampled: number
        decided: number
        pending: number
        classical: Bounded
        judgeOnly: number
        effectiveReviews: number
        worstCase: { low: number; high: number } | null
      } & Bounded)
    | { status: 'unsupported'; reason: string; cases: number; sampled: number; decided: number; pending: number }
}

const reference = readReference<ReferenceHeader & { cases: ReferenceCase[] }>('ppi-second-implementation.json')

function inputOf({ judge, sample }: ReferenceCase): { judge: (number | null)[]; sample: PpiSampledCase[] } {
  return {
    judge: [...judge].map((c) => (c === 'x' ? null : Number(c) / 4)),
    sample: sample.index.map((index, j) => {
      const stratum = sample.stratum?.[j]
      const { probability } = sample
      const human = sample.human[j] === 'p' ? null : sample.human[j] === '1' ? 1 : 0
      const pi = typeof probability === 'number' ? probability : Array.isArray(probability) ? probability[j]! : probability[stratum!]!
      return stratum === undefined ? { index, probability: pi, human } : { index, probability: pi, human, stratum }
    }),
  }
}

// 1e-9, as absolute differences: every figure is a rate, a standard error or λ, all of order 1 or less
// (effectiveReviews, of order n, is compared relatively).
const close = (actual: number | undefined, expected: number, what: string) => expect(Math.abs((actual ?? Number.NaN) - expected), what).toBeLessThan(1e-9)

describe('prediction-powered estimate: second implementation', () => {
  test('the reference values are those test/reference/generate_ppi.py computes, for hundreds of splits of every design', () => {
    expect(reference.scriptSha256, 'test/reference/generate_ppi.py changed: run it again (CONTRIBUTING.md)').toBe(generatorSha256('generate_ppi.py'))
    const estimates = reference.cases.filter(({ expected }) => expected.status === 'estimate')
    expect(reference.cases.length).toBeGreaterThanOrEqual(400)
    for (const design of ['uniform', 'stratified', 'active']) expect(estimates.filter((c) => c.design === design).length, design).toBeGreaterThanOrEqual(40)
    expect(estimates.filter(({ expected }) => expected.status === 'estimate' && expected.worstCase !== null).length).toBeGreaterThanOrEqual(30)
    const reasons = new Set(reference.cases.map(({ expected }) => (expected.status === 'unsupported' ? expected.reason : null)))
    expect([...reasons].sort()).toEqual(
      ['degenerate-variance', 'judge-missing', 'stratum-too-small', 'too-few-per-label', 'too-few-reviews', null].sort((a, b) =>
        String(a).localeCompare(String(b)),
      ),
    )
  })

  test('the estimate, λ, both intervals, the judge-only rate, the effective reviews and the worst case equal NumPy’s to 1e-9', () => {
    for (const [i, c] of reference.cases.entries()) {
      const actual = ppiMean(inputOf(c), c.options)
      const { expected } = c
      const where = `case ${i} (${c.design})`
      expect(actual.status, where).toBe(expected.status)
      expect([actual.cases, actual.sampled, actual.decided, actual.pending], where).toEqual([
        expected.cases,
        expected.sampled,
        expected.decided,
        expected.pending,
      ])
      if (actual.status === 'unsupported' || expected.status === 'unsupported') {
        expect(actual.status === 'unsupported' && actual.reason, where).toBe(expected.status === 'unsupported' && expected.reason)
        continue
      }
      close(actual.lambda, expected.lambda, `${where} λ`)
      for (const key of ['estimate', 'se', 'low', 'high'] as const) {
        close(actual[key], expected[key], `${where} ${key}`)
        close(actual.classical[key], expected.classical[key], `${where} classical ${key}`)
      }
      close(actual.judgeOnly.rate, expected.judgeOnly, `${where} judge-only`)
      close(actual.effectiveReviews / expected.effectiveReviews, 1, `${where} effective reviews`)
      expect(actual.worstCase === null, where).toBe(expected.worstCase === null)
      if (expected.worstCase !== null) {
        close(actual.worstCase?.low, expected.worstCase.low, `${where} worst low`)
        close(actual.worstCase?.high, expected.worstCase.high, `${where} worst high`)
      }
    }
  })
})
