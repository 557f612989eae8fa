import fc from 'fast-check'

/**
 * One Unicode scalar value (any code point but a surrogate), weighted towards the places where
 * encodings and orderings differ: controls (escaped in JSON), quote and backslash, U+2028/U+2029,
 * U+E000–U+FFFF (after the surrogates in UTF-16, before astral characters by code point) and
 * astral characters (a surrogate pair in UTF-16, four bytes in UTF-8).
 */
export const scalarChar: fc.Arbitrary<string> = fc
  .oneof(
    { arbitrary: fc.integer({ min: 0x20, max: 0x7e }), weight: 4 },
    fc.integer({ min: 0, max: 0x1f }),
    fc.constantFrom(0x22, 0x5c, 0x7f, 0x2028, 0x2029, 0xfeff),
    fc.integer({ min: 0x80, max: 0xd7ff }),
    fc.integer({ min: 0xe000, max: 0xffff }),
    fc.integer({ min: 0x10000, max: 0x10ffff }),
  )
  .map((codePoint) => String.fromCodePoint(codePoint))

/** Well-formed text over the whole Unicode range: built from {@link scalarChar}, or fast-check's binary unit. */
export function unicodeText(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  const { minLength = 0, maxLength = 8 } = constraints
  return fc.oneof(
    fc.array(scalarChar, { minLength, maxLength }).map((chars) => chars.join('')),
    fc.string({ unit: 'binary', minLength, maxLength }),
  )
}

/** A change of one character of a text: positions are taken modulo its length in code points. */
export type CharEdit =
  | { readonly kind: 'replace'; readonly at: number; readonly char: string }
  | { readonly kind: 'insert'; readonly at: number; readonly char: string }
  | { readonly kind: 'delete'; readonly at: number }

export const charEdit: fc.Arbitrary<CharEdit> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), char: scalarChar }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), char: scalarChar }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
)

/** Applies an edit to the code points of a text, so a surrogate pair is never split. */
export function applyCharEdit(text: string, edit: CharEdit): string {
  const chars = [...text]
  switch (edit.kind) {
    case 'replace':
      if (chars.length === 0) return edit.char
      chars[edit.at % chars.length] = edit.char
      break
    case 'insert':
      chars.splice(edit.at % (chars.length + 1), 0, edit.char)
      break
    case 'delete':
      if (chars.length > 0) chars.splice(edit.at % chars.length, 1)
      break
  }
  return chars.join('')
}

/** A change of one byte of a file: replaced (never by itself), inserted or deleted. */
export type ByteEdit =
  | { readonly kind: 'replace'; readonly at: number; readonly delta: number }
  | { readonly kind: 'insert'; readonly at: number; readonly byte: number }
  | { readonly kind: 'delete'; readonly at: number }

export const byteEdit: fc.Arbitrary<ByteEdit> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), delta: fc.integer({ min: 1, max: 255 }) }), weight: 2 },
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
)

/** Applies a byte edit to a copy of the bytes; the result always differs from them. */
export function applyByteEdit(bytes: Uint8Array, edit: ByteEdit): Uint8Array {
  switch (edit.kind) {
    case 'replace': {
      const copy = Uint8Array.from(bytes)
      const at = edit.at % bytes.length
      copy[at] = (bytes[at]! + edit.delta) % 256
      return copy
    }
    case 'insert': {
      const at = edit.at % (bytes.length + 1)
      return Uint8Array.from([...bytes.subarray(0, at), edit.byte, ...bytes.subarray(at)])
    }
    case 'delete': {
      const at = edit.at % bytes.length
      return Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + 1)])
    }
  }
}

/** Strict UTF-8 decoding, independent of the loader's: `undefined` for bytes that are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return undefined
  }
}

export type JsonPath = readonly (string | number)[]

/** Every string inside a JSON value (object keys excluded), with its path, in document order. */
export function stringLeaves(value: unknown, path: JsonPath = []): { path: JsonPath; value: string }[] {
  if (typeof value === 'string') return [{ path, value }]
  if (Array.isArray(value)) return value.flatMap((item, index) => stringLeaves(item, [...path, index]))
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => stringLeaves(item, [...path, key]))
  }
  return []
}

/** Where a string literal stands in a JSON text: `[start, end)` including its quotes. */
export interface StringLiteral {
  readonly start: number
  readonly end: number
  /** An object key rather than a value. */
  readonly key: boolean
}

/** The string literals of a JSON text, keys and values, in order. */
export function stringLiterals(text: string): StringLiteral[] {
  const literals: StringLiteral[] = []
  for (const match of text.matchAll(/"(?:[^"\\]|\\.)*"/gsu)) {
    const end = match.index + match[0].length
    literals.push({ start: match.index, end, key: /^\s*:/u.test(text.slice(end)) })
  }
  return literals
}

/**
 * The string values of a JSON text with their paths: each literal's place in the text beside the
 * path of the value it parses to. Checks that the two line up, so a test cannot edit the wrong string.
 */
export function locateStringValues(text: string): (StringLiteral & { path: JsonPath; value: string })[] {
  const values = stringLiterals(text).filter((literal) => !literal.key)
  const leaves = stringLeaves(JSON.parse(text))
  if (values.length !== leaves.length) throw new Error(`${values.length} string literals, ${leaves.length} string values`)
  return values.map((literal, index) => {
    const leaf = leaves[index]!
    if (JSON.parse(text.slice(literal.start, literal.end)) !== leaf.value) throw new Error(`literal ${index} is not the value at ${leaf.path.join('.')}`)
    return { ...literal, ...leaf }
  })
}

/** A copy of a JSON value with the keys of every object reordered by `order`; arrays keep their order. */
export function reorderKeys(value: unknown, order: (keys: string[]) => string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => reorderKeys(item, order))
  if (typeof value === 'object' && value !== null) {
    const object = value as Record<string, unknown>
    // fromEntries defines each key as an own property, "__proto__" included.
    return Object.fromEntries(order(Object.keys(object)).map((key) => [key, reorderKeys(object[key], order)]))
  }
  return value
}

/** A value at a path of a JSON value. */
export function valueAt(value: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value)
}

/** Sets the value at a path of a JSON value, in place. */
export function setValueAt(value: unknown, path: JsonPath, replacement: unknown): void {
  const parent = valueAt(value, path.slice(0, -1)) as Record<string | number, unknown>
  parent[path[path.length - 1]!] = replacement
}
