import { join } from 'node:path'
import { FixtureError } from '../common/errors.js'
import { sha256Hex } from '../json/canonical-json.js'
import type { RawFile } from '../json/read.js'
import { type BucketItems, foldedFrom } from './bucket-items.js'
import type { MaterialisedState } from './materialise.js'
import { bucketOf, checkItemRecord, type ItemRecord, itemContent, itemKey, type Layout, parseRecordLines, RECORDS_DIR, type Stored } from './records.js'
import { type Folded, fold, foldKey, groupByKey } from './fold.js'

/**
 * The parsed and folded lines of a fixture's bucket files, by file name, kept with the SHA-256 of
 * the bytes they were parsed from: a fixture read again (by the page's server, or in watch mode)
 * parses only the bucket files whose bytes changed, and of a file that only grew (a save appends)
 * only the lines added, keeping the records read before as they were (the same objects, so a
 * reader can tell what changed by identity). One per reader of a fixture; at most one entry per bucket.
 */
export class BucketCache {
  private readonly kept = new Map<string, KeptBucket>()
  /** The keys of the records appended to the buckets read since {@link takeChanges}; `undefined` once a bucket was read whole. */
  private appended: Set<string> | undefined = new Set()
  /** What the last whole read made of the records. */
  materialised: MaterialisedState | undefined
  /** The records of every bucket the last whole read folded, by key. */
  items: BucketItems | undefined

  /** The names of the record files of the last whole read. */
  private names: string | undefined

  /**
   * The keys of the records appended since the last call, or `undefined` when a bucket was read
   * whole meanwhile, or the record files read now (`names`) are not those read then.
   */
  takeChanges(names: string): ReadonlySet<string> | undefined {
    const changes = this.names === names ? this.appended : undefined
    this.appended = new Set()
    this.names = names
    return changes
  }

  /** The records of a bucket file, folded by key. */
  folded(file: RawFile, name: string, layout: Layout, display: string): ReadonlyMap<string, Folded<ItemRecord>> {
    const sha = file.sha256 ?? sha256Hex(file.bytes)
    const kept = this.kept.get(name)
    const usable = kept !== undefined && kept.buckets === layout.buckets && kept.display === file.display
    if (usable && kept.sha === sha) return kept.folded
    // The reader may have found already that the file begins with the bytes it read before: then they are not hashed again,
    // and when it read only the bytes after them (`tail`), the whole bytes are not asked for.
    const grown = file.grownFrom !== undefined && file.grownFrom.length === kept?.length && file.grownFrom.sha256 === kept.sha
    const tail = !usable
      ? undefined
      : grown && file.tail !== undefined
        ? file.tail
        : file.bytes.length > kept.length && (grown || sha256Hex(file.bytes.subarray(0, kept.length)) === kept.sha)
          ? file.bytes.subarray(kept.length)
          : undefined
    if (usable && tail !== undefined) {
      // Grown by whole lines after what was read: only those are parsed, numbered after the lines before them.
      const added = bucketLines({ display: file.display, bytes: tail }, name, layout, display, kept.lineCount)
      const lineCount = kept.lineCount + newlines(tail)
      const length = kept.length + tail.length
      if (added.superseded.size === 0) {
        // Only the keys of the lines added are folded again: every other key keeps the very record it had (a reader tells what changed by identity).
        const { byKey } = kept
        const touched = new Set<string>()
        for (const stored of added.lines) {
          const key = keyOfItem(stored.record)
          this.appended?.add(key)
          touched.add(key)
          // A new list, not the old one grown: a key of one line has that list as its heads, which the last fold gave out.
          byKey.set(key, [...(byKey.get(key) ?? []), stored])
        }
        const folded = new Map(kept.folded)
        for (const key of touched) {
          const one = foldKey(key, byKey.get(key)!, itemContent, kept.superseded, placedBefore)
          if (one === undefined) folded.delete(key)
          else folded.set(key, one)
        }
        this.kept.set(name, { ...kept, sha, length, lineCount, byKey, folded })
        foldedFrom(folded, kept.folded, touched)
        return folded
      }
      // A compaction line among them can make a line read before superseded: every key is folded again, and the documents made whole.
      this.appended = undefined
      const lines = [...[...kept.byKey.values()].flat(), ...added.lines]
      return this.keep(
        name,
        { sha, length, lineCount, buckets: layout.buckets, display: file.display },
        lines,
        new Set([...kept.superseded, ...added.superseded]),
      )
    }
    this.appended = undefined
    const read = bucketLines(file, name, layout, display)
    return this.keep(
      name,
      { sha, length: file.bytes.length, lineCount: newlines(file.bytes), buckets: layout.buckets, display: file.display },
      read.lines,
      read.superseded,
    )
  }

  /** Folds a bucket's lines whole and keeps what was read. */
  private keep(
    name: string,
    stamp: Pick<KeptBucket, 'sha' | 'length' | 'lineCount' | 'buckets' | 'display'>,
    lines: readonly Stored<ItemRecord>[],
    superseded: ReadonlySet<string>,
  ): ReadonlyMap<string, Folded<ItemRecord>> {
    const byKey = groupByKey(lines, keyOfItem)
    const folded = new Map<string, Folded<ItemRecord>>()
    for (const [key, keyLines] of byKey) {
      const one = foldKey(key, keyLines, itemContent, superseded, placedBefore)
      if (one !== undefined) folded.set(key, one)
    }
    this.kept.set(name, { ...stamp, byKey, superseded, folded })
    return folded
  }

  /** The length and SHA-256 of the bytes of the bucket file `name` as last parsed, shown as `display`: a reader need read only what follows them. */
  readBefore(name: string, display: string): { readonly length: number; readonly sha256: string } | undefined {
    const kept = this.kept.get(name)
    return kept === undefined || kept.display !== display ? undefined : { length: kept.length, sha256: kept.sha }
  }
}

interface KeptBucket {
  readonly sha: string
  /** The length of the bytes read, in bytes. */
  readonly length: number
  /** How many lines those bytes hold. */
  readonly lineCount: number
  readonly buckets: number
  readonly display: string
  /** The lines read, by key in the order their keys first came; the lists are never changed once a fold gave them out. */
  readonly byKey: Map<string, readonly Stored<ItemRecord>[]>
  /** The lines the compaction lines read name. */
  readonly superseded: ReadonlySet<string>
  readonly folded: ReadonlyMap<string, Folded<ItemRecord>>
}

function newlines(bytes: Uint8Array): number {
  let count = 0
  for (let index = bytes.indexOf(10); index !== -1; index = bytes.indexOf(10, index + 1)) count++
  return count
}

/** The item records of a bucket, each key's current ones. */
export function foldItems(read: BucketLines): Map<string, Folded<ItemRecord>> {
  return fold(read.lines, keyOfItem, itemContent, read.superseded, placedBefore)
}

function keyOfItem(record: ItemRecord): string {
  return itemKey(record.doc, record.case, record.slot)
}

function placedBefore(a: ItemRecord, b: ItemRecord): boolean {
  return a.n < b.n
}

/** The records of a bucket file, and the lines its compaction lines name. */
interface BucketLines {
  readonly lines: readonly Stored<ItemRecord>[]
  readonly superseded: ReadonlySet<string>
}

/** The records of a bucket file, each checked to be in the right bucket. */
export function bucketLines(file: Pick<RawFile, 'display' | 'bytes'>, name: string, layout: Layout, display: string, linesBefore = 0): BucketLines {
  // No writer leaves a bucket file empty (a save appends lines, a compaction keeps a line naming what it removed): read as no
  // records, a file truncated or emptied by hand would take its cases, their reviews and labels out of the fixture without a word.
  if (file.bytes.length === 0 && linesBefore === 0) {
    throw new FixtureError({
      code: 'RECORDS_MALFORMED',
      file: file.display,
      summary: 'the bucket file is empty: no writer leaves one so, and reading it as no records would leave its cases out of the fixture.',
      expected: 'the record lines of the cases whose ids hash to this bucket',
      found: 'an empty file',
      hint: 'restore the file from version control (`git checkout -- <file>`), or remove it if no case of the fixture was ever in it.',
    })
  }
  const superseded = new Set<string>()
  const lines = parseRecordLines<ItemRecord>(new TextDecoder().decode(file.bytes), file.display, checkItemRecord, superseded, linesBefore)
  // A case has several records in its file (the case, each review, an adoption): its bucket is hashed once.
  const checked = new Set<string>()
  for (const stored of lines) {
    if (checked.has(stored.record.case)) continue
    checked.add(stored.record.case)
    if (bucketOf(stored.record.case, layout.buckets) !== name) {
      throw new FixtureError({
        code: 'RECORDS_MALFORMED',
        file: `${file.display}:${stored.at.split(':').pop()}`,
        summary: `the record of case ${JSON.stringify(stored.record.case)} is in the wrong bucket file, where a writer of that case would not look.`,
        expected: `in ${join(display, RECORDS_DIR, bucketOf(stored.record.case, layout.buckets))}`,
        hint: 'move the line to the file named, or restore the files from version control.',
      })
    }
  }
  return { lines, superseded }
}
