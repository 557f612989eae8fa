import { visit } from 'jsonc-parser'
import { FixtureError, preview } from '../common/errors.js'
import type { PathSegment } from '../common/json-path.js'

/**
 * The number at `path` of a JSON text as it is written there (`1`, `1.0`, `1e0`), or `undefined`
 * when no number stands there. `JSON.parse` reads `1.0` and `1` as the same number; a format that
 * asks for an integer, as Python's `type(x) is int` does, must look at the text.
 */
export function numberAsWritten(text: string, path: readonly PathSegment[]): string | undefined {
  const wanted = JSON.stringify(path)
  let found: string | undefined
  visit(text, {
    onLiteralValue(value: unknown, offset, length, _line, _column, pathSupplier) {
      if (typeof value === 'number' && found === undefined && JSON.stringify(pathSupplier()) === wanted) found = text.slice(offset, offset + length)
    },
  })
  return found
}

/** Whether a number written so reads as an integer in Python's `json` module: digits, no fraction, no exponent. */
export function isIntegerLiteral(written: string): boolean {
  return /^-?(?:0|[1-9]\d*)$/.test(written)
}

/**
 * The path of the first string or key of a JSON value that is not well-formed Unicode (it holds a
 * lone surrogate, which `\ud83d` writes in JSON), depth first; `undefined` when there is none.
 * Such a string has no UTF-8 encoding, so it cannot be compared by code point as the reference
 * compares it: `"🚦".includes("\ud83d")` is true in JavaScript, `"\ud83d" in "🚦"` false in Python.
 */
export function malformedStringPath(value: unknown): PathSegment[] | undefined {
  return firstPath(value, (text) => !text.isWellFormed())
}

/**
 * The path of the first key `"__proto__"` of a JSON value, depth first. `JSON.parse` keeps it as a
 * member, but a schema's parse of the value, like any assignment, reads it as the prototype: the
 * member would be dropped without a word.
 */
export function prototypeKeyPath(value: unknown): PathSegment[] | undefined {
  return firstPath(value, (text, key) => key && text === '__proto__')
}

/** The path of the first string or key of a JSON value that `found` accepts, depth first. */
function firstPath(value: unknown, found: (text: string, key: boolean) => boolean): PathSegment[] | undefined {
  const stack: { value: unknown; path: PathSegment[] }[] = [{ value, path: [] }]
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!
    if (typeof current === 'string') {
      if (found(current, false)) return path
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) stack.push({ value: current[index], path: [...path, index] })
    } else if (typeof current === 'object' && current !== null) {
      const keys = Object.keys(current)
      for (const key of keys) if (found(key, true)) return [...path, key]
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index]!
        // Cast: an object of the parsed document, indexed by one of its own keys.
        stack.push({ value: (current as Record<string, unknown>)[key], path: [...path, key] })
      }
    }
  }
  return undefined
}

/** Refuses a rubric file holding a string or key that is not well-formed Unicode, at its path. */
export function requireWellFormedRubric(value: unknown, file: string): void {
  const path = malformedStringPath(value)
  if (path === undefined) return
  let found: unknown = value
  // Cast: the path was taken from this document, so each segment indexes what the last one found.
  for (const segment of path) found = (found as Record<string | number, unknown>)[segment]
  throw new FixtureError({
    code: 'RUBRIC_INVALID',
    file,
    path,
    summary: 'the text holds a lone surrogate (half of a character beyond U+FFFF), so it is not well-formed Unicode.',
    expected: 'well-formed text',
    found: preview(typeof found === 'string' ? found : path.at(-1)),
    hint: 'replace the broken character: the text was probably cut in the middle of an emoji; texts are compared character by character.',
  })
}
