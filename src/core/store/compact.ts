import { type Provenance, recordLine, type Stored } from './records.js'
import { groupByKey } from './fold.js'

/** What compacting one record file gives. */
export interface CompactedText {
  /** The file's new text: its current lines, byte for byte and in their order, after one compaction line. */
  readonly text: string
  /** Lines of the file before and after. */
  readonly before: number
  readonly after: number
  /** Whether any line was removed (when none was, `text` is the text as it was). */
  readonly changed: boolean
}

/**
 * A record file without its superseded lines: of each key, the lines the fold would pass over (a
 * line another line of its key replaces, a line an earlier compaction named, a second copy of a
 * line) are removed, and every other line is kept as it was, so each key's current lines, forks
 * included, are the same lines with the same SHA-256s: a later revision names them as before.
 *
 * The SHA-256s of the lines removed are kept, with those an earlier compaction named, in one
 * compaction line at the top of the file (none when only copies were removed). A git merge with a branch made before the compaction may
 * bring a removed line back (a union merge keeps both sides of a conflicting hunk), and without the
 * line that replaced it, it would read as current again; named there, it stays superseded.
 */
export function compactRecordLines<R extends { readonly replaces: readonly string[] }>(
  text: string,
  lines: readonly Stored<R>[],
  superseded: ReadonlySet<string>,
  keyOf: (record: R) => string,
  provenance: Provenance,
): CompactedText {
  const before = countLines(text)
  const byKey = groupByKey(lines, keyOf)
  const removed = new Set<Stored<R>>()
  const named = new Set(superseded)
  for (const group of byKey.values()) {
    // A key of one line is current whatever a compaction line says: the fold reads it so.
    if (group.length === 1) continue
    const replaced = new Set<string>()
    const first = new Map<string, Stored<R>>()
    for (const stored of group) {
      if (first.has(stored.hash)) {
        removed.add(stored)
        continue
      }
      first.set(stored.hash, stored)
      for (const hash of stored.record.replaces) replaced.add(hash)
    }
    for (const stored of first.values()) {
      if (!replaced.has(stored.hash) && !superseded.has(stored.hash)) continue
      removed.add(stored)
      named.add(stored.hash)
    }
  }
  if (removed.size === 0) return { text, before, after: before, changed: false }
  const kept = lines.filter((stored) => !removed.has(stored)).map((stored) => `${stored.line}\n`)
  // Only copies of lines still there were removed: nothing to name.
  const header = named.size === 0 ? [] : [recordLine({ superseded: [...named].sort(), ...provenance })]
  return { text: [...header, ...kept].join(''), before, after: header.length + kept.length, changed: true }
}

function countLines(text: string): number {
  let count = 0
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++
  return count
}
