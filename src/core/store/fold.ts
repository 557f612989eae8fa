/**
 * The fold of the records layout: which lines of a key are current. A record that revises another
 * names it by the SHA-256 of its bytes (`replaces`); what no record replaces is current, and two
 * current records of different content are a fork. See docs/format.md#merging-with-git.
 */
import type { Stored } from './records.js'

/** The current records of one key: one head, or several (a fork). */
export interface Folded<R> {
  readonly key: string
  readonly heads: readonly Stored<R>[]
  /**
   * The SHA-256s of every current line of the key, when some line has the same content as a head
   * (the same change made on two branches): a revision replaces them all, or the other would be
   * current again beside it. Absent, the heads' own.
   */
  readonly current?: readonly string[]
}

/** The SHA-256s a revision of a folded key names in its `replaces`: every current line of the key. */
export function currentHashes(folded: Folded<unknown>): readonly string[] {
  return folded.current ?? folded.heads.map((head) => head.hash)
}

/**
 * Each key's current records: those that no other record replaces, and no compaction line names
 * (`superseded`). A line kept twice (both sides of a merge) counts once; heads with the same content
 * are one head. A `replaces` naming a line that is not there (a compaction removed it) names
 * nothing more: the line holding it is current as any other. `contentOf` is a record's content as
 * text, without its provenance: two records of the same text are the same content.
 */
export function fold<R extends { readonly replaces: readonly string[] }>(
  records: readonly Stored<R>[],
  keyOf: (record: R) => string,
  contentOf: (record: R) => string,
  superseded: ReadonlySet<string> = new Set(),
  before?: (a: R, b: R) => boolean,
): Map<string, Folded<R>> {
  const folded = new Map<string, Folded<R>>()
  for (const [key, lines] of groupByKey(records, keyOf)) {
    const one = foldKey(key, lines, contentOf, superseded, before)
    if (one !== undefined) folded.set(key, one)
  }
  return folded
}

/**
 * The current records of one key, from its lines in the order read, as {@link fold} finds them;
 * `undefined` when none is current.
 *
 * Lines of the same change are replaced together: two lines are the same change when they hold the
 * same content and replace the same changes (or name the same missing lines), as the same case
 * added, the same first review saved or the same conversion made on two branches, whatever their
 * saves. A revision made on one branch names only its branch's copy; the other branch's copy, which
 * a merge brings beside it, is replaced with it, or it would be current again and read as a fork.
 * A revision back to earlier content replaces other changes than the earlier line did, so it is
 * another change and stays current.
 */
export function foldKey<R extends { readonly replaces: readonly string[] }>(
  key: string,
  lines: readonly Stored<R>[],
  contentOf: (record: R) => string,
  superseded: ReadonlySet<string>,
  /** Of two lines of the same content, whether the first is the head kept (whichever side of a merge it came from); else the first read. */
  before?: (a: R, b: R) => boolean,
): Folded<R> | undefined {
  // A record replaces records of its own key: a key of one line is its own head, and its bytes need no hash.
  // A line a compaction named comes back (a merge) only beside a current line of its key, so it is never alone.
  if (lines.length === 1) return { key, heads: lines }
  const replaced = new Set<string>()
  const unique = new Map<string, Stored<R>>()
  for (const stored of lines) {
    if (unique.has(stored.hash)) continue
    unique.set(stored.hash, stored)
    for (const hash of stored.record.replaces) replaced.add(hash)
  }
  const changes = new Changes(unique, contentOf)
  // A line the hash of which another names, or a compaction line names, is gone; so is every line of the same change.
  const gone = [...unique.values()].filter((stored) => replaced.has(stored.hash) || superseded.has(stored.hash))
  const heads: Stored<R>[] = []
  const current: string[] = []
  for (const stored of unique.values()) {
    if (replaced.has(stored.hash) || superseded.has(stored.hash) || gone.some((line) => changes.same(stored, line))) continue
    current.push(stored.hash)
    const same = heads.findIndex((head) => changes.contentOf(head) === changes.contentOf(stored))
    if (same === -1) heads.push(stored)
    else if (before?.(stored.record, heads[same]!.record) === true) heads[same] = stored
  }
  // Every line replaced by another (a cycle, made by hand): none is current, as before this fold grouped by key.
  if (heads.length === 0) return undefined
  return current.length === heads.length ? { key, heads } : { key, heads, current }
}

/**
 * Whether two lines of a key make the same change: they hold the same content and replace the same
 * changes (or name the same lines that are gone), whatever their saves. Told by what they revise
 * first, which needs no content, then by their content, each read once.
 */
class Changes<R extends { readonly replaces: readonly string[] }> {
  readonly #contents = new Map<string, string>()
  readonly #visiting = new Set<string>()

  constructor(
    private readonly lines: ReadonlyMap<string, Stored<R>>,
    private readonly content: (record: R) => string,
  ) {}

  contentOf(stored: Stored<R>): string {
    let text = this.#contents.get(stored.hash)
    if (text === undefined) {
      text = this.content(stored.record)
      this.#contents.set(stored.hash, text)
    }
    return text
  }

  same(a: Stored<R>, b: Stored<R>): boolean {
    if (a.hash === b.hash) return true
    if (a.record.replaces.length !== b.record.replaces.length) return false
    // A cycle of replaces (made by hand) is no change anything else makes.
    const pair = `${a.hash} ${b.hash}`
    if (this.#visiting.has(pair)) return false
    this.#visiting.add(pair)
    try {
      const theirs = b.record.replaces.map((hash) => this.lines.get(hash) ?? hash)
      const matched = a.record.replaces.every((hash) => {
        const line = this.lines.get(hash)
        return theirs.some((other) => (line === undefined || typeof other === 'string' ? other === hash : this.same(line, other)))
      })
      return matched && this.contentOf(a) === this.contentOf(b)
    } finally {
      this.#visiting.delete(pair)
    }
  }
}

/** The lines of each key, in the order read. */
export function groupByKey<R>(records: readonly Stored<R>[], keyOf: (record: R) => string): Map<string, Stored<R>[]> {
  const byKey = new Map<string, Stored<R>[]>()
  for (const stored of records) {
    const key = keyOf(stored.record)
    const lines = byKey.get(key)
    if (lines === undefined) byKey.set(key, [stored])
    else lines.push(stored)
  }
  return byKey
}
