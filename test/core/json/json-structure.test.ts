import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { PathSegment } from '../../../src/core/common/json-path.js'
import { FixtureError } from '../../../src/core/common/errors.js'
import { jsonStructureProblem, MAX_JSON_DEPTH } from '../../../src/core/json/json-structure.js'
import { parseJsonFile } from '../../../src/core/json/read.js'

const file = (text: string) => ({ display: 'annotations.json', bytes: new TextEncoder().encode(text) })
const problemOf = (text: string) => {
  JSON.parse(text) // the scan is only ever given a text that parsed
  return jsonStructureProblem(text)
}

describe('a key held twice in one object', () => {
  test('is found at its path, with both places, in arrays and objects alike', () => {
    const text = '{"reviews": [{"a": 1}, {"judgements": {"command": {"rating": "does_not_meet", "reason": "x", "rating": "meets"}}}]}'
    expect(problemOf(text)).toEqual({
      kind: 'duplicate-key',
      path: ['reviews', 1, 'judgements', 'command', 'rating'],
      key: 'rating',
      offset: text.lastIndexOf('"rating"'),
      earlier: text.indexOf('"rating"'),
    })
  })

  test('is found however the key is written: an escape names the same key as the letter', () => {
    expect(problemOf('{"rating": 1, "r\\u0061ting": 2}')).toMatchObject({ kind: 'duplicate-key', key: 'rating', path: ['rating'] })
    expect(problemOf('{"a\\/b": 1, "a/b": 2}')).toMatchObject({ kind: 'duplicate-key', key: 'a/b' })
    expect(problemOf('{"\\"": 1, "\\u0022": 2}')).toMatchObject({ kind: 'duplicate-key', key: '"' })
    // A path step written with an escape is named as it reads.
    expect(problemOf('{"c\\u0061ses": [{"id": 1, "id": 2}]}')).toMatchObject({ path: ['cases', 0, 'id'] })
  })

  test('is found in an object of many keys, which the scan compares through a set', () => {
    const keys = Array.from({ length: 500 }, (_, index) => `"k${index}": ${index}`)
    expect(problemOf(`{${keys.join(', ')}}`)).toBeUndefined()
    const text = `{"list": [{${keys.join(', ')}, "k17": "again"}]}`
    expect(problemOf(text)).toEqual({
      kind: 'duplicate-key',
      path: ['list', 0, 'k17'],
      key: 'k17',
      offset: text.indexOf('"k17": "again"'),
      earlier: text.indexOf('"k17"'),
    })
    // Escaped keys among many: compared as read.
    expect(problemOf(`{${keys.join(', ')}, "\\u006b499": 0}`)).toMatchObject({ key: 'k499' })
  })

  test('is not found where the same key is in two objects, or a value, or inside a string', () => {
    for (const text of [
      '{"a": {"a": {"a": 1}}, "b": {"a": 2}}',
      '[{"a": 1}, {"a": 2}]',
      '{"a": "a", "b": ["a", "a"]}',
      '{"a": "\\"a\\": 1, \\"a\\": 2", "b": "{\\"a\\": 1}"}',
      '{"a\\\\": 1, "a": 2}',
      '{"A": 1, "a": 2, "\\u00e9": 3, "e\\u0301": 4}',
      '{"": 1, " ": 2}',
      '"a"',
      '[]',
      '{}',
    ]) {
      expect(problemOf(text), text).toBeUndefined()
    }
  })

  test('refuses the file, naming the file, the JSON path and the key, and both lines', () => {
    const text = `{\n  "origin": "o",\n  "reviews": [\n    {\n      "judgements": {\n        "command": {\n          "rating": "does_not_meet",\n          "rating": "meets"\n        }\n      }\n    }\n  ]\n}\n`
    expect(() => parseJsonFile(file(text))).toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: annotations.json › reviews[0] › judgements › command › rating: the key "rating" occurs twice in one object, so which of its values counts would be a guess.
        expected: each key once in its object
        found:    "rating" at line 7, column 11 and again at line 8, column 11
        fix:      keep the "rating" you mean and delete the other: a reader of the file sees the first, JSON.parse keeps the last, so the file is not read until the key occurs once.]
    `)
    expect(() => parseJsonFile(file(text))).toThrow(
      expect.objectContaining({ code: 'JSON_DUPLICATE_KEY', path: ['reviews', 0, 'judgements', 'command', 'rating'] }),
    )
  })
})

describe('nesting deeper than the format ever does', () => {
  test.each([
    ['arrays', (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`],
    ['objects', (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`],
    ['arrays and objects mixed', (depth: number) => `${'[{"a":'.repeat(depth / 2)}1${'}]'.repeat(depth / 2)}`],
  ])('%s: refused past 64 levels, at the path of the level too many', (_, nested) => {
    expect(problemOf(nested(MAX_JSON_DEPTH))).toBeUndefined()
    expect(problemOf(nested(MAX_JSON_DEPTH + 2))).toMatchObject({ kind: 'too-deep' })
    const deep = nested(10_000)
    const problem = problemOf(deep)
    expect(problem).toMatchObject({ kind: 'too-deep' })
    expect(problem!.path).toHaveLength(MAX_JSON_DEPTH)
    expect(problem!.offset).toBe(problem!.path.reduce<number>((at, step) => at + (typeof step === 'number' ? 1 : 5), 0))
  })

  test('a 10,000-deep array at the top of a file is refused with where, never a stack overflow', () => {
    const text = `${'['.repeat(10_000)}${']'.repeat(10_000)}`
    let error: unknown
    try {
      parseJsonFile({ display: 'cases.json', bytes: new TextEncoder().encode(text) })
    } catch (thrown) {
      error = thrown
    }
    expect(error).toBeInstanceOf(FixtureError)
    expect((error as FixtureError).message).toMatchInlineSnapshot(`
      "cases.json › [0][0][0][0][0][0][0][0]: the JSON nests deeper than 64 levels of arrays and objects below this path.
        expected: at most 64 levels: the format's files nest fewer than 10
        found:    level 65 opening at line 1, column 65
        fix:      no file the package reads nests so deep: restore the file from version control, or write it again as docs/format.md describes."
    `)
    expect((error as FixtureError).code).toBe('JSON_TOO_DEEP')
  })
})

/** An object as written, which may hold a key twice: its members in order. */
type Written = { readonly array: readonly Written[] } | { readonly object: readonly (readonly [string, Written])[] } | { readonly scalar: unknown }

/** Keys from a small alphabet, so that two members of one object often share one; `"` and `\` and a non-ASCII letter among them. */
const key = fc.constantFrom('a', 'b', 'ab', '"', '\\', 'é', 'x/y')

const written = fc.letrec<{ value: Written }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.record({
      scalar: fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(null), fc.constantFrom('{"a": 1, "a": 2}', '[[[', '\\"')),
    }),
    fc.record({ array: fc.array(tie('value'), { maxLength: 4 }) }),
    fc.record({ object: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }) }),
  ),
})).value

/** Writes a key with JSON.stringify, or every character as a \u escape. */
function writeKey(name: string, escaped: boolean): string {
  return escaped ? `"${[...name].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"` : JSON.stringify(name)
}

function serialize(value: Written, escapes: () => boolean, space: string): string {
  if ('scalar' in value) return JSON.stringify(value.scalar)
  if ('array' in value) return `[${value.array.map((item) => serialize(item, escapes, space)).join(`,${space}`)}]`
  return `{${value.object.map(([name, item]) => `${space}${writeKey(name, escapes())}:${space}${serialize(item, escapes, space)}`).join(',')}}`
}

/** The first key held twice in one object, in the order a reader meets it, with its path: the reference. */
function firstDuplicate(value: Written, path: PathSegment[] = []): PathSegment[] | undefined {
  if ('scalar' in value) return undefined
  if ('array' in value) {
    for (const [index, item] of value.array.entries()) {
      const found = firstDuplicate(item, [...path, index])
      if (found !== undefined) return found
    }
    return undefined
  }
  const seen = new Set<string>()
  for (const [name, item] of value.object) {
    if (seen.has(name)) return [...path, name]
    seen.add(name)
    const found = firstDuplicate(item, [...path, name])
    if (found !== undefined) return found
  }
  return undefined
}

describe('the scan agrees with a reference on generated documents', () => {
  test('finds the first key held twice, at its path, however keys are escaped and the text laid out', () => {
    fc.assert(
      fc.property(written, fc.array(fc.boolean(), { minLength: 1 }), fc.constantFrom('', ' ', '\n  ', '\t'), (value, flips, space) => {
        let next = 0
        const text = serialize(value, () => flips[next++ % flips.length]!, space)
        const problem = problemOf(text)
        const expected = firstDuplicate(value)
        if (expected === undefined) expect(problem).toBeUndefined()
        else expect(problem).toMatchObject({ kind: 'duplicate-key', path: expected, key: expected.at(-1) })
      }),
      { numRuns: 2000 },
    )
  })
})

describe('one scan after another', () => {
  // Scans share their state (a records fixture scans each of its lines): one that stops at a problem
  // must leave nothing behind that the next scan would read as its own.
  const wide = (names: readonly string[]) => `{"outer": {${names.map((name, at) => `"${name}": ${at}`).join(', ')}}}`
  const keys = Array.from({ length: 20 }, (_, at) => `k${at}`)

  test('a scan stopped at a key held twice in a wide object leaves no key to the next', () => {
    expect(jsonStructureProblem(wide([...keys, 'k3']))).toMatchObject({ kind: 'duplicate-key', path: ['outer', 'k3'] })
    expect(jsonStructureProblem(wide(keys))).toBeUndefined()
    expect(jsonStructureProblem(wide(['k3', ...keys.slice(0, 4)]))).toMatchObject({ kind: 'duplicate-key', path: ['outer', 'k3'] })
  })

  test('a scan stopped too deep leaves no open container to the next', () => {
    expect(jsonStructureProblem(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`)).toMatchObject({ kind: 'too-deep' })
    expect(jsonStructureProblem('{"a": [1, {"b": 2, "a": 3}], "b": 4}')).toBeUndefined()
  })
})
