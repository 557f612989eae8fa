import { createHash } from 'node:crypto'
import { constants } from 'node:fs'
import { type FileHandle, open } from 'node:fs/promises'
import { readRegularFileSync } from './regular-file.js'
import { RevisionError } from '../common/errors.js'
import { sha256Hex } from './canonical-json.js'
import type { RawFile } from './read.js'
import { appendedTo, knownNow } from './known-files.js'

/**
 * Reads the file open at `handle` a slice at a time, from `start`, giving each slice to `visit`
 * until it returns false; whether none did. The slices are read into a buffer lent for the call:
 * a bucket file of a large fixture is megabytes, and a whole copy of it read at each save is memory
 * outside the JavaScript heap that V8 collects only with the whole heap, every 64 MB of it.
 */
export async function readSlices(handle: FileHandle, visit: (slice: Buffer) => boolean, start = 0): Promise<boolean> {
  const scratch = lent.pop() ?? Buffer.allocUnsafe(SLICE_BYTES)
  try {
    for (let offset = start; ; ) {
      const { bytesRead } = await handle.read(scratch, 0, scratch.length, offset)
      if (bytesRead === 0) return true
      // A slice is visited before the next read into the same buffer, and never kept.
      if (!visit(scratch.subarray(0, bytesRead))) return false
      offset += bytesRead
    }
  } finally {
    if (lent.length < 4) lent.push(scratch)
  }
}

/**
 * A file that begins with bytes read before (`before`: their length and SHA-256), read without
 * holding its whole bytes: the SHA-256 of the whole, and the bytes after `before` when the file
 * begins with them. `undefined` when it does not (it was rewritten, or cut), or is no longer than
 * before: the caller reads it whole.
 */
export async function readGrown(
  path: string,
  before: { readonly length: number; readonly sha256: string },
): Promise<{ readonly sha256: string; readonly length: number; readonly tail: Uint8Array } | undefined> {
  // Without blocking: a named pipe put in the file's place is read whole by the caller, which refuses it.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    const stats = await handle.stat()
    if (!stats.isFile() || stats.size < before.length) return undefined
    const hash = createHash('sha256')
    let offset = 0
    await readSlices(handle, (slice) => {
      const wanted = Math.min(slice.length, before.length - offset)
      hash.update(slice.subarray(0, wanted))
      offset += wanted
      return offset < before.length
    })
    if (offset < before.length || hash.copy().digest('hex') !== before.sha256) return undefined
    // The bytes after the prefix: what a save appended, a few lines (read whole, and kept by the caller).
    const chunks: Buffer[] = []
    await readSlices(
      handle,
      (slice) => {
        hash.update(slice)
        chunks.push(Buffer.from(slice))
        return true
      },
      before.length,
    )
    const tail = Buffer.concat(chunks)
    return { sha256: hash.digest('hex'), length: before.length + tail.length, tail }
  } finally {
    await handle.close()
  }
}

/**
 * A file read as {@link readGrown} reads it, as a fixture file: its SHA-256, the bytes read before
 * and those after them (`tail`). Its whole bytes are read again only when asked for, and refused
 * when they are no longer those hashed. `undefined` when the file does not begin with `before`.
 */
export async function readGrownFile(path: string, display: string, before: { readonly length: number; readonly sha256: string }): Promise<RawFile | undefined> {
  // Read or written by this process and unchanged since: its bytes are known without reading them (the bytes read
  // before, or those followed by lines this process appended).
  const known = await knownNow(path)
  if (known !== undefined && known.sha256 === before.sha256 && known.length === before.length) return readWhenAsked(path, display, before.sha256)
  const appended = appendedTo(known, before)
  if (appended !== undefined) return readWhenAsked(path, display, appended.sha256, { grownFrom: before, tail: appended.tail })
  const grown = await readGrown(path, before).catch(() => undefined)
  if (grown === undefined) return undefined
  const { sha256, tail } = grown
  // Not spread from another object: a spread would read the bytes through their getter.
  return readWhenAsked(path, display, sha256, { grownFrom: before, tail })
}

/**
 * A file read, its bytes let go when they are more than 1 MB (a bucket file of a large fixture,
 * kept by a store that needs only its SHA-256 once it is parsed): asked for again, they are read
 * again, and refused when they are no longer the bytes `sha256` names.
 */
export function heldLightly(path: string, file: RawFile & { readonly sha256: string }): RawFile {
  return file.bytes.length <= HELD_BYTES ? file : readWhenAsked(path, file.display, file.sha256)
}

/**
 * A file whose bytes, of SHA-256 `sha256`, are read when asked for, and refused with `changed(display)`
 * (by default {@link fileChangedMeanwhile}) if they are no longer those.
 */
export function readWhenAsked(
  path: string,
  display: string,
  sha256: string,
  grown?: Pick<RawFile, 'grownFrom' | 'tail'>,
  changed: (display: string) => Error = fileChangedMeanwhile,
): RawFile & { readonly sha256: string } {
  return {
    display,
    sha256,
    ...grown,
    get bytes(): Uint8Array {
      let bytes: Uint8Array
      try {
        bytes = readRegularFileSync(path)
      } catch {
        // Read before with these bytes: gone or unreadable since, it changed meanwhile too.
        throw changed(display)
      }
      if (sha256Hex(bytes) !== sha256) throw changed(display)
      return bytes
    },
  }
}

/** A file that is no longer the revision a write was made from: the write is refused, and the edit kept. */
export function fileChangedMeanwhile(display: string): RevisionError {
  return new RevisionError({
    code: 'FILE_CHANGED_MEANWHILE',
    file: display,
    summary: 'the file changed on disk while the command ran; nothing was changed, so that edit is not lost.',
    hint: 'run the command again once the file is saved.',
  })
}

/** Past this many bytes, a file held lightly lets its bytes go. */
const HELD_BYTES = 1 << 20

/**
 * Whether the file open at `handle` holds exactly `bytes` (compared slice by slice), or, given
 * `sha256` in their place, bytes of that SHA-256.
 */
export async function holds(handle: FileHandle, expected: { readonly bytes: Uint8Array } | { readonly sha256: string }): Promise<boolean> {
  if ('sha256' in expected) {
    const hash = createHash('sha256')
    await readSlices(handle, (slice) => hash.update(slice) !== undefined)
    return hash.digest('hex') === expected.sha256
  }
  const { bytes } = expected
  let offset = 0
  const same = await readSlices(handle, (slice) => {
    const end = offset + slice.length
    const matches = end <= bytes.length && Buffer.compare(slice, bytes.subarray(offset, end)) === 0
    offset = end
    return matches
  })
  return same && offset === bytes.length
}

/** The SHA-256 of the file open at `handle`, and of its first `length` bytes, read in one pass. */
export async function hashWithPrefix(handle: FileHandle, length: number): Promise<{ readonly prefix: string; readonly whole: string }> {
  const hash = createHash('sha256')
  let offset = 0
  let prefix = length === 0 ? hash.copy().digest('hex') : undefined
  await readSlices(handle, (slice) => {
    const wanted = Math.max(0, Math.min(slice.length, length - offset))
    if (prefix === undefined && offset + slice.length >= length) {
      hash.update(slice.subarray(0, wanted))
      prefix = hash.copy().digest('hex')
      hash.update(slice.subarray(wanted))
    } else hash.update(slice)
    offset += slice.length
    return true
  })
  // Shorter than `length`: no prefix of that length, which no SHA-256 names.
  return { prefix: prefix ?? '', whole: hash.digest('hex') }
}

/** Whether the first `length` bytes of the files open at `a` and `b` are the same (both at least that long). */
export async function prefixEquals(a: FileHandle, b: FileHandle, length: number): Promise<boolean> {
  const left = lent.pop() ?? Buffer.allocUnsafe(SLICE_BYTES)
  const right = lent.pop() ?? Buffer.allocUnsafe(SLICE_BYTES)
  try {
    for (let offset = 0; offset < length; ) {
      const wanted = Math.min(SLICE_BYTES, length - offset)
      const [fromA, fromB] = await Promise.all([a.read(left, 0, wanted, offset), b.read(right, 0, wanted, offset)])
      if (fromA.bytesRead !== wanted || fromB.bytesRead !== wanted || Buffer.compare(left.subarray(0, wanted), right.subarray(0, wanted)) !== 0) return false
      offset += wanted
    }
    return true
  } finally {
    for (const buffer of [left, right]) if (lent.length < 4) lent.push(buffer)
  }
}

/** The size of a slice: a bucket file of a large fixture is read in a few of them. */
const SLICE_BYTES = 1 << 18

/** Buffers lent to reads, one each at a time (saves of several fixtures may read at once). */
const lent: Buffer[] = []
