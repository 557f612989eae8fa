import { describe, expect, test } from 'vitest'
import { debateCalibrationInstances, scoreBaselineCalibration, scoreDebateCalibration } from '../../../../src/core/kinds/scored/dimensions/calibration.js'
import { answered, handled, invalid, planted, real } from './claims.js'

const scoreOf = (...claims: Parameters<typeof scoreDebateCalibration>[0]) => scoreDebateCalibration(claims).score

describe('defense_calibration of the debate system', () => {
  test('(A) a valid claim: 1.0 clear concession, 0.5 hedged, 0.0 denial — and (C) follows each concession', () => {
    expect(scoreOf(answered(planted('C1', 'P1'), 'concede', true))).toBe(1) // A 1, C 1
    expect(scoreOf(answered(real('C1'), 'hedged_concession', true))).toBe(0.75) // A 0.5, C 1
    expect(scoreOf(answered(planted('C1', 'P1'), 'reject_with_reasoning'))).toBe(0) // A 0, no C
    expect(scoreOf(answered(planted('C1', 'P1'), 'reject_without_reasoning'))).toBe(0)
  })

  test('(A) ignoring a valid claim scores as a denial: it acknowledges nothing', () => {
    expect(scoreOf(answered(planted('C1', 'P1'), 'no_engagement'))).toBe(0)
  })

  test('(B) an invalid claim: 1.0 rejected with reasoning, 0.5 passive non-engagement, 0.0 conceded', () => {
    expect(scoreOf(answered(invalid('C1'), 'reject_with_reasoning'))).toBe(1)
    expect(scoreOf(answered(invalid('C1'), 'no_engagement'))).toBe(0.5)
    expect(scoreOf(answered(invalid('C1'), 'concede'))).toBe(0)
  })

  test('(B) a bare rejection earns 0.5, a hedged concession of a false claim 0.0', () => {
    expect(scoreOf(answered(invalid('C1'), 'reject_without_reasoning'))).toBe(0.5)
    expect(scoreOf(answered(invalid('C1'), 'hedged_concession'))).toBe(0)
  })

  test('(C) a concession without a position update scores 0.0 beside the concession', () => {
    expect(debateCalibrationInstances([answered(planted('C1', 'P1'), 'concede', false)])).toEqual([
      { behavior: 'A', claim: 'C1', score: 1, basis: 'concede' },
      { behavior: 'C', claim: 'C1', score: 0, basis: 'not updated' },
    ])
    expect(scoreOf(answered(planted('C1', 'P1'), 'concede', false))).toBe(0.5)
  })

  test('the score is the mean over every instance present', () => {
    const claims = [
      answered(planted('C1', 'P1'), 'concede', false),
      answered(planted('C2', 'P2'), 'hedged_concession', false),
      answered(invalid('C3'), 'concede'),
    ]
    expect(scoreDebateCalibration(claims)).toEqual({
      score: 1.5 / 5,
      detail: 'mean of 5 instances: (A) C1 concede 1, (C) C1 not updated 0, (A) C2 hedged_concession 0.5, (C) C2 not updated 0, (B) C3 concede 0',
    })
  })

  test('without a contestable claim (B) is simply absent from the mean', () => {
    expect(scoreOf(answered(planted('C1', 'P1'), 'concede', true), answered(real('C2'), 'concede', true))).toBe(1)
  })

  test('is N/A when the critique makes no claim: there is no instance to average', () => {
    expect(scoreDebateCalibration([])).toEqual({
      score: null,
      detail: 'N/A: the critique makes no claims, so the defense has nothing to respond to',
    })
  })
})

describe('defense_calibration of the trivial baseline (adaptation 2)', () => {
  test('a valid flaw the answer already handled: 1.0, beside a (C) position update that is always 0.0', () => {
    expect(scoreBaselineCalibration([handled(planted('B1', 'P1'), 'already_correct')])).toEqual({
      score: 0.5,
      detail: 'mean of 2 instances: (A) B1 already_correct 1, (C) B1 no revision step 0',
    })
  })

  test('a valid flaw the answer did not handle: 0.0 and 0.0', () => {
    expect(scoreBaselineCalibration([handled(real('B1'), 'not_handled')])).toEqual({
      score: 0,
      detail: 'mean of 2 instances: (A) B1 not_handled 0, (C) B1 no revision step 0',
    })
  })

  test('an invalid self-critique claim is no instance', () => {
    expect(scoreBaselineCalibration([handled(planted('B1', 'P1'), 'already_correct'), handled(invalid('B2'))]).score).toBe(0.5)
    expect(scoreBaselineCalibration([handled(invalid('B1'))])).toEqual({
      score: null,
      detail: 'N/A: the self-critique identifies no valid flaw, so there is no handling to score',
    })
  })

  test('can never reach 1.0 once it identifies a valid flaw', () => {
    const claims = [handled(planted('B1', 'P1'), 'already_correct'), handled(real('B2'), 'already_correct')]
    expect(scoreBaselineCalibration(claims).score).toBe(0.5)
  })
})
