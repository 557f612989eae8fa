import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { FixtureError } from '../../../src/core/common/errors.js'
import { describeValue, safeParseReporting, schemaError } from '../../../src/core/json/schema-error.js'

const context = {
  ErrorClass: FixtureError,
  code: 'FILE_SCHEMA',
  file: 'cases.json',
  basePath: ['cases', 1],
  caseId: 'complete',
  hint: 'see the README.',
} as const

/** The message of the error for a value the schema refuses. */
function messageFor(schema: z.ZodType, value: unknown): string {
  const parsed = safeParseReporting(schema, value)
  if (parsed.success) throw new Error('expected the value to be refused')
  return schemaError(context, parsed.error.issues).message
}

describe('a schema error', () => {
  test('points at the first problem and lists the others with their paths and what each expected', () => {
    const schema = z.strictObject({ id: z.string(), rating: z.enum(['meets', 'fails']), tags: z.array(z.string()).min(1), version: z.int().min(1) })
    const error = (() => {
      const parsed = safeParseReporting(schema, { id: 5, rating: 'meet', tags: [], version: 0, extra: true })
      if (parsed.success) throw new Error('expected the value to be refused')
      return schemaError(context, parsed.error.issues)
    })()
    expect(error).toBeInstanceOf(FixtureError)
    expect(error.toJSON()).toMatchInlineSnapshot(`
      {
        "caseId": "complete",
        "code": "FILE_SCHEMA",
        "file": "cases.json",
        "message": "cases.json › cases[1] › id (case "complete"): the value has the wrong type.
        expected: a string
        found:    the integer 5
        fix:      see the README.
        also:     cases.json › cases[1] › rating: the value is not one of those allowed. Expected one of "meets", "fails".
        also:     cases.json › cases[1] › tags: the list is too short. Expected at least 1 item.
        also:     cases.json › cases[1] › version: the value is too small. Expected at least 1.
        also:     cases.json › cases[1]: unexpected key "extra". Expected only the keys the format defines (docs/format.md lists them).",
        "name": "FixtureError",
        "path": "cases[1] › id",
      }
    `)
  })

  test('lists at most five other problems, then says how many more there are', () => {
    const schema = z.array(z.string())
    const seven = schemaError(context, safeParseReporting(schema, [1, 2, 3, 4, 5, 6, 7]).error?.issues ?? []).message
    expect(seven.split('\n').filter((line) => line.startsWith('  also:'))).toEqual([
      '  also:     cases.json › cases[1][1]: the value has the wrong type. Expected a string.',
      '  also:     cases.json › cases[1][2]: the value has the wrong type. Expected a string.',
      '  also:     cases.json › cases[1][3]: the value has the wrong type. Expected a string.',
      '  also:     cases.json › cases[1][4]: the value has the wrong type. Expected a string.',
      '  also:     cases.json › cases[1][5]: the value has the wrong type. Expected a string.',
      '  also:     … and 1 more.',
    ])
    const six = schemaError(context, safeParseReporting(schema, [1, 2, 3, 4, 5, 6]).error?.issues ?? []).message
    expect(six.split('\n').filter((line) => line.startsWith('  also:'))).toHaveLength(5)
    expect(six).not.toContain('more.')
  })

  test('names a problem of the validated value itself by its file, or "(top level)" without one, when it has no path', () => {
    const issues = safeParseReporting(z.string(), 1).error?.issues ?? []
    const error = schemaError({ ...context, basePath: [] }, [...issues, ...issues])
    expect(error.message).toContain('  also:     cases.json: the value has the wrong type. Expected a string.')
    expect(error.path).toEqual([])
    const fileless = schemaError({ ...context, file: undefined, basePath: [] }, [...issues, ...issues])
    expect(fileless.message).toContain('  also:     (top level): the value has the wrong type. Expected a string.')
  })

  test('without issues, says the value is invalid', () => {
    expect(schemaError(context, []).message).toMatchInlineSnapshot(`
      "cases.json › cases[1] (case "complete"): the value is invalid.
        fix:      see the README."
    `)
  })

  test.each([
    ['a missing key', z.strictObject({ id: z.string() }), {}, 'a required value is missing.', 'a string', 'nothing (the key is missing)'],
    ['null for a string', z.strictObject({ id: z.string() }), { id: null }, 'the value has the wrong type.', 'a string', 'null'],
    ['a string for a number', z.number(), '1', 'the value has the wrong type.', 'a number', 'the string "1"'],
    ['a fraction for an integer', z.int(), 1.5, 'the value has the wrong type.', 'an integer', 'the number 1.5'],
    ['an object for a boolean', z.boolean(), { a: 1 }, 'the value has the wrong type.', 'true or false', 'an object {"a":1}'],
    ['an array for an object', z.strictObject({}), [1, 2], 'the value has the wrong type.', 'an object', 'an array [1,2]'],
    ['a boolean for a record', z.record(z.string(), z.string()), true, 'the value has the wrong type.', 'an object', 'the boolean true'],
    ['a number for an array', z.array(z.string()), 3, 'the value has the wrong type.', 'an array', 'the integer 3'],
    ['a string for null', z.null(), 'x', 'the value has the wrong type.', 'null', 'the string "x"'],
    ['a string for a bigint', z.bigint(), 'x', 'the value has the wrong type.', 'bigint', 'the string "x"'],
    [
      'a missing enum value',
      z.strictObject({ rating: z.enum(['meets', 'fails']) }),
      {},
      'a required value is missing.',
      'one of "meets", "fails"',
      'nothing (the key is missing)',
    ],
    ['another literal', z.literal('criteria'), 'scored', 'the value is not one of those allowed.', '"criteria"', '"scored"'],
    [
      'a string not matching a pattern',
      z.string().regex(/^[a-z]+$/),
      'A1',
      'the value is not in the required format.',
      'Invalid string: must match pattern /^[a-z]+$/',
      '"A1"',
    ],
    ['an empty string', z.string().min(1), '', 'the text is empty.', 'a non-empty string', '""'],
    ['a too short string', z.string().min(3), 'ab', 'the text is too short.', 'at least 3', '"ab"'],
    ['an empty list', z.array(z.string()).min(2), [], 'the list is too short.', 'at least 2 items', '[]'],
    ['a too small number', z.number().min(1), 0, 'the value is too small.', 'at least 1', '0'],
    ['a too big number', z.number().max(1), 2, 'the value is too large.', 'at most 1', '2'],
    ['a too long list', z.array(z.number()).max(1), [1, 2], 'the list is too long.', 'at most 1 item', '[1,2]'],
    ['a too long string', z.string().max(2), 'abc', 'the text is too long.', 'at most 2 characters', '"abc"'],
    [
      'an integer past 2^53',
      z.int(),
      2 ** 60,
      'the value is too large.',
      'a whole number a JSON number holds exactly (at most 2^53 − 1)',
      '1152921504606847000',
    ],
    [
      'two unexpected keys',
      z.strictObject({}),
      { a: 1, b: 2 },
      'unexpected keys "a", "b".',
      'only the keys the format defines (docs/format.md lists them)',
      '"a", "b"',
    ],
  ])('%s', (_, schema, value, summary, expected, found) => {
    const parsed = safeParseReporting(schema, value)
    if (parsed.success) throw new Error('expected the value to be refused')
    const error = schemaError(context, parsed.error.issues)
    expect({ summary: error.summary, expected: error.expected, found: error.found }).toEqual({ summary, expected, found })
  })

  test('shows a long value found shortened', () => {
    expect(describeValue('x'.repeat(100))).toBe(`the string "${'x'.repeat(58)}…`)
    expect(describeValue(undefined)).toBe('undefined undefined')
    expect(messageFor(z.number(), 'x'.repeat(100))).toContain(`found:    the string "${'x'.repeat(58)}…`)
  })
})

describe('safeParseReporting', () => {
  test('gives a valid value as zod parses it', () => {
    const strict = z.strictObject({ id: z.string() })
    expect(safeParseReporting(strict, { id: 'a' })).toEqual({ success: true, data: { id: 'a' } })
    // What zod's parse does to a valid value (a key a loose object does not know is left out) holds.
    const loose = z.object({ id: z.string() })
    const value = { id: 'a', extra: 1 }
    expect(safeParseReporting(loose, value)).toEqual(loose.safeParse(value))
    expect(safeParseReporting(loose, value)).toEqual({ success: true, data: { id: 'a' } })
  })

  test('keeps the input in the issues of a failure', () => {
    const parsed = safeParseReporting(z.strictObject({ id: z.string() }), { id: 5 })
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues[0]).toMatchObject({ code: 'invalid_type', path: ['id'], input: 5 })
  })
})
