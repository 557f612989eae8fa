import { describe, expect, test } from 'vitest'
import { normalizeVerdict, scoreVerdict } from '../../../../src/core/kinds/scored/dimensions/verdict.js'

describe('final_verdict_correctness', () => {
  test('matches after trimming and ignoring case', () => {
    expect(scoreVerdict('request changes', ' REQUEST CHANGES')).toEqual({
      score: 1,
      detail: '" REQUEST CHANGES" matches "request changes" (trimmed, case-insensitive)',
    })
    expect(scoreVerdict('  Approve\n', 'approve').score).toBe(1)
  })

  test('compares composed and decomposed accents as the same text', () => {
    expect(scoreVerdict('refusé', 'REFUSE\u0301').score).toBe(1)
  })

  test('keeps punctuation and inner whitespace: no judgement of meaning', () => {
    expect(scoreVerdict('request changes', 'Request changes.')).toEqual({
      score: 0,
      detail: '"Request changes." does not match "request changes" (trimmed, case-insensitive)',
    })
    expect(scoreVerdict('request changes', 'request  changes').score).toBe(0)
    expect(scoreVerdict('approve', 'approved').score).toBe(0)
  })

  test('0.0 when no final verdict is emitted', () => {
    expect(scoreVerdict('approve', null)).toEqual({ score: 0, detail: 'no final verdict emitted; expected "approve"' })
  })

  test('N/A when the ground truth is null or absent', () => {
    expect(scoreVerdict(null, 'approve')).toEqual({ score: null, detail: 'N/A: ground_truth.final_verdict is null' })
    expect(scoreVerdict(undefined, null)).toEqual({ score: null, detail: 'N/A: ground_truth.final_verdict is absent' })
  })

  test('normalizeVerdict', () => {
    expect(normalizeVerdict('\u00a0Request Changes\t')).toBe('request changes')
  })
})
