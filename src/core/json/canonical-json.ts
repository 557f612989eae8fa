import { hash } from 'node:crypto'
import { CanonicalJsonError } from '../common/errors.js'
import { formatPath, type PathSegment } from '../common/json-path.js'

/**
 * The canonical JSON text of a value, byte for byte the text of Python's
 * `json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(',', ':'))`:
 *
 * - object keys sorted by Unicode code point (not by UTF-16 code unit);
 * - no whitespace; non-ASCII characters written as they are (UTF-8 once encoded);
 * - the same string escapes: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, and `\u00XX` for the other
 *   control characters; U+2028, U+2029 and U+007F are written raw;
 * - integers as digits; non-integral numbers as Python's `repr(float)` (`1e-07`, `0.0001`, `2.5`).
 *
 * `JSON.parse` reads `1.0` and `1` as the same number, so a number written with a fraction or
 * exponent but holding an integral value is written as an integer (`1.0` → `1`), whereas Python
 * keeps a float (`1.0`). Values that Python could not hash the same way are refused with a
 * {@link CanonicalJsonError}: non-finite numbers, integers beyond ±(2^53 − 1), strings holding a
 * lone surrogate, and anything that is not plain JSON data (`undefined`, functions, class instances).
 */
export function canonicalJson(value: unknown): string {
  return write(value, [], undefined)
}

/**
 * {@link canonicalJson}, keeping on the way the text of the values in `wanted` (objects inside
 * `value`): their fingerprints then cost one hash each, not a second serialization.
 */
export function canonicalJsonKeeping(value: unknown, wanted: ReadonlySet<unknown>, kept: Map<unknown, string>): string {
  return write(value, [], wanted.size === 0 ? undefined : { wanted, kept })
}

interface Keeping {
  readonly wanted: ReadonlySet<unknown>
  readonly kept: Map<unknown, string>
}

/** SHA-256 (lowercase hex) of a value's {@link canonicalJson} text encoded as UTF-8. */
export function fingerprint(value: unknown): string {
  return sha256Hex(canonicalJson(value))
}

/** SHA-256 (lowercase hex) of raw bytes, or of a string encoded as UTF-8. */
export function sha256Hex(content: string | Uint8Array): string {
  return hash('sha256', content, 'hex')
}

/** The fingerprint of a missing review, `fingerprint(null)`. */
export const NULL_FINGERPRINT = '74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b'

// Strings are built by concatenation (V8 ropes) rather than joined from arrays: at 100k cases
// the fingerprints are most of the work, and this halves it. Each piece is appended on its own
// (`out += a; out += b`), never joined first, so that a member costs as few ropes as it can: its
// key's prefix (`,"key":`, written once per shape of object), then its value.
function write(value: unknown, path: PathSegment[], keeping: Keeping | undefined): string {
  if (keeping === undefined || !keeping.wanted.has(value)) return writeValue(value, path, keeping)
  const text = writeValue(value, path, keeping)
  keeping.kept.set(value, text)
  return text
}

function writeValue(value: unknown, path: PathSegment[], keeping: Keeping | undefined): string {
  switch (typeof value) {
    case 'string':
      return quote(value, path)
    case 'number':
      return formatNumber(value, path)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'object':
      if (value === null) return 'null'
      if (Array.isArray(value)) return writeArray(value, path, keeping)
      if (isPlainObject(value)) return writeObject(value, path, keeping)
      throw notJson(path, `an instance of ${value.constructor?.name ?? 'an unknown class'}`)
    default:
      throw notJson(path, typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`)
  }
}

function writeArray(items: readonly unknown[], path: PathSegment[], keeping: Keeping | undefined): string {
  if (items.length === 0) return '[]'
  let out = '['
  for (let index = 0; index < items.length; index++) {
    if (index > 0) out += ','
    if (!(index in items)) throw notJson([...path, index], 'an empty array slot')
    path.push(index)
    out += write(items[index], path, keeping)
    path.pop()
  }
  out += ']'
  return out
}

function writeObject(object: object, path: PathSegment[], keeping: Keeping | undefined): string {
  const order = orderOf(Object.keys(object), path)
  const { sorted } = order
  if (sorted.length === 0) return '{}'
  // A plain string's quotes join the pieces around it (`","key":"`), so that a string member is
  // two appends: the text between the values, then the value.
  let out = ''
  let open = false
  for (let index = 0; index < sorted.length; index++) {
    const key = sorted[index]!
    // Cast: a plain object of JSON, indexed by one of its own keys; no Reflect.get on this hot path.
    const value = (object as Record<string, unknown>)[key]
    if (typeof value === 'string' && !NEEDS_CARE.test(value)) {
      out += (open ? order.closedQuoted : order.quoted)[index]!
      out += value
      open = true
    } else {
      path.push(key)
      out += (open ? order.closed : order.prefixes)[index]!
      out += write(value, path, keeping)
      path.pop()
      open = false
    }
  }
  out += open ? '"}' : '}'
  return out
}

/**
 * The keys of an object in canonical order, each with the text before its value: `{"key":` for the
 * first, `,"key":` for the others (`prefixes`); the same closing the string before it
 * (`closed`: `","key":`), opening a string value (`quoted`: `,"key":"`), or both (`closedQuoted`).
 */
interface KeyOrder {
  readonly keys: readonly string[]
  readonly sorted: readonly string[]
  readonly prefixes: readonly string[]
  readonly closed: readonly string[]
  readonly quoted: readonly string[]
  readonly closedQuoted: readonly string[]
}

// A fixture holds many objects of a few shapes, their keys in the same order: the last order seen
// for a number of keys and a first key is kept, so that most objects are neither sorted nor quoted
// again. Bounded: one entry per (number of keys, first key).
const orders = new Map<number, Map<string, KeyOrder>>()

function orderOf(keys: string[], path: PathSegment[]): KeyOrder {
  if (keys.length === 0) return { keys, sorted: keys, prefixes: keys, closed: keys, quoted: keys, closedQuoted: keys }
  let byFirst = orders.get(keys.length)
  const known = byFirst?.get(keys[0]!)
  if (known !== undefined && sameKeys(known.keys, keys)) return known
  const sorted = sortKeys([...keys])
  const prefixes = sorted.map((key, index) => {
    path.push(key)
    const text = quote(key, path)
    path.pop()
    return `${index === 0 ? '{' : ','}${text}:`
  })
  const order: KeyOrder = {
    keys,
    sorted,
    prefixes,
    closed: prefixes.map((prefix) => `"${prefix}`),
    quoted: prefixes.map((prefix) => `${prefix}"`),
    closedQuoted: prefixes.map((prefix) => `"${prefix}"`),
  }
  if (byFirst === undefined) orders.set(keys.length, (byFirst = new Map()))
  if (byFirst.size < 4096) byFirst.set(keys[0]!, order)
  return order
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false
  return true
}

/** Sorts keys by code point; the native UTF-16 sort agrees unless a key holds a surrogate. */
function sortKeys(keys: string[]): string[] {
  for (const key of keys) if (SURROGATE.test(key)) return keys.sort(compareCodePoints)
  return keys.sort()
}

const SURROGATE = /[\ud800-\udfff]/
// Characters JSON.stringify would escape, and surrogates (to check pairing).
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters JSON text must escape are the point of this pattern
const NEEDS_CARE = /["\\\u0000-\u001f\ud800-\udfff]/

/**
 * Orders two strings by Unicode code point. UTF-16 order differs from it only where a surrogate
 * (U+D800–U+DFFF, half of a character beyond U+FFFF) meets a unit in U+E000–U+FFFF, so only the
 * first differing unit needs remapping.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let index = 0; index < length; index++) {
    const x = a.charCodeAt(index)
    const y = b.charCodeAt(index)
    if (x !== y) return fixup(x) - fixup(y)
  }
  return a.length - b.length
}

function fixup(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800
  if (unit >= 0xd800) return unit + 0x2000
  return unit
}

function quote(text: string, path: PathSegment[]): string {
  if (!NEEDS_CARE.test(text)) return `"${text}"`
  if (!text.isWellFormed()) {
    throw new CanonicalJsonError({
      code: 'NOT_CANONICAL_JSON',
      path: [...path],
      summary: 'the string holds a lone surrogate, which has no UTF-8 encoding.',
      found: JSON.stringify(text),
      hint: 'replace the broken character: the text was probably cut in the middle of an emoji or other character beyond U+FFFF.',
    })
  }
  // JSON.stringify escapes exactly the characters Python's json module escapes when
  // ensure_ascii is off, once lone surrogates are excluded.
  return JSON.stringify(text)
}

function formatNumber(value: number, path: PathSegment[]): string {
  const refuse = (summary: string, hint: string) => new CanonicalJsonError({ code: 'NOT_CANONICAL_JSON', path: [...path], summary, found: String(value), hint })
  if (!Number.isFinite(value))
    throw refuse('the number is not finite, and JSON has no way to write it.', 'use a finite number, or a string if the value is a marker.')
  if (Number.isInteger(value)) {
    if (!Number.isSafeInteger(value)) {
      throw refuse(
        'the integer is beyond ±(2^53 − 1): JavaScript may already have rounded it, so its fingerprint could not match the reference.',
        'write large identifiers as strings.',
      )
    }
    return String(value) // -0 is written as 0, as Python writes the integer -0
  }
  // Python's repr(float): the shortest digits that round-trip (which toExponential() also gives),
  // in exponent form when the decimal exponent is below -4, with at least two exponent digits.
  const [mantissa = '', exponentText = '0'] = value.toExponential().split('e')
  const exponent = Number(exponentText)
  if (exponent < -4) return `${mantissa}e-${String(-exponent).padStart(2, '0')}`
  return String(value)
}

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function notJson(path: PathSegment[], found: string): CanonicalJsonError {
  return new CanonicalJsonError({
    code: 'NOT_CANONICAL_JSON',
    path: [...path],
    summary: 'the value is not JSON data, so it has no fingerprint.',
    expected: 'null, a boolean, a number, a string, an array or a plain object',
    found,
    hint: `remove or convert the value at ${formatPath(path) || 'the top level'}.`,
  })
}
