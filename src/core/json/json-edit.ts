import { applyEdits, findNodeAtLocation, modify, parseTree, visit } from 'jsonc-parser'
import { RevisionError } from '../common/errors.js'
import type { PathSegment } from '../common/json-path.js'
import { parseJson } from '../common/primitives.js'
import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, skipString } from './json-scan.js'

/** Replace the string at `path`, which must currently be `from`, with `to`. */
export interface StringEdit {
  readonly path: readonly PathSegment[]
  readonly from: string
  readonly to: string
}

/**
 * Rewrites string values of a JSON text in place: only the characters of each value change, so
 * indentation, key order, line endings and the final newline stay as they were and a diff shows
 * exactly the edited lines. Values are found by their path in one pass over the text; a value that
 * is not where the edit expects it, or a key that occurs twice (where `JSON.parse` would keep the
 * last copy), is refused, never half-edited, and the result is checked to hold the new values.
 */
export function editJsonStrings(text: string, file: string, edits: readonly StringEdit[]): string {
  return editInListElements(text, file, edits) ?? editStringsInText(text, file, edits)
}

/**
 * The edits made inside the elements of one top-level list they all fall in (`cases[3] › …`): each
 * element is edited as a text of its own, so that a review's acknowledgement in a 100,000-case
 * `cases.json` reads one case, not the file. `undefined` when the edits are elsewhere or the text is
 * not laid out so (a key twice at the top level): then the whole text is edited.
 */
function editInListElements(text: string, file: string, edits: readonly StringEdit[]): string | undefined {
  const key = edits[0]?.path[0]
  if (typeof key !== 'string' || !edits.every((edit) => edit.path[0] === key && typeof edit.path[1] === 'number' && edit.path.length > 2)) return undefined
  const items = topLevelListItems(text, key)
  if (items === undefined) return undefined
  const byElement = new Map<number, StringEdit[]>()
  for (const edit of edits) {
    const index = edit.path[1] as number // Cast: every path was checked above to have a number here.
    const inside = { path: edit.path.slice(2), from: edit.from, to: edit.to }
    const listed = byElement.get(index)
    if (listed === undefined) byElement.set(index, [inside])
    else listed.push(inside)
  }
  const parts: string[] = []
  let from = 0
  for (const index of [...byElement.keys()].sort((a, b) => a - b)) {
    const at = items[index]
    if (at === undefined) return undefined
    const element = text.slice(at[0], at[1])
    try {
      parts.push(text.slice(from, at[0]), editStringsInText(element, file, byElement.get(index)!))
    } catch (error) {
      // Named at the path inside the element: the whole text is edited again, for the full path.
      if (error instanceof RevisionError) return undefined
      throw error
    }
    from = at[1]
  }
  parts.push(text.slice(from))
  return parts.join('')
}

function editStringsInText(text: string, file: string, edits: readonly StringEdit[]): string {
  const keyOf = (path: readonly PathSegment[]) => JSON.stringify(path)
  const wanted = new Map(edits.map((edit) => [keyOf(edit.path), edit]))
  const olds = new Set(edits.map((edit) => edit.from))
  const found = new Map<string, { offset: number; length: number; count: number }>()
  let malformed = false
  // One pass over the text, no tree: only strings equal to a value being replaced are placed.
  visit(
    text,
    {
      onLiteralValue(value: unknown, offset, length, _line, _column, pathSupplier) {
        // Only strings are in the set: any other value is not in it.
        if (typeof value !== 'string' || !olds.has(value)) return
        const key = keyOf(pathSupplier())
        if (wanted.get(key)?.from !== value) return
        const earlier = found.get(key)
        found.set(key, { offset, length, count: (earlier?.count ?? 0) + 1 })
      },
      onError() {
        malformed = true
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  )
  const placed = edits.map((edit) => {
    const at = found.get(keyOf(edit.path))
    if (malformed || at === undefined || at.count > 1) {
      throw new RevisionError({
        code: 'EDIT_NOT_LOCATED',
        file,
        path: edit.path,
        summary:
          at !== undefined && at.count > 1
            ? 'the key occurs more than once in its object, so which copy to change would be a guess; nothing was changed.'
            : 'the value to replace was not found where the document has it; nothing was changed.',
        expected: JSON.stringify(edit.from),
        hint: 'make sure every key occurs once per object, then run the command again.',
      })
    }
    return { offset: at.offset, length: at.length, text: JSON.stringify(edit.to) }
  })
  placed.sort((a, b) => a.offset - b.offset)
  const parts: string[] = []
  let from = 0
  for (const edit of placed) {
    parts.push(text.slice(from, edit.offset), edit.text)
    from = edit.offset + edit.length
  }
  parts.push(text.slice(from))
  const result = parts.join('')

  // Only located string tokens were replaced; check that each edited place now parses to its new value.
  const document = parseJson(result)
  for (const edit of edits) {
    if (valueAt(document, edit.path) !== edit.to) {
      throw new RevisionError({
        code: 'EDIT_NOT_LOCATED',
        file,
        path: edit.path,
        summary: 'the edited text would not hold the intended value there; nothing was changed.',
        expected: JSON.stringify(edit.to),
        hint: 'make sure every key occurs once per object, then run the command again.',
      })
    }
  }
  return result
}

function valueAt(document: unknown, path: readonly PathSegment[]): unknown {
  let value = document
  for (const segment of path) value = typeof value === 'object' && value !== null ? Reflect.get(value, segment) : undefined
  return value
}

/** How `appendToList` formats what it inserts: as jsonc-parser's `modify` does. */
export interface ListFormat {
  readonly insertSpaces: boolean
  readonly tabSize: number
  readonly eol: string
}

/**
 * `text` with `values` appended to its top-level list `key`, formatted as jsonc-parser formats one
 * insertion. Inserting one value at a time re-reads the whole text each time, which is quadratic in
 * the number of values (`add --from` of 10,000 cases took hours): here the first value is inserted
 * with `modify`, which settles the separator and the indentation of an element, and the others are
 * written after it in the same form, with one more read of the text.
 */
export function appendToList(text: string, key: string, values: readonly unknown[], format: ListFormat): string {
  if (values.length === 0) return text
  const items = topLevelListItems(text, key)
  const after = items === undefined ? undefined : appendAfter(text, items, values, format)
  if (after !== undefined) return after
  const list = findNodeAtLocation(parseTree(text)!, [key])
  const count = list?.type === 'array' ? (list.children?.length ?? 0) : 0
  const withFirst = applyEdits(text, modify(text, [key, count], values[0], { isArrayInsertion: true, formattingOptions: format }))
  if (values.length === 1) return withFirst
  const last = findNodeAtLocation(parseTree(withFirst)!, [key, count])!
  const indent = withFirst.slice(withFirst.lastIndexOf('\n', last.offset) + 1, last.offset)
  if (!/^[ \t]*$/.test(indent)) {
    // The list is not one element per line: keep jsonc-parser's placing, one value at a time.
    return values
      .slice(1)
      .reduce<string>(
        (edited, value, index) => applyEdits(edited, modify(edited, [key, count + 1 + index], value, { isArrayInsertion: true, formattingOptions: format })),
        withFirst,
      )
  }
  const unit = format.insertSpaces ? ' '.repeat(format.tabSize) : '\t'
  const rest = values
    .slice(1)
    .map((value) => `,${format.eol}${indent}${JSON.stringify(value, null, unit).split('\n').join(`${format.eol}${indent}`)}`)
    .join('')
  const end = last.offset + last.length
  return `${withFirst.slice(0, end)}${rest}${withFirst.slice(end)}`
}

/** The values appended after the last of a list's elements, laid out as {@link putListItem} writes; `undefined` for an empty list or another layout. */
function appendAfter(text: string, items: readonly [number, number][], values: readonly unknown[], format: ListFormat): string | undefined {
  const last = items[items.length - 1]
  const layout = last === undefined ? undefined : layoutOf(text, last, format)
  if (last === undefined || layout === undefined) return undefined
  if (layout === COMPACT) return `${text.slice(0, last[1])}${values.map((value) => `,${JSON.stringify(value)}`).join('')}${text.slice(last[1])}`
  // jsonc-parser lays out the element before an insertion again: only one written as it would write it is left as is.
  if (!isWrittenAs(text.slice(last[0], last[1]), layout, format)) return undefined
  const rest = values.map((value) => `,${format.eol}${layout}${written(value, layout, format)}`).join('')
  return `${text.slice(0, last[1])}${rest}${text.slice(last[1])}`
}

/** A text on one line: its elements are written on it too. */
const COMPACT = Symbol('compact')

/**
 * How an element is laid out: on a line of its own, at an indentation in the format's unit and
 * line ending, as jsonc-parser writes them; or {@link COMPACT}, in a text of one line (as a
 * generator writes it), where an element is written compact too rather than the whole text laid
 * out again as jsonc-parser would; `undefined` for another layout, which is left to `modify`.
 */
function layoutOf(text: string, at: readonly [number, number], format: ListFormat): string | typeof COMPACT | undefined {
  const newline = text.indexOf('\n')
  if (newline === -1 || newline === text.length - 1) return COMPACT
  const indent = text.slice(text.lastIndexOf('\n', at[0] - 1) + 1, at[0])
  return (format.insertSpaces ? /^ *$/ : /^\t*$/).test(indent) && !text.includes('\r') ? indent : undefined
}

/** Whether an element's text is its value as {@link written} writes it at `indent`. */
function isWrittenAs(element: string, indent: string, format: ListFormat): boolean {
  try {
    return written(JSON.parse(element), indent, format) === element
  } catch {
    return false
  }
}

/** A value written as an element at `indent`. */
function written(value: unknown, indent: string, format: ListFormat): string {
  return JSON.stringify(value, null, format.insertSpaces ? ' '.repeat(format.tabSize) : '\t')
    .split('\n')
    .join(`${format.eol}${indent}`)
}

/**
 * `text` with `value` put at `index` of its top-level list `key`: in place of the element there,
 * or, with `insert`, appended after the last one. The result is what jsonc-parser's `modify` gives
 * (`applyEdits(text, modify(text, [key, index], value, { isArrayInsertion: insert, formattingOptions }))`),
 * but where `modify` parses the whole document into a tree and formats by copying the text once
 * per edited line (seconds for one review of a 20,000-case fixture), this finds the list's
 * elements in one scan that skips strings whole, and copies the text once. In a text of one line
 * the value is written compact, where `modify` would lay the whole text out again. A layout it
 * does not recognise (an element not on a line of its own, an empty list, a key twice, another
 * indentation or line ending than the format's) goes to `modify`.
 */
export function putListItem(text: string, key: string, index: number, value: unknown, format: ListFormat, insert: boolean): string {
  const slow = () => applyEdits(text, modify(text, [key, index], value, { isArrayInsertion: insert, formattingOptions: format }))
  const items = topLevelListItems(text, key)
  if (items === undefined) return slow()
  if (insert) return index === items.length ? (appendAfter(text, items, [value], format) ?? slow()) : slow()
  const at = items[index]
  const layout = at === undefined ? undefined : layoutOf(text, at, format)
  if (at === undefined || layout === undefined) return slow()
  return `${text.slice(0, at[0])}${layout === COMPACT ? JSON.stringify(value) : written(value, layout, format)}${text.slice(at[1])}`
}

/**
 * The `[start, end)` offsets of each element of the list under `key` of a JSON text's top-level
 * object; `undefined` when the text is not such an object, the key is not a list, or occurs twice.
 * Strings are skipped with `indexOf`, so the scan costs little more than reading the text.
 */
export function topLevelListItems(text: string, key: string): [number, number][] | undefined {
  let at = skipSpace(text, 0)
  if (text.charCodeAt(at) !== OPEN_BRACE) return undefined
  at = skipSpace(text, at + 1)
  let items: [number, number][] | undefined
  let seen = false
  if (text.charCodeAt(at) === CLOSE_BRACE) return undefined
  for (;;) {
    if (text.charCodeAt(at) !== QUOTE) return undefined
    const keyEnd = skipString(text, at)
    if (keyEnd === -1) return undefined
    const name: unknown = JSON.parse(text.slice(at, keyEnd))
    at = skipSpace(text, keyEnd)
    if (text.charCodeAt(at) !== COLON) return undefined
    at = skipSpace(text, at + 1)
    if (name === key) {
      if (seen || text.charCodeAt(at) !== OPEN_BRACKET) return undefined
      seen = true
      items = []
      at = skipSpace(text, at + 1)
      if (text.charCodeAt(at) !== CLOSE_BRACKET) {
        for (;;) {
          const end = skipValue(text, at)
          if (end === -1) return undefined
          items.push([at, end])
          at = skipSpace(text, end)
          const next = text.charCodeAt(at)
          if (next === CLOSE_BRACKET) break
          if (next !== COMMA) return undefined
          at = skipSpace(text, at + 1)
        }
      }
      at = skipSpace(text, at + 1)
    } else {
      const end = skipValue(text, at)
      if (end === -1) return undefined
      at = skipSpace(text, end)
    }
    const next = text.charCodeAt(at)
    if (next === CLOSE_BRACE) return items
    if (next !== COMMA) return undefined
    at = skipSpace(text, at + 1)
  }
}

function skipSpace(text: string, from: number): number {
  let at = from
  for (;;) {
    const code = text.charCodeAt(at)
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return at
    at++
  }
}

/** The offset after the value that starts at `from`; -1 when it does not end. */
function skipValue(text: string, from: number): number {
  const first = text.charCodeAt(from)
  if (first === QUOTE) return skipString(text, from)
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let at = from
    for (;;) {
      const code = text.charCodeAt(at)
      if (
        Number.isNaN(code) ||
        code === COMMA ||
        code === CLOSE_BRACE ||
        code === CLOSE_BRACKET ||
        code === 0x20 ||
        code === 0x0a ||
        code === 0x0d ||
        code === 0x09
      )
        return at === from ? -1 : at
      at++
    }
  }
  let depth = 0
  let at = from
  for (;;) {
    const code = text.charCodeAt(at)
    if (Number.isNaN(code)) return -1
    if (code === QUOTE) {
      at = skipString(text, at)
      if (at === -1) return -1
      continue
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--
      if (depth === 0) return at + 1
    }
    at++
  }
}
