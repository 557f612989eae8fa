import { constants } from 'node:fs'
import { chmod, copyFile, open, rename, unlink } from 'node:fs/promises'
import { basename, dirname, relative, sep } from 'node:path'
import { crashPoint } from './crash-points.js'
import { heldFixtureLock, withFixtureLock, type HeldLock, type Journal } from './fixture-lock.js'
import { RevisionError, RubricError } from '../common/errors.js'
import { errnoCode } from '../common/primitives.js'
import { fileChangedMeanwhile, hashWithPrefix, holds, prefixEquals } from './file-slices.js'
import { forgetKnown, noteWritten, type WrittenContents } from './known-files.js'

/** One file to replace (or create) as a whole, or to remove. */
export interface FileWrite {
  /** Absolute path. */
  readonly path: string
  /** The file as shown in messages. */
  readonly display: string
  /** The new contents; `null` removes the file, as part of the same all-or-nothing save. */
  readonly contents: FileContents | null
  /**
   * SHA-256 of the bytes the new contents were derived from: the write is refused when the file
   * changed since it was read (an editor saved it meanwhile). `null`: the file must not exist yet.
   */
  readonly basedOn: string | null
  /** The bytes `basedOn` is the hash of, when the writer holds them: the file is compared with them byte for byte, not hashed again. */
  readonly basedOnBytes?: Uint8Array
}

/** What a file is written with: text, bytes, or the file as it is with bytes appended. */
export type FileContents = string | Uint8Array | AppendedContents

/**
 * The file replaced, as it is on disk, followed by `append`: a record file a save adds lines to.
 * The file system copies it (`copyOf`, the path of the file replaced), so that a save of one case
 * does not hold a whole bucket file in memory; the copy is checked to hold the bytes `basedOn`
 * names, followed by `append`, before the save is committed.
 */
export interface AppendedContents {
  readonly copyOf: string
  readonly append: Uint8Array
}

function isAppended(contents: FileContents): contents is AppendedContents {
  return typeof contents === 'object' && !(contents instanceof Uint8Array)
}

/** The filesystem calls the writer makes; replaced in tests to interrupt a write. */
export interface WriteIo {
  /**
   * Creates `path` (which must not exist), writes `contents`, flushes it to disk and closes it. With
   * a `mode` (the file it replaces has one), the new file gets exactly that mode; without one, the
   * mode a new file gets from the user's umask.
   */
  readonly writeNew: (path: string, contents: FileContents, mode: number | undefined) => Promise<void>
  readonly rename: (from: string, to: string) => Promise<void>
  readonly unlink: (path: string) => Promise<void>
}

export const nodeWriteIo: WriteIo = {
  async writeNew(path, contents, mode) {
    // Copied, the copy failing if anything is at `path` already, as opening it with `wx` does.
    if (isAppended(contents)) await copyFile(contents.copyOf, path, constants.COPYFILE_EXCL)
    const handle = await open(path, isAppended(contents) ? 'a' : 'wx', 0o666)
    try {
      await handle.writeFile(isAppended(contents) ? contents.append : contents)
      await handle.sync()
    } finally {
      await handle.close()
    }
    // `open` applies the umask: a replaced file keeps its own mode, as an editor's save does.
    if (mode !== undefined) await chmod(path, mode)
  },
  rename,
  unlink,
}

/** Where the writes of one call are serialised with every other writer of the same files. */
export interface WriteOptions {
  /**
   * The directory whose lock the write takes (see `withFixtureLock`): a fixture's directory.
   * @default the deepest directory holding every file written
   */
  readonly lockDir?: string
  /**
   * `lockDir` as messages show it.
   * @default lockDir
   */
  readonly display?: string
}

/**
 * Replaces files so that each is, at every moment, either wholly old or wholly new, and the set of
 * them all-or-nothing across a crash at any instant:
 *
 * 1. Under the lock of `lockDir`, each file's new contents are staged (written and flushed) inside
 *    the lock directory. A failure here (a full disk) leaves every original byte-identical.
 * 2. Each file is checked against `basedOn`: of two writers derived from the same revision, the
 *    second is refused rather than replacing the first one's save.
 * 3. The journal, which names every staged file and where it goes, is renamed into the lock
 *    directory. That rename is the commit: a writer killed after it is finished by the next command
 *    that takes the lock (or reads the fixture), and one killed before it is discarded.
 * 4. Each staged file is renamed over its target, then the journal is removed.
 *
 * Every step is fenced: the files are staged in the lock directory, which a writer that takes a
 * stale lock over moves away, so a holder that lost its lock finds nothing to rename and writes
 * nothing (`LOCK_LOST`).
 */
export async function writeFilesAtomically(writes: readonly FileWrite[], io: WriteIo = nodeWriteIo, options: WriteOptions = {}): Promise<void> {
  if (writes.length === 0) return
  const lockDir = options.lockDir ?? commonDirectory(writes.map((write) => write.path))
  await withFixtureLock(lockDir, () => writeLocked(writes, io, heldFixtureLock(lockDir)!), options.display ?? lockDir)
}

async function writeLocked(writes: readonly FileWrite[], io: WriteIo, lock: HeldLock): Promise<void> {
  // Until this save is done, nothing is known of a file it writes but what is on disk.
  for (const write of writes) forgetKnown(write.path)
  const modes: (number | undefined)[] = []
  for (const write of writes) modes.push((await checkUnchanged(write)).mode)
  // A rename replaces a file whatever its mode: a file its owner made read-only is refused instead, as it would be by an editor.
  const frozen = writes.findIndex((_, index) => modes[index] !== undefined && (modes[index]! & 0o200) === 0)
  if (frozen >= 0) {
    throw new RevisionError({
      code: 'WRITE_FAILED',
      file: writes[frozen]!.display,
      summary: `the file is read-only (mode ${(modes[frozen]! & 0o777).toString(8)}), so it is not replaced; nothing was changed.`,
      hint: 'make it writable (`chmod u+w <file>`) if it is meant to change, then run the command again.',
    })
  }

  const staged: string[] = []
  try {
    for (const [index, write] of writes.entries()) {
      if (write.contents === null) continue
      const path = lock.stage(`${basename(write.path)}.tmp`)
      staged.push(path)
      await io.writeNew(path, write.contents, modes[index])
      crashPoint('staged')
    }
  } catch (cause) {
    await removeAll(staged, io)
    await lock.check('while staging the new contents')
    const failed = writes.filter((write) => write.contents !== null)[staged.length - 1]!
    throw new RevisionError({
      code: 'WRITE_FAILED',
      file: failed.display,
      summary: `the new contents could not be written (${describe(cause)}); nothing was changed: every file is as it was.`,
      hint: 'free disk space or fix the directory permissions, then run the command again.',
    })
  }

  // Writing and flushing the staged files takes a while: an editor may have saved meanwhile.
  // What a file appended to holds once written: known from that check, and noted once the save is done.
  const written: (WrittenContents | undefined)[] = []
  try {
    let next = 0
    for (const write of writes) written.push((await checkUnchanged(write, write.contents === null ? undefined : staged[next++])).written)
  } catch (error) {
    await removeAll(staged, io)
    throw error
  }

  const stagedOf: (string | null)[] = []
  let next = 0
  for (const write of writes) stagedOf.push(write.contents === null ? null : staged[next++]!)
  const journal: Journal = {
    writes: writes.map((write, index) => ({ staged: stagedOf[index] === null ? null : basename(stagedOf[index]!), target: relative(lock.dir, write.path) })),
  }
  const journalStaged = lock.stage('journal.tmp')
  try {
    await nodeWriteIo.writeNew(journalStaged, `${JSON.stringify(journal)}\n`, undefined)
    crashPoint('journal staged')
    await lock.check('before committing its save')
    await rename(journalStaged, lock.journal)
    crashPoint('committed')
  } catch (error) {
    await removeAll([...staged, journalStaged], nodeWriteIo)
    if (error instanceof RubricError) throw error
    throw new RevisionError({
      code: 'WRITE_FAILED',
      file: writes[0]!.display,
      summary: `the save could not be committed (${describe(error)}); nothing was changed: every file is as it was.`,
      hint: 'free disk space or fix the directory permissions, then run the command again.',
    })
  }

  for (const [index, write] of writes.entries()) {
    const from = stagedOf[index] ?? null
    try {
      if (from === null) await io.unlink(write.path)
      else await io.rename(from, write.path)
      crashPoint('renamed')
    } catch (cause) {
      await lockLostAfterCommit(lock)
      await removeAll(
        stagedOf.slice(index).filter((path): path is string => path !== null),
        io,
      )
      await unlink(lock.journal).catch(() => undefined)
      const done = writes.slice(0, index).map((each) => each.display)
      throw new RevisionError({
        code: 'WRITE_FAILED',
        file: write.display,
        summary: `the file could not be ${from === null ? 'removed' : 'replaced'} (${describe(cause)}); it is as it was${done.length === 0 ? ', and so is every other file' : `, but ${done.join(', ')} already changed`}.`,
        hint: 'fix the cause, then run the command again: it picks up from the files as they are now.',
      })
    }
  }
  for (const [index, write] of writes.entries()) {
    const contents = written[index]
    if (contents !== undefined) await noteWritten(write.path, contents)
  }
  await unlink(lock.journal).catch(() => undefined)
  crashPoint('journal removed')
}

/** After the commit, a rename that fails because the lock was taken over: the taker finishes the save. */
async function lockLostAfterCommit(lock: HeldLock): Promise<void> {
  try {
    await lock.check('')
  } catch (error) {
    if (!(error instanceof RubricError)) throw error
    throw new RevisionError({
      code: 'LOCK_LOST',
      file: error.file,
      summary:
        "this command lost the fixture's lock after it had committed its save: it was paused for more than 30 s and another writer took the lock over. That writer finished this save from its journal before its own, so both are kept; this command wrote nothing after losing the lock.",
      hint: 'nothing to redo: `vitest-rubric status` shows the fixture as it is now.',
    })
  }
}

/** The deepest directory that holds every path. */
function commonDirectory(paths: readonly string[]): string {
  let common = dirname(paths[0]!)
  for (const path of paths.slice(1)) {
    while (relative(common, dirname(path)).split(sep)[0] === '..') common = dirname(common)
  }
  return common
}

/**
 * The mode of the file replaced (none for a new file); refuses when the file is not the revision the
 * edit was made from. Before its contents are staged, a file the save appends to is only stat'ed:
 * it is checked once, after the copy (`staged`), which must then be that revision followed by the
 * bytes appended.
 */
async function checkUnchanged(write: FileWrite, staged?: string): Promise<{ mode: number | undefined; written?: WrittenContents }> {
  let found: Awaited<ReturnType<typeof compareFile>> | undefined
  try {
    found = await compareFile(write, staged)
  } catch (cause) {
    if (errnoCode(cause) !== 'ENOENT') {
      throw new RevisionError({
        code: 'WRITE_FAILED',
        file: write.display,
        summary: `the file cannot be read (${describe(cause)}); nothing was changed.`,
        hint: 'check the file permissions and that the path is a regular file.',
      })
    }
  }
  const unchanged = found === undefined ? write.basedOn === null : found.same
  if (!unchanged && write.basedOn !== null) throw fileChangedMeanwhile(write.display)
  if (!unchanged) {
    throw new RevisionError({
      code: 'FILE_CHANGED_MEANWHILE',
      file: write.display,
      summary: 'the file appeared while the command ran; it was left alone, and nothing was changed.',
      hint: 'run the command again once the file is saved.',
    })
  }
  return { mode: found?.mode, ...(found?.written === undefined ? {} : { written: found.written }) }
}

/**
 * Whether the file `write` replaces is still the file it was made from (compared byte for byte
 * when the writer holds those bytes, else by SHA-256), and its mode; given the staged copy of a
 * file appended to, whether that copy is the file followed by the bytes appended. The copy of a
 * file checked by SHA-256 is hashed, not the file: its first bytes must be the revision read and
 * the file as it is now (compared), and the hash of the whole (`written`) is what the file holds
 * once the save is done. The files are read a slice at a time: a bucket file of a large fixture is
 * megabytes.
 */
async function compareFile(write: FileWrite, staged: string | undefined): Promise<{ mode: number; same: boolean; written?: WrittenContents }> {
  const { basedOn, basedOnBytes, contents } = write
  const handle = await open(write.path, 'r')
  try {
    const { mode, size } = await handle.stat()
    // A file found where none should be is still read first: one that cannot be read (a folder) is named as such.
    if (basedOn === null) await handle.read(Buffer.alloc(1), 0, 1, 0)
    const appended = contents !== null && isAppended(contents) ? contents : undefined
    if (basedOn === null || (basedOnBytes !== undefined && size !== basedOnBytes.length)) return { mode: mode & 0o7777, same: false }
    if (appended !== undefined && staged === undefined) return { mode: mode & 0o7777, same: true }
    if (appended === undefined || staged === undefined || basedOnBytes !== undefined) {
      const same = await holds(handle, basedOnBytes === undefined ? { sha256: basedOn } : { bytes: basedOnBytes })
      if (!same || appended === undefined || staged === undefined) return { mode: mode & 0o7777, same }
    }
    // The copy hashed once: its first `size` bytes must be the revision read and the file as it is now, and the
    // hash of the whole is what the file holds once the copy is renamed over it.
    const copy = await open(staged, 'r')
    try {
      if ((await copy.stat()).size !== size + appended.append.length) return { mode: mode & 0o7777, same: false }
      const hashed = basedOnBytes === undefined ? await hashWithPrefix(copy, size) : undefined
      if (hashed !== undefined && hashed.prefix !== basedOn) return { mode: mode & 0o7777, same: false }
      if (!(await prefixEquals(copy, handle, size))) return { mode: mode & 0o7777, same: false }
      const written = hashed && {
        sha256: hashed.whole,
        length: size + appended.append.length,
        grownFrom: { length: size, sha256: basedOn },
        tail: appended.append,
      }
      return { mode: mode & 0o7777, same: true, ...(written === undefined ? {} : { written }) }
    } finally {
      await copy.close()
    }
  } finally {
    await handle.close()
  }
}

async function removeAll(paths: readonly string[], io: WriteIo): Promise<void> {
  await Promise.all(paths.map((path) => io.unlink(path).catch(() => undefined)))
}

function describe(cause: unknown): string {
  const code = errnoCode(cause)
  return code ?? (cause instanceof Error ? cause.message : String(cause))
}
