import { describe, expect, test } from 'vitest'
import { CaseSpecSchema } from '../../../../src/core/kinds/scored/schemas.js'
import { normalizeVerdict, scoreVerdict, trimVerdict, VERDICT_SPACE } from '../../../../src/core/kinds/scored/dimensions/verdict.js'

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

  describe('the trimmed characters are named: Unicode White_Space and U+FEFF', () => {
    test.each([
      ['U+0085 (next line), which trim() keeps', '\u0085'],
      ['U+FEFF (byte-order mark), which str.strip() keeps', '\ufeff'],
      ['U+00A0 (no-break space)', '\u00a0'],
      ['U+3000 (ideographic space)', '\u3000'],
    ])('%s around a verdict is trimmed', (_name, space) => {
      expect(scoreVerdict('approve', `${space}Approve${space}`).score).toBe(1)
      expect(scoreVerdict(`${space}approve${space}`, 'APPROVE').score).toBe(1)
    })

    test('inside a verdict the same characters are kept', () => {
      for (const space of ['\u0085', '\ufeff', '\u00a0', '\u3000']) expect(scoreVerdict('request changes', `request${space}changes`).score).toBe(0)
    })

    test('a ground truth made only of them is blank: the case is refused as malformed, not scored against ""', () => {
      const spec = (verdict: string) => ({
        input: 'x',
        ideal_debate_resolution: 'critique_wins',
        max_rounds: 3,
        ground_truth: { planted_issues: [], final_verdict: verdict },
      })
      const blank = CaseSpecSchema.safeParse(spec('\u0085\ufeff\u00a0\u3000'))
      expect(blank.success).toBe(false)
      expect(blank.error?.issues[0]?.message).toBe('a non-blank verdict, or null')
      expect(CaseSpecSchema.safeParse(spec('\u0085approve\ufeff')).success).toBe(true)
    })

    test('the JSON Schema pattern for editors agrees with the check on the same edges', () => {
      const pattern = new RegExp(`[^${VERDICT_SPACE}]`, 'u')
      for (const verdict of ['\u0085', '\ufeff', '\u00a0\u3000', ' \t\n']) expect(pattern.test(verdict), JSON.stringify(verdict)).toBe(false)
      expect(pattern.test('\u0085approve')).toBe(true)
    })

    test('the set is exactly the code points with the White_Space property, and U+FEFF (against the Unicode data of the engine)', () => {
      const whiteSpace = /^\p{White_Space}$/u
      const trimmed: number[] = []
      const expected: number[] = []
      for (let code = 0; code <= 0x10ffff; code++) {
        if (code >= 0xd800 && code <= 0xdfff) continue
        const char = String.fromCodePoint(code)
        if (trimVerdict(`${char}x`) === 'x') trimmed.push(code)
        if (whiteSpace.test(char) || code === 0xfeff) expected.push(code)
      }
      expect(trimmed).toEqual(expected)
      expect(expected).toHaveLength(26)
    })
  })
})
