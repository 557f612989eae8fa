import { describe, expect, test } from 'vitest'
import { canonicalJson, compareCodePoints, fingerprint, NULL_FINGERPRINT, sha256Hex } from '../../../src/core/json/canonical-json.js'
import { CanonicalJsonError } from '../../../src/core/common/errors.js'
import { pythonFingerprints } from '../../helpers/python-reference.js'

const ASTRAL = '\u{1F600}' // 😀, two UTF-16 units
const PRIVATE_BMP = '\uE000'
const PRIVATE_ASTRAL = '\u{10FFFD}'

const tricky: unknown[] = [
  null,
  true,
  false,
  0,
  -0,
  1,
  -1,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  0.1,
  0.1 + 0.2,
  -2.5,
  1e-4,
  1.2e-4,
  1e-5,
  1.5e-7,
  -3.25e-12,
  5e-324,
  2.2250738585072014e-308,
  123456789.125,
  1234567890123456.8,
  '',
  'plain ascii',
  'quote " backslash \\ slash /',
  'controls \u0000\u0001\u0008\u0009\u000a\u000b\u000c\u000d\u001b\u001f end',
  'DEL \u007f, line separator \u2028, paragraph separator \u2029',
  `astral ${ASTRAL} private ${PRIVATE_BMP} ${PRIVATE_ASTRAL} U+FFFF \uffff`,
  'combining e\u0301 and é, ß, 中文, עברית',
  [],
  {},
  [1, 'two', [3, { four: 4 }], null, true],
  { b: 1, a: 2, A: 3, '': 4, é: 5, aa: 6 },
  { [PRIVATE_BMP]: 'private', [ASTRAL]: 'astral', z: 'z', '\uffff': 'max bmp', [PRIVATE_ASTRAL]: 'plane 16' },
  { [`${PRIVATE_BMP}x`]: 1, [`${ASTRAL}x`]: 2, [`a${ASTRAL}`]: 3, [`a${PRIVATE_BMP}`]: 4 },
  { 'key\n"quoted"': { nested: [{ é: ['\u2028'] }] } },
]

describe('fingerprint', () => {
  test('equals the reference Python definition on tricky values, byte for byte', () => {
    const reference = pythonFingerprints(tricky)
    expect(tricky.map(canonicalJson)).toEqual(reference.texts)
    expect(tricky.map(fingerprint)).toEqual(reference.fingerprints)
  })

  test('equals the reference on generated values (fixed seed, so a failure reproduces)', () => {
    const random = mulberry32(0x5eed)
    const values = Array.from({ length: 300 }, () => randomJson(random, 3))
    const reference = pythonFingerprints(values)
    expect(values.map(fingerprint)).toEqual(reference.fingerprints)
  })

  test('sorts keys by code point, not by UTF-16 unit', () => {
    // U+E000 comes before U+1F600 by code point, after it by UTF-16 unit (0xE000 > 0xD83D).
    expect(canonicalJson({ [ASTRAL]: 2, [PRIVATE_BMP]: 1 })).toBe(`{"${PRIVATE_BMP}":1,"${ASTRAL}":2}`)
    expect([ASTRAL, PRIVATE_BMP].sort()).toEqual([ASTRAL, PRIVATE_BMP]) // what a naive sort does
    expect(compareCodePoints(PRIVATE_BMP, ASTRAL)).toBeLessThan(0)
    expect(compareCodePoints('a', 'ab')).toBeLessThan(0)
    expect(compareCodePoints('b', 'a')).toBeGreaterThan(0)
    expect(compareCodePoints(ASTRAL, ASTRAL)).toBe(0)
  })

  test('writes non-ASCII raw as UTF-8 and escapes as Python does', () => {
    expect(canonicalJson('é\u2028\u007f"\\\n\u0001')).toBe('"é\u2028\u007f\\"\\\\\\n\\u0001"')
    expect(sha256Hex('"é"')).toBe(fingerprint('é'))
  })

  test('writes non-integral numbers as Python repr does', () => {
    expect([1.5e-7, 1e-5, 1e-4, 0.5, -0.00012].map(canonicalJson)).toEqual(['1.5e-07', '1e-05', '0.0001', '0.5', '-0.00012'])
  })

  test('reads 1.0 as the integer 1, which JSON.parse cannot tell apart (documented difference)', () => {
    expect(canonicalJson(JSON.parse('[1.0, -0.0, 1e2]'))).toBe('[1,0,100]')
  })

  test('the fingerprint of a missing review is the fingerprint of null', () => {
    expect(fingerprint(null)).toBe(NULL_FINGERPRINT)
    expect(NULL_FINGERPRINT).toBe(pythonFingerprints([null]).fingerprints[0])
  })

  test('pins known fingerprints', () => {
    // computed once with python3 and the reference definition
    const value = { [PRIVATE_BMP]: 1, [ASTRAL]: 2, a: [1.5e-7, 1e-4, 1e-5], z: '\u2028\u007f\u0000"\\' }
    expect(fingerprint(value)).toBe('32bc82f75a7158831161fcf39df64a2ffa3c2e0bda2da60d29d8f6e800669aa9')
  })

  test.each([
    ['a lone surrogate', { text: 'cut \uD83D here' }, 'text'],
    ['NaN', { score: Number.NaN }, 'score'],
    ['Infinity', [Number.POSITIVE_INFINITY], '[0]'],
    ['an unsafe integer', { id: 2 ** 53 + 2 }, 'id'],
    ['undefined', { missing: undefined }, 'missing'],
    ['a Date', { when: new Date(0) }, 'when'],
    ['a function', [() => 1], '[0]'],
    ['a bigint', { big: 1n }, 'big'],
    // biome-ignore lint/suspicious/noSparseArray: a hole is what this case refuses
    ['a sparse array', [1, , 3], '[1]'],
  ])('refuses %s with the path of the value', (_, value, path) => {
    let error: unknown
    try {
      fingerprint(value)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(CanonicalJsonError)
    expect((error as CanonicalJsonError).location).toBe(path)
  })
})

function mulberry32(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const alphabet = ['a', 'B', 'é', ' ', '"', '\\', '\n', '\u0000', '\u001f', '\u007f', '\u2028', '\uE000', '\uFFFF', ASTRAL, PRIVATE_ASTRAL, '中', '\u0301']

function randomString(random: () => number): string {
  const length = Math.floor(random() * 6)
  return Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('')
}

function randomNumber(random: () => number): number {
  const choice = random()
  if (choice < 0.4) return Math.floor((random() - 0.5) * 2 ** Math.floor(random() * 53))
  const magnitude = 10 ** Math.floor(random() * 40 - 25)
  const value = (random() - 0.5) * magnitude
  return Number.isInteger(value) && !Number.isSafeInteger(value) ? 0.5 : value
}

function randomJson(random: () => number, depth: number): unknown {
  const choice = random()
  if (depth === 0 || choice < 0.3) {
    const scalar = random()
    if (scalar < 0.1) return null
    if (scalar < 0.2) return random() < 0.5
    if (scalar < 0.55) return randomNumber(random)
    return randomString(random)
  }
  if (choice < 0.6) return Array.from({ length: Math.floor(random() * 4) }, () => randomJson(random, depth - 1))
  const object: Record<string, unknown> = {}
  for (let count = Math.floor(random() * 5); count > 0; count--) object[randomString(random)] = randomJson(random, depth - 1)
  return object
}

describe('canonicalJson', () => {
  test('writes numbers below 1e-4 with an exponent of at least two digits, and from 1e-4 up without one', () => {
    expect([1e-4, 9.99e-5, 1e-5, -1e-7, 1.5e-10, 1e-100, 5e-324, 0.5, 123.25, -0].map(canonicalJson)).toEqual([
      '0.0001',
      '9.99e-05',
      '1e-05',
      '-1e-07',
      '1.5e-10',
      '1e-100',
      '5e-324',
      '0.5',
      '123.25',
      '0',
    ])
  })

  test('writes the integers at ±(2^53 − 1) and refuses those beyond, however they are written', () => {
    expect(canonicalJson([Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER])).toBe('[9007199254740991,-9007199254740991]')
    for (const unsafe of [2 ** 53, -(2 ** 53), 1e21, 1e300]) expect(() => canonicalJson(unsafe)).toThrow(CanonicalJsonError)
  })

  test('writes keys sorted by code point at every depth, separated without spaces', () => {
    expect(canonicalJson({ b: { d: [true, false, null], c: {} }, a: [] })).toBe('{"a":[],"b":{"c":{},"d":[true,false,null]}}')
    expect(canonicalJson(Object.assign(Object.create(null) as object, { b: 1, a: 2 }))).toBe('{"a":2,"b":1}')
    // A surrogate key anywhere among the keys switches to the code-point sort.
    expect(canonicalJson({ b: 1, [PRIVATE_BMP]: 2, a: 3, [ASTRAL]: 4 })).toBe(`{"a":3,"b":1,"${PRIVATE_BMP}":2,"${ASTRAL}":4}`)
  })

  test('orders code units around the surrogate range as code points order them', () => {
    // U+D7FF < U+E000 < U+FFFF < U+10000 (D800 DC00) < U+10FFFF (DBFF DFFF)
    const ordered = ['\ud7ff', '\ue000', '\uffff', '\u{10000}', '\u{10FFFF}']
    for (let index = 1; index < ordered.length; index++) {
      expect(compareCodePoints(ordered[index - 1]!, ordered[index]!)).toBeLessThan(0)
      expect(compareCodePoints(ordered[index]!, ordered[index - 1]!)).toBeGreaterThan(0)
    }
    expect(compareCodePoints('ab', 'ab')).toBe(0)
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0)
  })

  test('refuses a lone surrogate, saying what to do', () => {
    expect(() => canonicalJson({ answer: { text: 'cut \ud83d' } })).toThrowErrorMatchingInlineSnapshot(`
      [CanonicalJsonError: answer › text: the string holds a lone surrogate, which has no UTF-8 encoding.
        found:    "cut \\ud83d"
        fix:      replace the broken character: the text was probably cut in the middle of an emoji or other character beyond U+FFFF.]
    `)
    // A key is refused as its value is, at the path that ends with it.
    expect(() => canonicalJson({ ok: { ['key \udc00']: 1 } })).toThrow(expect.objectContaining({ path: ['ok', 'key \udc00'], found: '"key \\udc00"' }))
  })

  test('refuses a number that is not finite or an unsafe integer, saying what to do', () => {
    expect(() => canonicalJson({ scores: [1, Number.NEGATIVE_INFINITY] })).toThrowErrorMatchingInlineSnapshot(`
      [CanonicalJsonError: scores[1]: the number is not finite, and JSON has no way to write it.
        found:    -Infinity
        fix:      use a finite number, or a string if the value is a marker.]
    `)
    expect(() => canonicalJson({ id: 2 ** 53 })).toThrowErrorMatchingInlineSnapshot(`
      [CanonicalJsonError: id: the integer is beyond ±(2^53 − 1): JavaScript may already have rounded it, so its fingerprint could not match the reference.
        found:    9007199254740992
        fix:      write large identifiers as strings.]
    `)
  })

  test('refuses what is not JSON data, naming what it is and where', () => {
    class Judgement {}
    const orphan = Object.create({ constructor: undefined }) as object
    const found = (value: unknown) => {
      try {
        canonicalJson(value)
      } catch (error) {
        if (error instanceof CanonicalJsonError) return `${error.location} | ${error.found ?? ''} | ${error.hint}`
      }
      return 'written'
    }
    expect(
      // biome-ignore lint/suspicious/noSparseArray: a hole is one of the values refused
      [undefined, { a: [new Judgement()] }, { when: new Date(0) }, [orphan], { f: () => 1 }, { s: Symbol('x') }, { n: 1n }, { list: [1, , 3] }].map(found),
    ).toMatchInlineSnapshot(`
      [
        "(value) | undefined | remove or convert the value at the top level.",
        "a[0] | an instance of Judgement | remove or convert the value at a[0].",
        "when | an instance of Date | remove or convert the value at when.",
        "[0] | an instance of an unknown class | remove or convert the value at [0].",
        "f | a function | remove or convert the value at f.",
        "s | a symbol | remove or convert the value at s.",
        "n | a bigint | remove or convert the value at n.",
        "list[1] | an empty array slot | remove or convert the value at list[1].",
      ]
    `)
    expect(() => canonicalJson({ a: new Map() })).toThrowErrorMatchingInlineSnapshot(`
      [CanonicalJsonError: a: the value is not JSON data, so it has no fingerprint.
        expected: null, a boolean, a number, a string, an array or a plain object
        found:    an instance of Map
        fix:      remove or convert the value at a.]
    `)
  })
})
