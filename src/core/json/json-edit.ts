import { applyEdits, findNodeAtLocation, modify, parseTree, visit } from 'jsonc-parser'
import { RevisionError } from '../common/errors.js'
import type { PathSegment } from '../common/json-path.js'
import { parseJson } from '../common/primitives.js'

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
