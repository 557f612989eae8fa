import { randomBytes } from 'node:crypto'
import { chmod, open, readFile, rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join, relative, sep } from 'node:path'
import { sha256Hex } from './canonical-json.js'
import { withFixtureLock } from './fixture-lock.js'
import { RevisionError } from '../common/errors.js'
import { errnoCode } from '../common/primitives.js'

/** One file to replace (or create) as a whole. */
export interface FileWrite {
  /** Absolute path. */
  readonly path: string
  /** The file as shown in messages. */
  readonly display: string
  readonly contents: string | Uint8Array
  /**
   * SHA-256 of the bytes the new contents were derived from: the write is refused when the file
   * changed since it was read (an editor saved it meanwhile). `null`: the file must not exist yet.
   */
  readonly basedOn: string | null
}

/** The filesystem calls the writer makes; replaced in tests to interrupt a write. */
export interface WriteIo {
  /**
   * Creates `path` (which must not exist), writes `contents`, flushes it to disk and closes it. With
   * a `mode` (the file it replaces has one), the new file gets exactly that mode; without one, the
   * mode a new file gets from the user's umask.
   */
  readonly writeNew: (path: string, contents: string | Uint8Array, mode: number | undefined) => Promise<void>
  readonly rename: (from: string, to: string) => Promise<void>
  readonly unlink: (path: string) => Promise<void>
}

export const nodeWriteIo: WriteIo = {
  async writeNew(path, contents, mode) {
    const handle = await open(path, 'wx', 0o666)
    try {
      await handle.writeFile(contents)
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
}

/**
 * Replaces files so that each is, at every moment, either wholly old or wholly new: the contents
 * go to a temporary file in the same directory, which is then renamed over the original. All
 * temporary files are written before the first rename, so a failure while writing (a full disk,
 * a killed process) leaves every original byte-identical. A rename that fails after an earlier one
 * succeeded is reported with the files that did and did not change.
 *
 * The whole write holds the lock of `lockDir`, and each file is checked against `basedOn` under
 * it, after the temporary files are written and just before the renames: of two writers derived
 * from the same revision, the second is refused rather than replacing the first one's save.
 */
export async function writeFilesAtomically(writes: readonly FileWrite[], io: WriteIo = nodeWriteIo, options: WriteOptions = {}): Promise<void> {
  if (writes.length === 0) return
  const lockDir = options.lockDir ?? commonDirectory(writes.map((write) => write.path))
  await withFixtureLock(lockDir, () => writeLocked(writes, io))
}

async function writeLocked(writes: readonly FileWrite[], io: WriteIo): Promise<void> {
  const modes: (number | undefined)[] = []
  for (const write of writes) modes.push((await checkUnchanged(write)).mode)

  const temporaries: string[] = []
  try {
    for (const [index, write] of writes.entries()) {
      const temporary = join(dirname(write.path), `.${basename(write.path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
      temporaries.push(temporary)
      await io.writeNew(temporary, write.contents, modes[index])
    }
  } catch (cause) {
    await removeAll(temporaries, io)
    const failed = writes[temporaries.length - 1]!
    throw new RevisionError({
      code: 'WRITE_FAILED',
      file: failed.display,
      summary: `the new contents could not be written (${describe(cause)}); nothing was changed: every file is as it was.`,
      hint: 'free disk space or fix the directory permissions, then run the command again.',
    })
  }

  // Writing and flushing the temporary files takes a while: an editor may have saved meanwhile.
  try {
    for (const write of writes) await checkUnchanged(write)
  } catch (error) {
    await removeAll(temporaries, io)
    throw error
  }

  for (const [index, write] of writes.entries()) {
    try {
      await io.rename(temporaries[index]!, write.path)
    } catch (cause) {
      await removeAll(temporaries.slice(index), io)
      const done = writes.slice(0, index).map((each) => each.display)
      throw new RevisionError({
        code: 'WRITE_FAILED',
        file: write.display,
        summary: `the file could not be replaced (${describe(cause)}); it is as it was${done.length === 0 ? ', and so is every other file' : `, but ${done.join(', ')} already changed`}.`,
        hint: 'fix the cause, then run the command again: it picks up from the files as they are now.',
      })
    }
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

/** The mode of the file replaced (none for a new file); refuses when the file is not the revision the edit was made from. */
async function checkUnchanged(write: FileWrite): Promise<{ mode: number | undefined }> {
  let bytes: Uint8Array | undefined
  let mode: number | undefined
  try {
    bytes = await readFile(write.path)
    mode = (await stat(write.path)).mode & 0o7777
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
  const now = bytes === undefined ? null : sha256Hex(bytes)
  if (now !== write.basedOn) {
    throw new RevisionError({
      code: 'FILE_CHANGED_MEANWHILE',
      file: write.display,
      summary:
        write.basedOn === null
          ? 'the file appeared while the command ran; it was left alone, and nothing was changed.'
          : 'the file changed on disk while the command ran; nothing was changed, so that edit is not lost.',
      hint: 'run the command again once the file is saved.',
    })
  }
  return { mode }
}

async function removeAll(paths: readonly string[], io: WriteIo): Promise<void> {
  await Promise.all(paths.map((path) => io.unlink(path).catch(() => undefined)))
}

function describe(cause: unknown): string {
  const code = errnoCode(cause)
  return code ?? (cause instanceof Error ? cause.message : String(cause))
}
