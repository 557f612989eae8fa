import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { schemaGuard } from '../../src/core/schema-guard.js'

// The guard vouches for a value (true) only when zod accepts it unchanged; on anything it is not
// sure of it answers false and zod decides. Each example states both what the guard answers and,
// where the guard vouches, that zod agrees, so that a guard looser than zod fails here.

function verdicts(schema: z.ZodType, values: readonly unknown[]): boolean[] {
  const guard = schemaGuard(schema)
  return values.map((value) => {
    const vouched = guard(value)
    if (vouched) expect(schema.safeParse(value)).toEqual({ success: true, data: value })
    return vouched
  })
}

describe('the compiled guard', () => {
  test('scalars: strings, finite numbers, booleans, null; anything for unknown and any', () => {
    expect(verdicts(z.string(), ['', 'a', 1, null, undefined])).toEqual([true, true, false, false, false])
    expect(verdicts(z.number(), [0, -1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '1'])).toEqual([true, true, false, false, false, false])
    expect(verdicts(z.boolean(), [true, false, 0, 'true'])).toEqual([true, true, false, false])
    expect(verdicts(z.null(), [null, undefined, 0])).toEqual([true, false, false])
    expect(verdicts(z.unknown(), [undefined, 1, { a: 1 }])).toEqual([true, true, true])
    expect(verdicts(z.any(), [null, 'x'])).toEqual([true, true])
  })

  test('strings with a minimum and a maximum length, both inclusive', () => {
    expect(verdicts(z.string().min(2), ['a', 'ab', 'abc', 12])).toEqual([false, true, true, false])
    expect(verdicts(z.string().max(2), ['', 'ab', 'abc'])).toEqual([true, true, false])
    expect(verdicts(z.string().min(1).max(2), ['', 'a', 'ab', 'abc'])).toEqual([false, true, true, false])
    expect(verdicts(z.array(z.number()).min(1), [[], [1]])).toEqual([false, true])
  })

  test('strings matching a pattern; a global or sticky pattern, or another format, is left to zod', () => {
    expect(verdicts(z.string().regex(/^a+$/), ['aa', 'ab', ''])).toEqual([true, false, false])
    // A global or sticky pattern remembers where it stopped: testing it twice can differ.
    expect(verdicts(z.string().regex(/a/g), ['a'])).toEqual([false])
    expect(verdicts(z.string().regex(/a/y), ['a'])).toEqual([false])
    // A format on the string schema itself (rather than added as a check) is left to zod too.
    expect(verdicts(z.email(), ['someone@example.com', 'not an address'])).toEqual([false, false])
    expect(verdicts(z.uuid(), ['not a uuid'])).toEqual([false])
    expect(verdicts(z.iso.datetime(), ['yesterday'])).toEqual([false])
    expect(verdicts(z.string().email(), ['not an address'])).toEqual([false])
  })

  test('safe integers; other number formats are left to zod', () => {
    expect(verdicts(z.int(), [0, -3, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER, '1'])).toEqual([true, true, false, false, true, false])
    expect(verdicts(z.float32(), [1])).toEqual([false])
    expect(verdicts(z.int32(), [1])).toEqual([false])
    // .int() on a number is a check the guard does not read.
    expect(verdicts(z.number().int(), [1])).toEqual([false])
  })

  test('number bounds, inclusive and exclusive', () => {
    expect(verdicts(z.number().min(1), [0.5, 1, 2])).toEqual([false, true, true])
    expect(verdicts(z.number().gt(1), [1, 1.5])).toEqual([false, true])
    expect(verdicts(z.number().max(1), [1, 1.5])).toEqual([true, false])
    expect(verdicts(z.number().lt(1), [1, 0.5])).toEqual([false, true])
    expect(verdicts(z.int().min(0).max(3), [-1, 0, 3, 4])).toEqual([false, true, true, false])
    // A bigint bound is left to zod.
    expect(verdicts(z.bigint().min(1n), [2n])).toEqual([false])
  })

  test('enums and literals', () => {
    expect(verdicts(z.enum(['meets', 'fails']), ['meets', 'fails', 'other', 0])).toEqual([true, true, false, false])
    expect(verdicts(z.literal('x'), ['x', 'y'])).toEqual([true, false])
    expect(verdicts(z.literal(['a', 1]), ['a', 1, '1'])).toEqual([true, true, false])
  })

  test('optional and nullable', () => {
    expect(verdicts(z.string().optional(), [undefined, 'a', null, 1])).toEqual([true, true, false, false])
    expect(verdicts(z.string().nullable(), [null, 'a', undefined, 1])).toEqual([true, true, false, false])
    expect(verdicts(z.string().min(2).nullable(), ['a', 'ab'])).toEqual([false, true])
  })

  test('arrays check every element, a hole included (zod reads it as undefined)', () => {
    expect(verdicts(z.array(z.string()), [[], ['a', 'b'], ['a', 1], [1, 'a'], 'ab', { 0: 'a', length: 1 }])).toEqual([true, true, false, false, false, false])
    // eslint-disable-next-line no-sparse-arrays
    expect(verdicts(z.array(z.string()), [[, 'a']])).toEqual([false])
  })

  test('records of string keys: plain objects only, and never one with an own "__proto__" key', () => {
    const schema = z.record(z.string(), z.number())
    const nullPrototype = Object.assign(Object.create(null) as object, { a: 1 })
    const withProto = JSON.parse('{"__proto__": 1}') as unknown
    const arrayWithoutPrototype = Object.setPrototypeOf([1], null) as unknown
    expect(verdicts(schema, [{}, { a: 1, b: 2 }, { a: 1, b: 'x' }, nullPrototype, null, [], new Map(), new Date(0), withProto, arrayWithoutPrototype, 'a'])).toEqual([
      true,
      true,
      false,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ])
    // A record whose keys are checked or not plain strings is left to zod.
    expect(verdicts(z.record(z.string().min(1), z.number()), [{ a: 1 }])).toEqual([false])
    expect(verdicts(z.record(z.enum(['a']), z.number()), [{ a: 1 }])).toEqual([false])
  })

  test('strict objects: required keys present, optional keys may be absent, no other key; a non-strict object is left to zod', () => {
    const schema = z.strictObject({ id: z.string(), note: z.string().optional() })
    const nullPrototype = Object.assign(Object.create(null) as object, { id: 'a' })
    expect(
      verdicts(schema, [{ id: 'a' }, { id: 'a', note: 'n' }, { note: 'n' }, {}, { id: 1 }, { id: 'a', note: 1 }, { id: 'a', other: 1 }, { id: 'a', note: 'n', other: 1 }, nullPrototype, null, ['a'], 'a']),
    ).toEqual([true, true, false, false, false, false, false, false, true, false, false, false])
    expect(verdicts(z.object({ id: z.string() }), [{ id: 'a' }])).toEqual([false])
    expect(verdicts(z.looseObject({ id: z.string() }), [{ id: 'a' }])).toEqual([false])
  })

  test('anything it does not know makes it answer false: a refinement, a union, a transform, a default', () => {
    expect(verdicts(z.string().refine((text) => text.length > 0), ['a'])).toEqual([false])
    expect(verdicts(z.union([z.string(), z.number()]), ['a', 1])).toEqual([false, false])
    expect(verdicts(z.string().transform((text) => text), ['a'])).toEqual([false])
    expect(verdicts(z.string().default('x'), ['a'])).toEqual([false])
    // Inside a container, an unknown part makes the whole answer false.
    expect(verdicts(z.array(z.string().refine(() => true)), [['a']])).toEqual([false])
    expect(verdicts(z.strictObject({ id: z.union([z.string(), z.number()]) }), [{ id: 'a' }])).toEqual([false])
  })
})
