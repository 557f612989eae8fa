// How an incremental evaluation notices that a fixture's files changed, and what it keeps of a file
// it read: each file's stat stamp, the listing of each folder, and a large file's bytes let go once parsed.
import { createHash } from 'node:crypto'
import { statSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { sha256Hex } from '../json/canonical-json.js'
import type { RawFile } from '../json/read.js'
import { readWhenAsked } from '../json/file-slices.js'
import { statStamp, type WrittenContents } from '../json/known-files.js'
import { RECORDS_DIR } from '../store/records.js'
import { JUDGES_DIR, listDirectory, REVIEWS_DIR } from './panel.js'

/** The file names in a fixture's directory and its `reviews/` and `judges/` (a writer's hidden temporary files aside), sorted and joined: a file added or removed there moves them. */
export async function listingsOf(dir: string): Promise<Map<string, string>> {
  const listings = new Map<string, string>()
  for (const folder of [dir, join(dir, REVIEWS_DIR), join(dir, JUDGES_DIR), join(dir, RECORDS_DIR)])
    listings.set(
      folder,
      (await listDirectory(folder))
        .filter((name) => !name.startsWith('.'))
        .sort()
        .join('\n'),
    )
  return listings
}

/** A file's stat stamp: its size, times and inode; `undefined` when it cannot be stat'ed (the reader then says why). */
export async function stampOf(path: string): Promise<string | undefined> {
  const stats = await stat(path, { bigint: true }).catch(() => undefined)
  return stats === undefined ? undefined : statStamp(stats)
}

/**
 * The stamps of many files at once (every bucket file of a records fixture, at each refresh), as
 * {@link stampOf} gives them: stat'ed synchronously, since a hundred stats and more cost about
 * three times the CPU as promises, and a stat does not wait on anything but the file system.
 */
export function stampsOf(paths: readonly string[]): (string | undefined)[] {
  return paths.map((path) => {
    const stats = statSync(path, { bigint: true, throwIfNoEntry: false })
    return stats === undefined ? undefined : statStamp(stats)
  })
}

/**
 * The SHA-256 of `bytes` and, when they begin with the bytes of the last read (`before`: their
 * length and SHA-256), that they do: a file a save appended to is hashed once, the prefix and the
 * whole in one pass, and a reader of the lines appended need not hash the prefix again.
 */
export function hashRead(
  bytes: Uint8Array,
  before: { readonly length: number; readonly sha256: string | undefined } | undefined,
): Pick<RawFile, 'sha256' | 'grownFrom'> & { readonly sha256: string } {
  if (before?.sha256 === undefined || before.length === 0 || bytes.length <= before.length) return { sha256: sha256Hex(bytes) }
  const hash = createHash('sha256').update(bytes.subarray(0, before.length))
  const grown = hash.copy().digest('hex') === before.sha256
  const sha256 = hash.update(bytes.subarray(before.length)).digest('hex')
  return grown ? { sha256, grownFrom: { length: before.length, sha256: before.sha256 } } : { sha256 }
}

/**
 * What is kept of a file read: a large file's bytes are let go once parsed, since the parse is
 * kept and the bytes would double the memory; asked for again, they are read again, and a file
 * whose bytes changed since is {@link FileMovedError}. A small file (the rubric, the source) keeps them.
 */
export function retained(path: string, raw: RawFile & { readonly sha256: string }): RawFile {
  if (raw.bytes.length <= RETAINED_BYTES) return raw
  return readWhenAsked(path, raw.display, raw.sha256, undefined, moved)
}

/**
 * A file this process appended to and noted (`written`), read again without reading it: the bytes
 * before, which the last read parsed, and those appended after them. Asked for whole, they are read,
 * and a file whose bytes are no longer those is {@link FileMovedError}.
 */
export function knownFile(path: string, display: string, written: WrittenContents): RawFile & { readonly sha256: string } {
  return readWhenAsked(path, display, written.sha256, { grownFrom: written.grownFrom, tail: written.tail }, moved)
}

const moved = (display: string): Error => new FileMovedError(display)

/** A file's bytes changed between its stat and a read of it: the refresh starts over, reading every file. */
export class FileMovedError extends Error {
  constructor(display: string) {
    super(`${display} changed while it was read`)
  }
}

const RETAINED_BYTES = 1 << 20
