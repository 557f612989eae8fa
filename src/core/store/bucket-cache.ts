import { join } from 'node:path'
import stableStringify from 'fast-json-stable-stringify'
import { FixtureError } from '../common/errors.js'
import { sha256Hex } from '../json/canonical-json.js'
import type { RawFile } from '../json/read.js'
import type { BucketItems } from './bucket-items.js'
import type { MaterialisedState } from './materialise.js'
import { bucketOf, checkItemRecord, type Folded, fold, type ItemRecord, itemKey, type Layout, parseRecordLines, RECORDS_DIR, type Stored } from './records.js'

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
    let read: BucketLines
    let lineCount: number
    // The reader may have found already that the file begins with the bytes it read before: then they are not hashed again.
    const grown = file.grownFrom !== undefined && file.grownFrom.length === kept?.length && file.grownFrom.sha256 === kept.sha
    if (usable && file.bytes.length > kept.length && (grown || sha256Hex(file.bytes.subarray(0, kept.length)) === kept.sha)) {
      // Grown by whole lines after what was read: only those are parsed, numbered after the lines before them.
      const tail = file.bytes.subarray(kept.length)
      const added = bucketLines({ display: file.display, bytes: tail }, name, layout, display, kept.lineCount)
      for (const stored of added.lines) this.appended?.add(itemKey(stored.record.doc, stored.record.case, stored.record.slot))
      // A compaction line among them can make a line read before superseded: the documents are made whole again.
      if (added.superseded.size > 0) this.appended = undefined
      read = { lines: [...kept.read.lines, ...added.lines], superseded: new Set([...kept.read.superseded, ...added.superseded]) }
      lineCount = kept.lineCount + newlines(tail)
    } else {
      this.appended = undefined
      read = bucketLines(file, name, layout, display)
      lineCount = newlines(file.bytes)
    }
    const folded = foldItems(read)
    this.kept.set(name, { sha, length: file.bytes.length, lineCount, buckets: layout.buckets, display: file.display, read, folded })
    return folded
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
  readonly read: BucketLines
  readonly folded: ReadonlyMap<string, Folded<ItemRecord>>
}

function newlines(bytes: Uint8Array): number {
  let count = 0
  for (let index = bytes.indexOf(10); index !== -1; index = bytes.indexOf(10, index + 1)) count++
  return count
}

/** The item records of a bucket, each key's current ones. */
export function foldItems(read: BucketLines): Map<string, Folded<ItemRecord>> {
  return fold(
    read.lines,
    (record) => itemKey(record.doc, record.case, record.slot),
    (a, b) => a.removed === b.removed && a.n === b.n && stableStringify(a.item ?? null) === stableStringify(b.item ?? null),
    read.superseded,
  )
}

/** The records of a bucket file, and the lines its compaction lines name. */
interface BucketLines {
  readonly lines: readonly Stored<ItemRecord>[]
  readonly superseded: ReadonlySet<string>
}

/** The records of a bucket file, each checked to be in the right bucket. */
export function bucketLines(file: Pick<RawFile, 'display' | 'bytes'>, name: string, layout: Layout, display: string, linesBefore = 0): BucketLines {
  const superseded = new Set<string>()
  const lines = parseRecordLines<ItemRecord>(new TextDecoder().decode(file.bytes), file.display, checkItemRecord, superseded, linesBefore)
  for (const stored of lines) {
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
