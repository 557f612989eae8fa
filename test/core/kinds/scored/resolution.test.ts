import { describe, expect, test } from 'vitest'
import { scoreBaselineResolution, scoreDebateResolution, type DebateEnding } from '../../../../src/core/kinds/scored/dimensions/resolution.js'

const ending = (overrides: Partial<DebateEnding> = {}): DebateEnding => ({
  ideal: 'critique_wins',
  critiqueFinal: 'critique_wins',
  defenseFinal: 'critique_wins',
  moreRoundsThanNecessary: false,
  rounds: 2,
  maxRounds: 4,
  ...overrides,
})

describe('debate_resolution_quality of the debate system', () => {
  test('1.0 when both agents end on the ideal type', () => {
    expect(scoreDebateResolution(ending())).toEqual({ score: 1, detail: 'both agents state critique_wins as ideal, in 2 of at most 4 rounds' })
  })

  test('0.5 for the right type reached in more rounds than necessary', () => {
    expect(scoreDebateResolution(ending({ moreRoundsThanNecessary: true, rounds: 4 }))).toEqual({
      score: 0.5,
      detail: 'both agents state critique_wins as ideal, but the loop ran more rounds than necessary (4 of at most 4 rounds)',
    })
  })

  test('0.0 for another type, even an agreed and efficient one', () => {
    expect(scoreDebateResolution(ending({ critiqueFinal: 'empirical_test_agreed', defenseFinal: 'empirical_test_agreed' }))).toEqual({
      score: 0,
      detail: 'both agents state empirical_test_agreed, but the ideal resolution is critique_wins',
    })
    expect(scoreDebateResolution(ending({ critiqueFinal: 'defense_wins', defenseFinal: 'defense_wins', moreRoundsThanNecessary: true })).score).toBe(0)
  })

  test('0.0 when the loop stops at its maximum without agreement', () => {
    expect(scoreDebateResolution(ending({ defenseFinal: 'defense_wins', rounds: 4 }))).toEqual({
      score: 0,
      detail:
        'no agreement after 4 of at most 4 rounds (critique states critique_wins, defense states defense_wins): the loop did not terminate with a resolution',
    })
    expect(scoreDebateResolution(ending({ critiqueFinal: null, defenseFinal: null, rounds: 4 }))).toEqual({
      score: 0,
      detail: 'no agreement after 4 of at most 4 rounds (critique states nothing, defense states nothing): the loop did not terminate with a resolution',
    })
    expect(scoreDebateResolution(ending({ critiqueFinal: null, defenseFinal: 'critique_wins' })).detail).toBe(
      'no agreement after 2 of at most 4 rounds (critique states nothing, defense states critique_wins): the loop did not terminate with a resolution',
    )
  })

  test('0.0 when the right agreement comes only after the maximum rounds', () => {
    expect(scoreDebateResolution(ending({ rounds: 5 }))).toEqual({
      score: 0,
      detail: 'both agents state critique_wins, but only after 5 of at most 4 rounds: the loop did not terminate within the maximum rounds',
    })
  })

  test('a debate of at most one round', () => {
    expect(scoreDebateResolution(ending({ rounds: 1, maxRounds: 1 })).detail).toBe('both agents state critique_wins as ideal, in 1 of at most 1 round')
  })
})

describe('debate_resolution_quality of the trivial baseline (adaptation 3)', () => {
  test('0.5 for the ideal type, never 1.0', () => {
    expect(scoreBaselineResolution('defense_wins', 'defense_wins')).toEqual({
      score: 0.5,
      detail: 'the self-critique reaches defense_wins as ideal; capped at 0.5 without a debate',
    })
  })

  test('0.0 for another type or none', () => {
    expect(scoreBaselineResolution('empirical_test_agreed', 'critique_wins').score).toBe(0)
    expect(scoreBaselineResolution('critique_wins', null)).toEqual({
      score: 0,
      detail: 'the self-critique reaches no resolution, but the ideal resolution is critique_wins',
    })
  })
})
