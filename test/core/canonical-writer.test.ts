import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { canonicalJson } from '../../src/core/canonical-json.js'
import { canonicalWriter } from '../../src/core/canonical-writer.js'

// The compiled writer writes exactly canonicalJson's text, or declines (undefined) so that the
// generic writer refuses the value with its path. Each example pins the text, and that it is
// canonicalJson's whenever the writer writes one.

function written(schema: z.ZodType, values: readonly unknown[]): (string | undefined)[] {
  const write = canonicalWriter(schema)
  return values.map((value) => {
    const text = write(value)
    if (text !== undefined) expect(text).toBe(canonicalJson(value))
    return text
  })
}

const ASTRAL = '\u{1F600}'
const PRIVATE_BMP = '\uE000'

describe('the compiled writer', () => {
  test('strings, escaped as JSON.stringify escapes them; a value of another type is written as canonicalJson writes it', () => {
    expect(written(z.string(), ['', 'plain', 'é 中', 'quote " backslash \\', String.raw`C:\dir`, 'line\nbreak\u0001', 5, null, undefined])).toEqual([
      '""',
      '"plain"',
      '"é 中"',
      '"quote \\" backslash \\\\"',
      '"C:\\\\dir"',
      '"line\\nbreak\\u0001"',
      '5',
      'null',
      undefined,
    ])
    expect(written(z.enum(['meets', 'fails']), ['meets', 'x"y'])).toEqual(['"meets"', '"x\\"y"'])
    expect(written(z.literal(1), [1])).toEqual(['1'])
    expect(written(z.templateLiteral(['id-', z.number()]), ['id-1'])).toEqual(['"id-1"'])
  })

  test('declines a lone surrogate, and writes a literal backslash before "ud" as any text', () => {
    expect(written(z.string(), ['cut \ud83d', `whole ${ASTRAL}`, String.raw`\ud800`])).toEqual([undefined, `"whole ${ASTRAL}"`, '"\\\\ud800"'])
  })

  test('numbers: safe integers as digits, other numbers as canonicalJson writes them, non-finite and unsafe ones declined', () => {
    expect(written(z.number(), [0, -0, -7, Number.MAX_SAFE_INTEGER, 1.5, 1e-7, 1e-5, 0.0001, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, '1'])).toEqual([
      '0',
      '0',
      '-7',
      '9007199254740991',
      '1.5',
      '1e-07',
      '1e-05',
      '0.0001',
      undefined,
      undefined,
      undefined,
      '"1"',
    ])
  })

  test('booleans; anything else is declined', () => {
    expect(written(z.boolean(), [true, false, 'true', 1, null])).toEqual(['true', 'false', undefined, undefined, undefined])
  })

  test('nullable and optional', () => {
    expect(written(z.boolean().nullable(), [null, true, undefined])).toEqual(['null', 'true', undefined])
    expect(written(z.boolean().optional(), [false, undefined])).toEqual(['false', undefined])
  })

  test('arrays: items in order, separated by commas; a hole, or an item with no canonical form, is declined', () => {
    expect(written(z.array(z.boolean()), [[], [true], [true, false, true], 'x', { 0: true, length: 1 }, [true, 'x']])).toEqual([
      '[]',
      '[true]',
      '[true,false,true]',
      undefined,
      undefined,
      undefined,
    ])
    // eslint-disable-next-line no-sparse-arrays
    expect(written(z.array(z.string().optional()), [[, 'a'], ['a', undefined]])).toEqual([undefined, undefined])
  })

  test('records: keys sorted by code point and quoted; not a plain object, or an entry with no canonical form, is declined', () => {
    const schema = z.record(z.string(), z.number())
    const nullPrototype = Object.assign(Object.create(null) as object, { b: 2, a: 1 })
    // An array is an array whatever its prototype: written as one by the generic writer, so declined here.
    expect(written(schema, [Object.setPrototypeOf([1], null)])).toEqual([undefined])
    expect(
      written(schema, [{}, { b: 2, a: 1 }, { [ASTRAL]: 2, [PRIVATE_BMP]: 1, z: 0 }, { 'say "hi"': 1, 'é': 2 }, nullPrototype, { a: Number.NaN }, [], null, new Date(0)]),
    ).toEqual(['{}', '{"a":1,"b":2}', `{"z":0,"${PRIVATE_BMP}":1,"${ASTRAL}":2}`, '{"say \\"hi\\"":1,"é":2}', '{"a":1,"b":2}', undefined, undefined, undefined, undefined])
  })

  test('strict objects: the keys of the shape that are present, sorted; another key is declined', () => {
    const schema = z.strictObject({ text: z.string(), citation: z.string().optional(), [PRIVATE_BMP]: z.number().optional(), [ASTRAL]: z.number().optional() })
    expect(
      written(schema, [
        { text: 't' },
        { text: 't', citation: 'c' },
        { [ASTRAL]: 2, [PRIVATE_BMP]: 1, text: 't' },
        {},
        { text: 't', other: 1 },
        { text: 't', citation: undefined },
        { text: Number.NaN },
        null,
        ['t'],
      ]),
    ).toEqual(['{"text":"t"}', '{"citation":"c","text":"t"}', `{"text":"t","${PRIVATE_BMP}":1,"${ASTRAL}":2}`, '{}', undefined, undefined, undefined, undefined, undefined])
  })

  test('a non-strict object, or a kind it does not know, is written by the generic writer, other keys included', () => {
    expect(written(z.object({ text: z.string() }), [{ text: 't', other: 1 }])).toEqual(['{"other":1,"text":"t"}'])
    expect(written(z.looseObject({ text: z.string() }), [{ text: 't', other: 1 }])).toEqual(['{"other":1,"text":"t"}'])
    expect(written(z.union([z.string(), z.number()]), [{ b: [1, 'x'], a: null }, undefined])).toEqual(['{"a":null,"b":[1,"x"]}', undefined])
  })

  test('a value whose generic writing throws something other than a refusal lets it through', () => {
    const hostile = {
      get text(): string {
        throw new RangeError('getter failed')
      },
    }
    expect(() => canonicalWriter(z.unknown())(hostile)).toThrow(RangeError)
  })
})
