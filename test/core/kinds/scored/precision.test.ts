import { describe, expect, test } from 'vitest'
import { scorePrecision } from '../../../../src/core/kinds/scored/dimensions/precision.js'
import { invalid, planted, real } from './claims.js'

describe('issue_discovery_precision', () => {
  test('is the share of atomic claims that are planted or demonstrably real', () => {
    expect(scorePrecision([planted('C1', 'P1'), real('C2'), invalid('C3')])).toEqual({ score: 2 / 3, detail: '2 of 3 claims valid; invalid: C3' })
  })

  test('a claim with partial recall credit is still a valid claim', () => {
    expect(scorePrecision([planted('C1', 'P1', 'partial'), invalid('C2')]).score).toBe(0.5)
  })

  test('every atomic claim counts, even two cut from one sentence', () => {
    const sameSentence = { ...invalid('C2'), span: 'one sentence' }
    expect(scorePrecision([{ ...planted('C1', 'P1'), span: 'one sentence' }, sameSentence]).score).toBe(0.5)
  })

  test('all invalid is 0, all valid is 1', () => {
    expect(scorePrecision([invalid('C1'), invalid('C2')]).score).toBe(0)
    expect(scorePrecision([real('C1')])).toEqual({ score: 1, detail: '1 of 1 claim valid' })
  })

  test('names every invalid claim', () => {
    expect(scorePrecision([invalid('C1'), real('C2'), invalid('C3')]).detail).toBe('1 of 3 claims valid; invalid: C1, C3')
  })

  test('is N/A when the critique makes no claim: the ratio is undefined', () => {
    expect(scorePrecision([])).toEqual({ score: null, detail: 'N/A: the critique makes no claims, so precision is undefined' })
  })
})
