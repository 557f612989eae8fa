import { describe, expect, test } from 'vitest'
import { scoreBaselineDiagnosticity, scoreDebateDiagnosticity } from '../../../../src/core/kinds/scored/dimensions/diagnosticity.js'

describe('empirical_test_diagnosticity of the debate system', () => {
  test('a proposed test: 1.0 diagnostic, 0.5 underspecified, 0.0 non-diagnostic', () => {
    expect(scoreDebateDiagnosticity('empirical_test_agreed', { quality: 'diagnostic', by: 'critique' })).toEqual({
      score: 1,
      detail: 'test proposed by the critique: diagnostic',
    })
    expect(scoreDebateDiagnosticity('empirical_test_agreed', { quality: 'underspecified', by: 'defense' }).score).toBe(0.5)
    expect(scoreDebateDiagnosticity('empirical_test_agreed', { quality: 'non_diagnostic', by: 'defense' })).toEqual({
      score: 0,
      detail: 'test proposed by the defense: non-diagnostic',
    })
  })

  test('a proposed test is scored even when the ideal resolution does not call for one', () => {
    expect(scoreDebateDiagnosticity('critique_wins', { quality: 'underspecified', by: 'critique' }).score).toBe(0.5)
  })

  test('N/A with no test when none is required', () => {
    expect(scoreDebateDiagnosticity('defense_wins', null)).toEqual({
      score: null,
      detail: 'N/A: no test proposed and the ideal resolution is defense_wins',
    })
  })

  test('0.0, not N/A, with no test when the ideal resolution is empirical_test_agreed', () => {
    expect(scoreDebateDiagnosticity('empirical_test_agreed', null)).toEqual({
      score: 0,
      detail: 'required (the ideal resolution is empirical_test_agreed), but no concrete test is proposed',
    })
  })
})

describe('empirical_test_diagnosticity of the trivial baseline (adaptation 4)', () => {
  test("scored from the self-critique's test", () => {
    expect(scoreBaselineDiagnosticity({ quality: 'diagnostic', by: 'self-critique' })).toEqual({
      score: 1,
      detail: 'test proposed by the self-critique: diagnostic',
    })
  })

  test('N/A without a test, even where the debate system would be required to propose one', () => {
    expect(scoreBaselineDiagnosticity(null)).toEqual({ score: null, detail: 'N/A: the self-critique proposes no test' })
  })
})
