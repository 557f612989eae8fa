import { describe, expect, test } from 'vitest'
import { countCoverage, type CountedDecision } from '../../../src/core/engine/coverage.js'

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
      outcomes: { accepted: 2, rejected: 2 },
      pendingCases: [{ id: 'd', split: 'held_out', reason: 'no review yet' }],
      refusedCases: [
        { id: 'e', split: 'held_out', code: 'CASE_SOURCE_STALE', message: 'cases.json › cases[4]: stale' },
        { id: 'f', split: 'held_out', code: 'QUESTION_MISMATCH', message: 'cases.json › cases[5]: another question' },
      ],
      splits: {
        development: { candidates: 3, graded: 3, pending: 0, refused: 0, outcomes: { accepted: 2, rejected: 1 } },
        held_out: { candidates: 4, graded: 1, pending: 1, refused: 2, outcomes: { accepted: 0, rejected: 1 } },
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
