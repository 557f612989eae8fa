import { describe, expect, test } from 'vitest'
import { rateText } from '../../../src/core/common/rate-percent.js'
import { countCoverage, outcomesOf, type CountedDecision } from '../../../src/core/engine/coverage.js'

const decision = (id: string, split: CountedDecision['split'], status: CountedDecision['status'], extra: Partial<CountedDecision> = {}): CountedDecision =>
  ({ id, split, status, reason: `${status} because`, ...extra }) as CountedDecision

describe('countCoverage', () => {
  test('counts graded, pending and refused cases in total and per split, and lists the pending and refused ones', () => {
    const coverage = countCoverage([
      decision('a', 'development', 'accepted'),
      decision('b', 'development', 'rejected'),
      decision('c', 'development', 'accepted'),
      decision('d', 'held_out', 'pending', { reason: 'no review yet' }),
      decision('e', 'held_out', 'refused', { error: { code: 'CASE_SOURCE_STALE', message: 'cases.json › cases[4]: stale' } }),
      decision('f', 'held_out', 'refused', { error: { code: 'QUESTION_MISMATCH', message: 'cases.json › cases[5]: another question' } }),
      decision('g', 'held_out', 'rejected'),
    ])
    expect(coverage).toEqual({
      candidates: 7,
      graded: 4,
      pending: 1,
      refused: 2,
      outcomes: expect.objectContaining({ accepted: 2, rejected: 2 }),
      pendingCases: [{ id: 'd', split: 'held_out', reason: 'no review yet' }],
      refusedCases: [
        { id: 'e', split: 'held_out', code: 'CASE_SOURCE_STALE', message: 'cases.json › cases[4]: stale' },
        { id: 'f', split: 'held_out', code: 'QUESTION_MISMATCH', message: 'cases.json › cases[5]: another question' },
      ],
      splits: {
        development: { candidates: 3, graded: 3, pending: 0, refused: 0, outcomes: expect.objectContaining({ accepted: 2, rejected: 1 }) },
        held_out: { candidates: 4, graded: 1, pending: 1, refused: 2, outcomes: expect.objectContaining({ accepted: 0, rejected: 1 }) },
      },
    })
  })

  test('gives no outcomes where nothing was graded: zero reviews are not a quality figure', () => {
    const empty = { candidates: 0, graded: 0, pending: 0, refused: 0, outcomes: null }
    expect(countCoverage([])).toEqual({ ...empty, pendingCases: [], refusedCases: [], splits: { development: empty, held_out: empty } })
    const pendingOnly = countCoverage([decision('a', 'development', 'pending')])
    expect(pendingOnly.outcomes).toBeNull()
    expect(pendingOnly.splits.development).toEqual({ candidates: 1, graded: 0, pending: 1, refused: 0, outcomes: null })
  })
})

describe('outcomesOf: the acceptance rate with its Wilson 95% interval', () => {
  // Newcombe (1998), Table I, method 3 (Wilson score interval without continuity correction).
  test.each([
    [81, 263 - 81, 0.2553, 0.3662],
    [15, 148 - 15, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 28, 0.0061, 0.1718],
  ])('%i accepted, %i rejected: the published interval', (accepted, rejected, low, high) => {
    const outcomes = outcomesOf(accepted, rejected)!
    expect(outcomes.rate).toBeCloseTo(accepted / (accepted + rejected), 12)
    expect(outcomes.interval[0]).toBeCloseTo(low, 4)
    expect(outcomes.interval[1]).toBeCloseTo(high, 4)
  })

  test('a rate over 3 cases does not read like one over 3,000', () => {
    const few = outcomesOf(2, 1)!
    const many = outcomesOf(2000, 1000)!
    expect(few.rate).toBe(many.rate)
    expect(few.interval[1] - few.interval[0]).toBeGreaterThan(0.6)
    expect(many.interval[1] - many.interval[0]).toBeLessThan(0.04)
    expect(rateText(few, 'accepted')).toBe('67% accepted (95% interval 21%–94%)')
  })

  test('an interval narrower than a whole percent is printed with the decimals that tell its ends apart', () => {
    const narrow = outcomesOf(19_600, 200)!
    expect(narrow.interval[1] - narrow.interval[0]).toBeGreaterThan(0)
    expect(rateText(narrow, 'accepted')).toBe('99.0% accepted (95% interval 98.8%–99.1%)')
    const narrower = outcomesOf(999_990, 10)!
    expect(rateText(narrower, 'accepted')).toBe('99.999% accepted (95% interval 99.998%–99.999%)')
    expect(rateText(outcomesOf(40, 0)!, 'accepted')).toBe('100% accepted (95% interval 91%–100%)')
  })

  test('nothing graded is no rate at all', () => {
    expect(outcomesOf(0, 0)).toBeNull()
  })
})
