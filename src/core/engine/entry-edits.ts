import { isObject } from '../common/primitives.js'
import type { StringEdit } from '../json/json-edit.js'

/**
 * A change to one entry of the list of a document a revision writes (`annotations.json › reviews`,
 * `cases.json › cases`): a value put in place of the entry at `index`, or appended (`'end'`); or
 * strings inside entries rewritten (a case acknowledging its review), each at its full path.
 */
export type EntryEdit =
  | { readonly kind: 'put'; readonly index: number | 'end'; readonly value: unknown }
  | { readonly kind: 'strings'; readonly edits: readonly StringEdit[] }

/**
 * A written document's change given entry by entry. In the records layout the revision makes the
 * document's value from the entries, and writes the entries changed as records, so that neither
 * the document's text nor its other entries are made, read or compared; `text` makes the new text
 * of the document otherwise (the seed layout, or an edit the value does not show).
 */
export interface EntryChanges {
  /** The document's list: `reviews`, `cases`. */
  readonly list: string
  readonly edits: readonly EntryEdit[]
  readonly text: () => string
}

/**
 * The value of `document` with `edits` made, and the entries they changed, in the order of the
 * list; `undefined` when an edit is not where it expects to be (a string that is not `from`, an
 * entry that is not there), which the edit of the text then refuses with its message.
 */
export function editedValue(
  document: Readonly<Record<string, unknown>>,
  list: string,
  edits: readonly EntryEdit[],
): { readonly value: Readonly<Record<string, unknown>>; readonly changed: readonly unknown[] } | undefined {
  const listed = document[list]
  if (!Array.isArray(listed)) return undefined
  const entries: unknown[] = listed.slice()
  // The entries of the document are frozen and shared with the records read: an entry edited is a copy, made once.
  const copied = new Set<number>()
  const changed = new Set<number>()
  for (const edit of edits) {
    if (edit.kind === 'put') {
      const index = edit.index === 'end' ? entries.length : edit.index
      if (index > entries.length) return undefined
      entries[index] = edit.value
      changed.add(index)
      continue
    }
    for (const { path, from, to } of edit.edits) {
      const [key, index, ...inside] = path
      if (key !== list || typeof index !== 'number' || inside.length === 0 || entries[index] === undefined) return undefined
      if (!copied.has(index)) {
        entries[index] = structuredClone(entries[index])
        copied.add(index)
      }
      let holder: unknown = entries[index]
      for (const segment of inside.slice(0, -1)) holder = childOf(holder, segment)
      const last = inside[inside.length - 1]!
      if (childOf(holder, last) !== from || !setChild(holder, last, to)) return undefined
      changed.add(index)
    }
  }
  return { value: { ...document, [list]: entries }, changed: [...changed].sort((a, b) => a - b).map((index) => entries[index]) }
}

/** The value a JSON path's segment names in an array (by index) or an object (by key); `undefined` in anything else. */
function childOf(holder: unknown, segment: string | number): unknown {
  if (Array.isArray(holder)) return typeof segment === 'number' ? holder[segment] : undefined
  return isObject(holder) ? holder[String(segment)] : undefined
}

/** Sets what {@link childOf} reads; `false` where there is no array or object to hold it. */
function setChild(holder: unknown, segment: string | number, value: unknown): boolean {
  if (Array.isArray(holder) && typeof segment === 'number') holder[segment] = value
  else if (isObject(holder)) holder[String(segment)] = value
  else return false
  return true
}
