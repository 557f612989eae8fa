import { describe, expect, test } from 'vitest'
import { scoreRecall } from '../../../../src/core/kinds/scored/dimensions/recall.js'
import { invalid, planted, real } from './claims.js'

const issue = (id: string) => ({ id, location: `location of ${id}`, description: `description of ${id}` })

describe('issue_discovery_recall', () => {
  test('is the share of planted issues found', () => {
    expect(scoreRecall([issue('P1'), issue('P2'), issue('P3'), issue('P4')], [planted('C1', 'P1'), planted('C2', 'P3')])).toEqual({
      score: 0.5,
      detail: '2 of 4 planted issues found: P1 full (C1), P2 missed, P3 full (C2), P4 missed',
    })
  })

  test('a partial match earns 0.5 of an issue', () => {
    expect(scoreRecall([issue('P1'), issue('P2')], [planted('C1', 'P1'), planted('C2', 'P2', 'partial')])).toEqual({
      score: 0.75,
      detail: '1.5 of 2 planted issues found: P1 full (C1), P2 partial (C2)',
    })
  })

  test('an issue found by several claims counts once, with the best credit', () => {
    const claims = [planted('C1', 'P1', 'partial'), planted('C2', 'P1'), planted('C3', 'P1', 'partial')]
    expect(scoreRecall([issue('P1'), issue('P2')], claims).score).toBe(0.5)
    expect(scoreRecall([issue('P1')], [planted('C1', 'P1', 'partial'), planted('C2', 'P1', 'partial')]).score).toBe(0.5)
  })

  test('demonstrably real and invalid claims find no planted issue', () => {
    expect(scoreRecall([issue('P1')], [real('C1'), invalid('C2')])).toEqual({ score: 0, detail: '0 of 1 planted issue found: P1 missed' })
  })

  test('a claim not judged planted finds no planted issue, even one that names it', () => {
    const named = { ...real('C1'), planted_issue: 'P1', credit: 'full' as const }
    expect(scoreRecall([issue('P1')], [named]).score).toBe(0)
  })

  test('is N/A, not 0 or 1, when the case has no planted issue', () => {
    expect(scoreRecall([], [real('C1')])).toEqual({ score: null, detail: 'N/A: the case has no planted issues, so recall is undefined' })
  })
})
