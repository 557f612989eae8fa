import { preview, type RubricErrorDetails } from '../common/errors.js'
import type { PathSegment } from '../common/json-path.js'
import { CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, skipString } from './json-scan.js'

/**
 * How deep a JSON document the package reads may nest, arrays and objects alike. The format's
 * files nest at most 7 levels (a scored case); a file nested thousands of levels deep is no fixture
 * file, and would exhaust the call stack of anything that walks the value (a message that shows
 * it, canonical JSON) long before anything said where it is.
 */
export const MAX_JSON_DEPTH = 64

/** What {@link jsonStructureProblem} found wrong with a JSON text that `JSON.parse` accepts. */
export type JsonStructureProblem =
  | {
      readonly kind: 'too-deep'
      /** The path of the container that opens one level too many. */
      readonly path: readonly PathSegment[]
      /** Its opening bracket. */
      readonly offset: number
    }
  | {
      readonly kind: 'duplicate-key'
      /** The path of the second occurrence: the object's path and the key. */
      readonly path: readonly PathSegment[]
      readonly key: string
      /** The second occurrence's opening quote. */
      readonly offset: number
      /** The first occurrence's opening quote. */
      readonly earlier: number
    }

/** How much of a too deep value's path a message shows. */
const SHOWN_DEPTH = 8

/** Past this many keys an object's keys are compared through a set rather than one by one. */
const FEW_KEYS = 16

/**
 * The first place where a JSON text nests deeper than `maxDepth`, or an object holds one key twice,
 * in one pass over the text; `undefined` when there is none. Only for a text `JSON.parse` accepted:
 * it reads the structure, not the syntax. `JSON.parse` keeps the last of two keys with one name
 * while a reader of the file sees the first, so a file that holds both says two things, and which
 * of them counts would be a guess. Strings are skipped with `indexOf`, and a key is compared in
 * place, so the scan costs little more than reading the text and allocates nothing per value.
 */
export function jsonStructureProblem(text: string, maxDepth: number = MAX_JSON_DEPTH): JsonStructureProblem | undefined {
  // Per open container, by depth from 1: whether it is an object, the index of its current
  // element (an array's), and where its keys begin on the key stack (an object's).
  const scratch = maxDepth <= MAX_JSON_DEPTH ? shared : newScratch(maxDepth)
  const { isObject, index, keysFrom, wide } = scratch
  wide.length = 0
  // The keys of every open object, innermost last: each key's opening quote and end, and whether it holds an escape.
  let keys = scratch.keys
  let keyCount = 0
  let depth = 0
  let expectKey = false
  let backslash = -1
  const length = text.length
  for (let at = 0; at < length; at++) {
    const code = text.charCodeAt(at)
    // Most of what is not in a string is indentation, digits and letters: each skipped after four comparisons
    // (a bracket and a brace differ by one bit, 0x20; no other character outside a string has theirs).
    const bracket = code & ~0x20
    if (code !== QUOTE && code !== COMMA && bracket !== OPEN_BRACKET && bracket !== CLOSE_BRACKET) continue
    if (code === QUOTE) {
      const end = stringEnd(text, at)
      if (expectKey) {
        expectKey = false
        // Whether the key holds an escape: the next backslash of the text, looked up again only once passed.
        if (backslash < at) backslash = nextBackslash(text, at)
        const escaped = backslash < end ? 1 : 0
        const from = keysFrom[depth]!
        const set = wide[depth]
        let earlier = -1
        if (set === undefined) {
          for (let other = from; other < keyCount; other++) {
            if (sameKey(text, keys.start[other]!, keys.end[other]!, keys.escaped[other] === 1, at, end, escaped === 1)) {
              earlier = keys.start[other]!
              break
            }
          }
        } else {
          const name = keyName(text, at, end, escaped === 1)
          if (set.has(name)) {
            for (let other = from; other < keyCount && earlier === -1; other++)
              if (keyName(text, keys.start[other]!, keys.end[other]!, keys.escaped[other] === 1) === name) earlier = keys.start[other]!
          } else set.add(name)
        }
        if (earlier !== -1) {
          const key = keyName(text, at, end, escaped === 1)
          const path = pathTo(text, { isObject, index, keysFrom, keys }, depth - 1, depth, keyCount)
          return { kind: 'duplicate-key', path: [...path, key], key, offset: at, earlier }
        }
        if (keyCount === keys.start.length) {
          keys = grown(keys)
          scratch.keys = keys
        }
        keys.start[keyCount] = at
        keys.end[keyCount] = end
        keys.escaped[keyCount] = escaped
        keyCount++
        if (set === undefined && keyCount - from > FEW_KEYS) {
          const names = new Set<string>()
          for (let other = from; other < keyCount; other++) names.add(keyName(text, keys.start[other]!, keys.end[other]!, keys.escaped[other] === 1))
          wide[depth] = names
        }
      }
      at = end - 1
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (depth === maxDepth) return { kind: 'too-deep', path: pathTo(text, { isObject, index, keysFrom, keys }, depth, depth, keyCount), offset: at }
      depth++
      isObject[depth] = code === OPEN_BRACE ? 1 : 0
      index[depth] = 0
      keysFrom[depth] = keyCount
      expectKey = code === OPEN_BRACE
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      keyCount = keysFrom[depth]!
      if (wide.length > depth) wide[depth] = undefined
      depth--
      expectKey = false
    } else if (code === COMMA) {
      if (isObject[depth] === 1) expectKey = true
      else index[depth]!++
    }
  }
  return undefined
}

/**
 * The scan's state per depth and its key stack. Reused from one scan to the next (a scan runs to its
 * end without yielding): a records fixture scans each of its lines, and allocating these for every
 * line cost more than the scan itself. Every slot is written before it is read, and `wide` is emptied.
 */
interface Scratch {
  readonly isObject: Uint8Array
  readonly index: Int32Array
  readonly keysFrom: Int32Array
  readonly wide: (Set<string> | undefined)[]
  keys: KeyStack
}

function newScratch(maxDepth: number): Scratch {
  return {
    isObject: new Uint8Array(maxDepth + 1),
    index: new Int32Array(maxDepth + 1),
    keysFrom: new Int32Array(maxDepth + 2),
    wide: [],
    keys: { start: new Int32Array(64), end: new Int32Array(64), escaped: new Uint8Array(64) },
  }
}

/** The scratch of every scan at most {@link MAX_JSON_DEPTH} deep. */
const shared = newScratch(MAX_JSON_DEPTH)

/**
 * The scan run once on a small document when the module loads, through every call it makes on a
 * fixture file (strings with and without escapes, nested containers, an object of more than
 * {@link FEW_KEYS} keys). V8 compiles the scan of a large file while it runs; without this, the
 * compiled scan met a call it had no feedback for, was dropped and compiled again: about 17 ms of a
 * fresh process's first 20 MB (the two documents of a 10,000-case fixture), 67 ms against 50 ms.
 */
jsonStructureProblem(
  JSON.stringify({
    list: [1, { quoted: 'a \\"b\\"', nested: [[], {}] }],
    wide: Object.fromEntries(Array.from({ length: FEW_KEYS + 4 }, (_, at) => [`key\\u00e9${at}`, { [`k${at}`]: at }])),
  }),
)

/** The keys of the open objects: typed arrays, grown by doubling, so that a key costs no allocation. */
interface KeyStack {
  readonly start: Int32Array
  readonly end: Int32Array
  readonly escaped: Uint8Array
}

function grown(keys: KeyStack): KeyStack {
  const size = keys.start.length * 2
  const next = { start: new Int32Array(size), end: new Int32Array(size), escaped: new Uint8Array(size) }
  next.start.set(keys.start)
  next.end.set(keys.end)
  next.escaped.set(keys.escaped)
  return next
}

/** The path of the container at `upTo`: at each level, its parent's current key or index. Only on a problem. */
function pathTo(
  text: string,
  state: { readonly isObject: Uint8Array; readonly index: Int32Array; readonly keysFrom: Int32Array; readonly keys: KeyStack },
  upTo: number,
  depth: number,
  keyCount: number,
): PathSegment[] {
  const { isObject, index, keysFrom, keys } = state
  const path: PathSegment[] = []
  for (let level = 1; level <= upTo; level++) {
    if (isObject[level] === 1) {
      const last = (level === depth ? keyCount : keysFrom[level + 1]!) - 1
      path.push(keyName(text, keys.start[last]!, keys.end[last]!, keys.escaped[last] === 1))
    } else path.push(index[level]!)
  }
  return path
}

/** The offset of the first backslash at or after `from`, or the text's length when there is none. */
function nextBackslash(text: string, from: number): number {
  const found = text.indexOf('\\', from)
  return found === -1 ? text.length : found
}

/** The offset after the string whose opening quote is at `from`. */
function stringEnd(text: string, from: number): number {
  const end = skipString(text, from)
  // The text parsed, so every string ends; a text that did not is read to its end.
  return end === -1 ? text.length : end
}

/** A key as `JSON.parse` reads it, from its quoted text at `[start, end)`. */
function keyName(text: string, start: number, end: number, escaped: boolean): string {
  // Cast: the slice is a string literal the scanner delimited, quotes included, so JSON.parse gives a string.
  return escaped ? (JSON.parse(text.slice(start, end)) as string) : text.slice(start + 1, end - 1)
}

/** Whether two quoted keys name the same key: compared as written, and as read when either holds an escape. */
function sameKey(text: string, aStart: number, aEnd: number, aEscaped: boolean, bStart: number, bEnd: number, bEscaped: boolean): boolean {
  if (aEnd - aStart === bEnd - bStart) {
    let same = true
    for (let offset = 1; offset < aEnd - aStart - 1; offset++) {
      if (text.charCodeAt(aStart + offset) !== text.charCodeAt(bStart + offset)) {
        same = false
        break
      }
    }
    if (same) return true
  }
  if (!aEscaped && !bEscaped) return false
  return keyName(text, aStart, aEnd, aEscaped) === keyName(text, bStart, bEnd, bEscaped)
}

/**
 * What a problem of {@link jsonStructureProblem} tells the user, less the error's class: `file`
 * names the document (a file, or a line of one), `position` an offset in the text as the reader
 * finds it there (`line 4, column 13`).
 */
export function jsonStructureDetails(problem: JsonStructureProblem, file: string, position: (offset: number) => string): RubricErrorDetails {
  if (problem.kind === 'too-deep') {
    // The path of the value that nests too deep, as far as a reader can follow it: below it, a file nested so deep is brackets.
    const shown = problem.path.slice(0, SHOWN_DEPTH)
    return {
      code: 'JSON_TOO_DEEP',
      file,
      path: shown,
      summary: `the JSON nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects${shown.length < problem.path.length ? ' below this path' : ''}.`,
      expected: `at most ${MAX_JSON_DEPTH} levels: the format's files nest fewer than 10`,
      found: `level ${MAX_JSON_DEPTH + 1} opening at ${position(problem.offset)}`,
      hint: 'no file the package reads nests so deep: restore the file from version control, or write it again as docs/format.md describes.',
    }
  }
  const key = preview(problem.key, 60)
  return {
    code: 'JSON_DUPLICATE_KEY',
    file,
    path: problem.path,
    summary: `the key ${key} occurs twice in one object, so which of its values counts would be a guess.`,
    expected: 'each key once in its object',
    found: `${key} at ${position(problem.earlier)} and again at ${position(problem.offset)}`,
    hint: `keep the ${key} you mean and delete the other: a reader of the file sees the first, JSON.parse keeps the last, so the file is not read until the key occurs once.`,
  }
}
