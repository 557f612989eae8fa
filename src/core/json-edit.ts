import { isDeepStrictEqual } from 'node:util'
import { findNodeAtLocation, parseTree, type ParseError } from 'jsonc-parser'
import { RevisionError } from './errors.js'
import type { PathSegment } from './json-path.js'

/** Replace the string at `path`, which must currently be `from`, with `to`. */
export interface StringEdit {
  readonly path: readonly PathSegment[]
  readonly from: string
  readonly to: string
}

/**
 * Rewrites string values of a JSON text in place: only the characters of each value change, so
 * indentation, key order, line endings and the final newline stay as they were and a diff shows
 * exactly the edited lines. The result is checked to parse to the document with the edits applied,
 * so a text the edit cannot be placed in (a duplicated key, say) is refused, never half-edited.
 */
export function editJsonStrings(text: string, file: string, edits: readonly StringEdit[]): string {
  const errors: ParseError[] = []
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false })
  const placed = edits.map((edit) => {
    const node = tree === undefined || errors.length > 0 ? undefined : findNodeAtLocation(tree, [...edit.path])
    if (node === undefined || node.type !== 'string' || node.value !== edit.from) {
      throw new RevisionError({
        code: 'EDIT_NOT_LOCATED',
        file,
        path: edit.path,
        summary: 'the value to replace was not found where the document has it; nothing was changed.',
        expected: JSON.stringify(edit.from),
        found: node === undefined ? 'nothing at that place in the text' : JSON.stringify(node.value),
        hint: 'make sure every key occurs once per object, then run the command again.',
      })
    }
    return { offset: node.offset, length: node.length, text: JSON.stringify(edit.to) }
  })
  placed.sort((a, b) => b.offset - a.offset)
  let result = text
  for (const edit of placed) result = result.slice(0, edit.offset) + edit.text + result.slice(edit.offset + edit.length)

  const expected = JSON.parse(text) as unknown
  for (const edit of edits) setAt(expected, edit.path, edit.to)
  if (!isDeepStrictEqual(JSON.parse(result), expected)) {
    throw new RevisionError({
      code: 'EDIT_NOT_LOCATED',
      file,
      summary: 'the edited text would not hold the intended document; nothing was changed.',
      hint: 'make sure every key occurs once per object, then run the command again.',
    })
  }
  return result
}

function setAt(document: unknown, path: readonly PathSegment[], value: unknown): void {
  let target = document as Record<string | number, unknown>
  for (const segment of path.slice(0, -1)) target = target[segment] as Record<string | number, unknown>
  target[path.at(-1)!] = value
}
