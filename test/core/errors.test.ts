import { describe, expect, test } from 'vitest'
import { fingerprint, sha256Hex } from '../../src/core/canonical-json.js'
import { BindingError, CanonicalJsonError, FixtureError, preview, RevisionError, RubricError, UsageError } from '../../src/core/errors.js'
import { canonicalJsonAt, fingerprintAt } from '../../src/core/json-at.js'
import { formatLocation, formatPath } from '../../src/core/json-path.js'

describe('error messages', () => {
  test('name the file, the path and the case, then what was expected, found, the fix and the other problems', () => {
    const error = new FixtureError({
      code: 'FILE_SCHEMA',
      file: 'annotations.json',
      path: ['reviews', 3, 'judgements', 'command', 'rating'],
      caseId: 'complete',
      summary: 'the value is not one of those allowed.',
      expected: 'one of "meets", "does_not_meet"',
      found: '"meet"',
      hint: 'use one of the ratings of the rubric.',
      also: ['reviews[4] › id: a required value is missing.', 'reviews[5]: unexpected key "x".'],
    })
    expect(error.message).toMatchInlineSnapshot(`
      "annotations.json › reviews[3] › judgements › command › rating (case "complete"): the value is not one of those allowed.
        expected: one of "meets", "does_not_meet"
        found:    "meet"
        fix:      use one of the ratings of the rubric.
        also:     reviews[4] › id: a required value is missing.
        also:     reviews[5]: unexpected key "x"."
    `)
    expect(error.toJSON()).toMatchInlineSnapshot(`
      {
        "caseId": "complete",
        "code": "FILE_SCHEMA",
        "file": "annotations.json",
        "message": "annotations.json › reviews[3] › judgements › command › rating (case "complete"): the value is not one of those allowed.
        expected: one of "meets", "does_not_meet"
        found:    "meet"
        fix:      use one of the ratings of the rubric.
        also:     reviews[4] › id: a required value is missing.
        also:     reviews[5]: unexpected key "x".",
        "name": "FixtureError",
        "path": "reviews[3] › judgements › command › rating",
      }
    `)
    expect(error.location).toBe('annotations.json › reviews[3] › judgements › command › rating')
    expect(error).toMatchObject({ code: 'FILE_SCHEMA', file: 'annotations.json', caseId: 'complete', summary: 'the value is not one of those allowed.', expected: 'one of "meets", "does_not_meet"', found: '"meet"', hint: 'use one of the ratings of the rubric.' })
  })

  test('leave out the lines they have nothing for; a value outside a file is "(value)"', () => {
    const error = new UsageError({ code: 'USAGE', summary: 'no fixture directory given.', hint: 'pass one.' })
    expect(error.message).toMatchInlineSnapshot(`
      "(value): no fixture directory given.
        fix:      pass one."
    `)
    expect(error.toJSON()).toStrictEqual({ name: 'UsageError', code: 'USAGE', file: null, path: '(value)', caseId: null, message: error.message })
    expect(error.path).toEqual([])
    expect(error.location).toBe('(value)')
    expect(new BindingError({ code: 'CASE_INVALID', file: 'cases.json', summary: 's', found: 'f', hint: 'h' }).message).toBe('cases.json: s\n  found:    f\n  fix:      h')
    expect(new BindingError({ code: 'CASE_INVALID', file: 'cases.json', summary: 's', expected: 'e', hint: 'h' }).message).toBe('cases.json: s\n  expected: e\n  fix:      h')
  })

  test('each class is a RubricError named after itself', () => {
    for (const ErrorClass of [FixtureError, BindingError, CanonicalJsonError, RevisionError, UsageError]) {
      const error = new ErrorClass({ code: 'USAGE', summary: 's', hint: 'h' })
      expect(error).toBeInstanceOf(RubricError)
      expect(error).toBeInstanceOf(Error)
      expect(error.name).toBe(ErrorClass.name)
      expect(error.toJSON().name).toBe(ErrorClass.name)
    }
  })
})

describe('JSON paths', () => {
  test('keys are joined by ›, indexes are bracketed onto what precedes them', () => {
    expect(formatPath([])).toBe('')
    expect(formatPath(['reviews', 2, 'judgements', 'command'])).toBe('reviews[2] › judgements › command')
    expect(formatPath([0, 'id'])).toBe('[0] › id')
    expect(formatPath(['matrix', 1, 2])).toBe('matrix[1][2]')
  })

  test('a location puts the file first, or stands for the value itself', () => {
    expect(formatLocation('cases.json', ['cases', 0])).toBe('cases.json › cases[0]')
    expect(formatLocation('cases.json', [])).toBe('cases.json')
    expect(formatLocation(undefined, ['cases', 0])).toBe('cases[0]')
    expect(formatLocation(undefined, [])).toBe('(value)')
  })
})

describe('preview', () => {
  test('quotes strings, writes other values as JSON, and falls back to String() for what JSON cannot write', () => {
    expect(preview('a "b"')).toBe('"a \\"b\\""')
    expect(preview({ a: [1, null] })).toBe('{"a":[1,null]}')
    expect(preview(undefined)).toBe('undefined')
    expect(preview(5n)).toBe('5')
    const circular: Record<string, unknown> = {}
    circular['self'] = circular
    expect(preview(circular)).toBe('[object Object]')
  })

  test('shortens a text longer than the limit to exactly the limit, ending in an ellipsis', () => {
    expect(preview('x'.repeat(118))).toBe(`"${'x'.repeat(118)}"`) // 120 characters: kept
    expect(preview('x'.repeat(119))).toBe(`"${'x'.repeat(118)}…`) // 121: shortened to 120
    expect(preview('abcdef', 5)).toBe('"abc…')
    expect(preview('abc', 5)).toBe('"abc"')
  })
})

describe('fingerprints and canonical text at a site in a file', () => {
  const site = { file: 'cases.json', path: ['cases', 2, 'input'], caseId: 'complete' } as const

  test('use the compiled writer when it writes, and the generic writer when it declines', () => {
    const value = { answer: 'a' }
    expect(fingerprintAt(value, site)).toBe(fingerprint(value))
    expect(fingerprintAt(value, site, () => '"written"')).toBe(sha256Hex('"written"'))
    expect(fingerprintAt(value, site, () => undefined)).toBe(fingerprint(value))
    expect(canonicalJsonAt(value, site)).toBe('{"answer":"a"}')
    expect(canonicalJsonAt(value, site, () => '"written"')).toBe('"written"')
    expect(canonicalJsonAt(value, site, () => undefined)).toBe('{"answer":"a"}')
  })

  test('refuse a value with no canonical form at its path inside the file, as a BindingError unless told otherwise', () => {
    expect(() => fingerprintAt({ text: 'cut \ud83d' }, site)).toThrowErrorMatchingInlineSnapshot(`
      [BindingError: cases.json › cases[2] › input › text (case "complete"): the string holds a lone surrogate, which has no UTF-8 encoding.
        found:    "cut \\ud83d"
        fix:      replace the broken character: the text was probably cut in the middle of an emoji or other character beyond U+FFFF.]
    `)
    expect(() => canonicalJsonAt([1, Number.NaN], { file: 'cases.json', path: [], ErrorClass: FixtureError })).toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: cases.json › [1]: the number is not finite, and JSON has no way to write it.
        found:    NaN
        fix:      use a finite number, or a string if the value is a marker.]
    `)
    let error: unknown
    try {
      canonicalJsonAt({ n: 2 ** 60 }, site)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(BindingError)
    expect(error).toMatchObject({ code: 'NOT_CANONICAL_JSON', caseId: 'complete', path: ['cases', 2, 'input', 'n'] })
  })

  test('let any other error through', () => {
    const hostile = {
      get text(): string {
        throw new RangeError('getter failed')
      },
    }
    expect(() => fingerprintAt(hostile, site)).toThrow(RangeError)
    expect(() => canonicalJsonAt(hostile, site)).toThrow(RangeError)
  })
})
