import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { canonicalJson, canonicalJsonKeeping, compareCodePoints, fingerprint } from '../../../src/core/json/canonical-json.js'
import { CanonicalJsonError } from '../../../src/core/common/errors.js'
import { pythonFingerprints } from '../../helpers/python-reference.js'
import { reorderKeys, unicodeText } from './arbitraries.js'

// Characters on both sides of the places where UTF-16 order and code point order disagree.
const BOUNDARY = ['a', 'é', '\uD7FF', '\uE000', '\uFFFD', '\uFFFF', '\u{10000}', '\u{1F600}', '\u{10FFFF}']

/** Object keys over the whole Unicode range, often built from the characters where orderings differ. */
const key = fc.oneof(
  unicodeText({ maxLength: 6 }),
  fc.array(fc.constantFrom(...BOUNDARY), { maxLength: 4 }).map((chars) => chars.join('')),
  fc.constantFrom('__proto__', 'constructor', '1', '10', '-1'),
)

/** Integers JSON.parse reads exactly and Python reads as int: ±(2^53 − 1). */
const safeInteger = fc.maxSafeInteger()
/**
 * Non-integral finite numbers: Python reads them as float and writes their repr. Any double, and
 * decimals of every magnitude around the switch to exponent form (1e-05, 0.0001, 1.5e-07).
 */
const nonIntegral = fc
  .oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.tuple(fc.integer({ min: -999_999, max: 999_999 }), fc.integer({ min: -24, max: 12 })).map(([digits, exponent]) => digits * 10 ** exponent),
  )
  .filter((value) => !Number.isInteger(value))

const { value: jsonValue } = fc.letrec<{ value: unknown; scalar: unknown; array: unknown[]; object: Record<string, unknown> }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('scalar'), tie('array'), tie('object')),
  scalar: fc.oneof(fc.constantFrom(null, -0), fc.boolean(), safeInteger, nonIntegral, unicodeText({ maxLength: 12 })),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
}))

/** The error a value is refused with, or `undefined` when it has a canonical form. */
function refusal(value: unknown): unknown {
  try {
    canonicalJson(value)
    return undefined
  } catch (error) {
    return error
  }
}

describe('fingerprint and canonicalJson are the reference definition', () => {
  test("equal Python's json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(',', ':')) and its SHA-256 on generated values", () => {
    // One python3 process per batch of values, not per value; a failure names every value that
    // differs, so shrinking (a python3 process a step) is cut short.
    fc.assert(
      fc.property(fc.limitShrink(fc.array(jsonValue, { minLength: 1, maxLength: 120 }), 20), (values) => {
        const reference = pythonFingerprints(values)
        const differing = values.flatMap((value, index) =>
          canonicalJson(value) === reference.texts[index] && fingerprint(value) === reference.fingerprints[index]
            ? []
            : [{ value: JSON.stringify(value), ours: canonicalJson(value), python: reference.texts[index] }],
        )
        expect(differing).toEqual([])
      }),
      { numRuns: 4 },
    )
  })

  test('a number holding an integral value is written as an integer (1.0 → 1, -0 → 0, 1e2 → 100) when safe, and refused beyond ±(2^53 − 1)', () => {
    const integral = fc.oneof(
      fc.constantFrom(-0, 0, 100, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1e21, 1e300),
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => Number.isInteger(value)),
      safeInteger,
    )
    fc.assert(
      fc.property(integral, (value) => {
        if (!Number.isSafeInteger(value)) return void expect(refusal(value)).toBeInstanceOf(CanonicalJsonError)
        const digits = BigInt(value).toString()
        expect(canonicalJson(value)).toBe(digits)
        // JSON.parse cannot tell these spellings apart, so neither can the fingerprint (the documented deviation).
        for (const spelling of [`${digits}.0`, `${digits}e0`, `${digits}.000E+0`]) expect(canonicalJson(JSON.parse(spelling))).toBe(digits)
      }),
      { numRuns: 200 },
    )
  })

  test('a string holding a lone surrogate, as a value or a key at any depth, is refused with CanonicalJsonError at its path', () => {
    const surrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit))
    // Well-formed text never ends in a high surrogate nor starts with a low one, so the inserted unit stays alone.
    const broken = fc.tuple(unicodeText(), surrogate, unicodeText()).map(([before, unit, after]) => before + unit + after)
    const step = fc.oneof(
      fc.record({ kind: fc.constant('index' as const), siblings: fc.array(jsonValue, { maxLength: 2 }), at: fc.nat() }),
      fc.record({ kind: fc.constant('key' as const), key, siblings: fc.dictionary(key, jsonValue, { maxKeys: 2 }) }),
    )
    fc.assert(
      fc.property(broken, fc.boolean(), jsonValue, fc.array(step, { maxLength: 3 }), (text, asKey, keyed, steps) => {
        expect(text.isWellFormed()).toBe(false)
        let value: unknown = asKey ? Object.fromEntries([[text, keyed]]) : text
        let path: (string | number)[] = asKey ? [text] : []
        for (const each of steps) {
          if (each.kind === 'index') {
            const at = each.at % (each.siblings.length + 1)
            value = [...each.siblings.slice(0, at), value, ...each.siblings.slice(at)]
            path = [at, ...path]
          } else {
            value = Object.fromEntries([...Object.entries(each.siblings).filter(([name]) => name !== each.key), [each.key, value]])
            path = [each.key, ...path]
          }
        }
        const error = refusal(value)
        expect(error).toBeInstanceOf(CanonicalJsonError)
        expect((error as CanonicalJsonError).path).toEqual(path)
        expect(() => fingerprint(value)).toThrow(CanonicalJsonError)
      }),
      { numRuns: 150 },
    )
  })

  test("writing a value while keeping the texts of objects inside it (nested ones too) gives the same text, and each kept text is that object's own", () => {
    const inner = (value: unknown, found: object[] = []): object[] => {
      if (typeof value === 'object' && value !== null) {
        found.push(value)
        for (const item of Object.values(value)) inner(item, found)
      }
      return found
    }
    fc.assert(
      fc.property(jsonValue, fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }), (value, picks) => {
        if (refusal(value) !== undefined) return
        // Which of the value's objects and arrays are wanted, by their order in a walk of it.
        const wanted = new Set(inner(value).filter((_, index) => picks[index % picks.length]))
        const kept = new Map<unknown, string>()
        expect(canonicalJsonKeeping(value, wanted, kept)).toBe(canonicalJson(value))
        expect(kept.size).toBe(wanted.size)
        for (const object of wanted) expect(kept.get(object)).toBe(canonicalJson(object))
      }),
      { numRuns: 300 },
    )
  })

  test('the order of keys in any object, at any depth, does not change the canonical text', () => {
    fc.assert(
      fc.property(jsonValue, fc.gen(), (value, g) => {
        const reordered = reorderKeys(value, (keys) => g(fc.shuffledSubarray, keys, { minLength: keys.length, maxLength: keys.length }))
        expect(canonicalJson(reordered)).toBe(canonicalJson(value))
        expect(fingerprint(reordered)).toBe(fingerprint(value))
      }),
      { numRuns: 200 },
    )
  })

  test('keys are sorted by code point, which is the order of their UTF-8 bytes, not by UTF-16 unit', () => {
    const utf8Order = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
    fc.assert(
      fc.property(fc.uniqueArray(key, { maxLength: 8 }), (keys) => {
        const object = Object.fromEntries(keys.map((name, index) => [name, index]))
        const sorted = [...keys].sort(utf8Order)
        expect(canonicalJson(object)).toBe(`{${sorted.map((name) => `${JSON.stringify(name)}:${keys.indexOf(name)}`).join(',')}}`)
      }),
      { numRuns: 200 },
    )
    fc.assert(
      fc.property(key, key, key, (prefix, a, b) => {
        expect(Math.sign(compareCodePoints(prefix + a, prefix + b))).toBe(Math.sign(utf8Order(prefix + a, prefix + b)))
      }),
      { numRuns: 200 },
    )
  })
})
