// Cross-checks ppiDifference against a second implementation written in NumPy from the definitions
// (test/reference/generate_ppi_paired.py): its values for 400 paired splits drawn from a fixed seed are
// committed in test/reference/ppi-paired-second-implementation.json, so the test runs no Python.
import { describe, expect, test } from 'vitest'
import { ppiDifference, type PpiDifferenceInput, type PpiPairedCase } from '../../../src/core/stats/ppi-difference.js'
import { generatorSha256, readReference, type ReferenceHeader } from '../../helpers/reference.js'

interface Bounded {
  estimate: number
  se: number
  low: number
  high: number
}

interface ReferenceCase {
  design: 'uniform' | 'stratified' | 'active'
  /** One character a task: the judge label of A's (B's) answer in quarters ('0' to '4'), 'x' for none. */
  judgeA: string
  judgeB: string
  sample: {
    index: number[]
    /** '0', '1', or 'p' for pending: A's side and B's side. */
    a: string
    b: string
    probability: number | Record<string, number> | number[]
    stratum?: string
  }
  options: { level: number; lambda: 'tuned' | number; worstCase: boolean; estimand: 'split' | 'system' }
  expected:
    | ({
        status: 'estimate'
        lambda: number
        cases: number
        sampled: number
        decided: number
        pending: number
        classical: Bounded
        judgeOnly: { a: number; b: number; difference: number }
        discordant: number
        effectiveReviews: number
        worstCase: { low: number; high: number } | null
      } & Bounded)
    | { status: 'unsupported'; reason: string; cases: number; sampled: number; decided: number; pending: number }
}

const reference = readReference<ReferenceHeader & { cases: ReferenceCase[] }>('ppi-paired-second-implementation.json')

const label = (c: string | undefined) => (c === 'p' ? null : c === '1' ? 1 : 0)

function inputOf({ judgeA, judgeB, sample }: ReferenceCase): PpiDifferenceInput {
  const labels = (text: string) => [...text].map((c) => (c === 'x' ? null : Number(c) / 4))
  return {
    judge: { a: labels(judgeA), b: labels(judgeB) },
    sample: sample.index.map((index, j): PpiPairedCase => {
      const stratum = sample.stratum?.[j]
      const { probability } = sample
      const pi = typeof probability === 'number' ? probability : Array.isArray(probability) ? probability[j]! : probability[stratum!]!
      const pair = { index, probability: pi, a: label(sample.a[j]), b: label(sample.b[j]) } as const
      return stratum === undefined ? pair : { ...pair, stratum }
    }),
  }
}

// 1e-9, as absolute differences: every figure is a difference of rates, a standard error or λ, all of
// order 1 or less (effectiveReviews, of order n, is compared relatively).
const close = (actual: number | undefined, expected: number, what: string) => expect(Math.abs((actual ?? Number.NaN) - expected), what).toBeLessThan(1e-9)

describe('prediction-powered estimate of B − A: second implementation', () => {
  test('the reference values are those test/reference/generate_ppi_paired.py computes, for hundreds of paired splits of every design', () => {
    expect(reference.scriptSha256, 'test/reference/generate_ppi_paired.py changed: run it again (CONTRIBUTING.md)').toBe(
      generatorSha256('generate_ppi_paired.py'),
    )
    const estimates = reference.cases.filter(({ expected }) => expected.status === 'estimate')
    expect(reference.cases.length).toBeGreaterThanOrEqual(400)
    for (const design of ['uniform', 'stratified', 'active']) expect(estimates.filter((c) => c.design === design).length, design).toBeGreaterThanOrEqual(40)
    expect(estimates.filter(({ expected }) => expected.status === 'estimate' && expected.worstCase !== null).length).toBeGreaterThanOrEqual(30)
    expect(estimates.filter(({ options }) => options.estimand === 'system').length).toBeGreaterThanOrEqual(30)
    const reasons = new Set(reference.cases.map(({ expected }) => (expected.status === 'unsupported' ? expected.reason : null)))
    expect([...reasons].sort()).toEqual(
      ['degenerate-variance', 'judge-missing', 'stratum-too-small', 'too-few-discordant', 'too-few-reviews', null].sort((a, b) =>
        String(a).localeCompare(String(b)),
      ),
    )
  })

  test('the estimate, λ, both intervals, the judge-only difference, the effective reviews and the worst case equal NumPy’s to 1e-9', () => {
    for (const [i, c] of reference.cases.entries()) {
      const actual = ppiDifference(inputOf(c), c.options)
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
      close(actual.judgeOnly.a, expected.judgeOnly.a, `${where} judge-only A`)
      close(actual.judgeOnly.b, expected.judgeOnly.b, `${where} judge-only B`)
      close(actual.judgeOnly.difference, expected.judgeOnly.difference, `${where} judge-only B − A`)
      expect(actual.discordant, where).toBe(expected.discordant)
      close(actual.effectiveReviews / expected.effectiveReviews, 1, `${where} effective reviews`)
      expect(actual.worstCase === null, where).toBe(expected.worstCase === null)
      if (expected.worstCase !== null) {
        close(actual.worstCase?.low, expected.worstCase.low, `${where} worst low`)
        close(actual.worstCase?.high, expected.worstCase.high, `${where} worst high`)
      }
    }
  })
})
