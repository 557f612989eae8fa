import { randomBytes } from 'node:crypto'
import { constants, type Stats } from 'node:fs'
import { lstat, mkdir, open, readlink, realpath, rename, rm, rmdir, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import { displayPath } from '../common/display-path.js'
import { RevisionError } from '../common/errors.js'
import { errnoCode } from '../common/primitives.js'
import { isWithin } from './read.js'

/**
 * One file the package writes of its own: a report, the reporter's JSON, a cache entry, a chunk
 * module, a schema file. Fixture files are revised through `writeFilesAtomically` instead.
 */
export interface OutputFile {
  /** Absolute path. */
  readonly path: string
  /** The file as shown in messages. */
  readonly display: string
  readonly contents: string | Uint8Array
}

/** Where an output may go. */
export interface OutputPlace {
  /**
   * The folder the output's real path must lie in, itself trusted as it is (see {@link outputBoundary}):
   * every folder below it is checked, and a symbolic link leading out of it is refused.
   */
  readonly boundary: string
  /** The folder paths in messages are shown from. */
  readonly cwd: string
}

/**
 * The folder an output must stay in: the project `root` (the folder a command runs in, Vitest's
 * root) for a path inside it, or the folder named for a path outside it (`--out /tmp/report.html`,
 * Vite's cache folder): a path someone named is theirs, a link found on the way is not.
 */
export function outputBoundary(root: string, path: string): string {
  return isWithin(root, path) ? root : dirname(path)
}

/**
 * Writes an output so that a reader sees the old file or the new one, never half, and so that
 * nothing outside the boundary is written: the folders on the way are made or checked one by one
 * ({@link makeFolder}), the contents go to a new temporary file beside the target, which is then
 * renamed over it. A rename replaces a symbolic link at the target instead of following it, so a
 * link planted there (`.vitest-rubric/report.html` → `~/.bashrc`) is replaced, never written through.
 */
export async function writeOutputFile(file: OutputFile, place: OutputPlace): Promise<void> {
  // A path that names the boundary itself (`--out .`, `--out ''`, `x/..`) is a folder, with no folder of its own to write in.
  if (resolve(file.path) === resolve(place.boundary)) throw isFolder(file.display)
  const folder = dirname(file.path)
  await makeFolder(folder, place)
  const existing = await lstatOrUndefined(file.path, file.display)
  if (existing?.isDirectory()) throw isFolder(file.display)
  const temporary = join(folder, `.${basename(file.path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  try {
    // `wx` creates the file or fails: it never opens a file or a link already there.
    const handle = await open(temporary, 'wx', 0o666)
    try {
      await handle.writeFile(file.contents)
    } finally {
      await handle.close()
    }
    await rename(temporary, file.path)
  } catch (cause) {
    await unlink(temporary).catch(() => undefined)
    throw new RevisionError({
      code: 'WRITE_FAILED',
      file: file.display,
      summary: `the file could not be written (${errnoCode(cause) ?? String(cause)}); it is as it was.`,
      hint: 'free disk space or fix the folder permissions, then run the command again.',
    })
  }
}

/**
 * An output's bytes as this package wrote them, read without following a link: `undefined` when
 * the file is missing, or is a symbolic link or anything else than a regular file (then it is
 * written again, which replaces it). A folder on the way that leads out of the boundary is refused.
 */
export async function readOutputFile(path: string, place: OutputPlace): Promise<Buffer | undefined> {
  if (!(await checkFolder(dirname(path), place, false))) return undefined
  const handle = await openOutput(path)
  if (handle === undefined) return undefined
  try {
    return await handle.readFile()
  } finally {
    await handle.close()
  }
}

/**
 * The output at `path` opened for reading, when it is a regular file; `undefined` when nothing is
 * there, or a symbolic link (`O_NOFOLLOW`: it fails instead of being read through) or anything else
 * than a regular file. Opened without blocking, so a named pipe is not waited on.
 */
async function openOutput(path: string): Promise<Awaited<ReturnType<typeof open>> | undefined> {
  let handle: Awaited<ReturnType<typeof open>>
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (error) {
    const code = errnoCode(error)
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'EMLINK' || code === 'ENOTDIR') return undefined
    throw error
  }
  if ((await handle.stat()).isFile()) return handle
  await handle.close()
  return undefined
}

/**
 * The first `bytes` of an output already at `path`, as {@link readOutputFile} reads it: enough to
 * tell a file this package wrote from another before it is replaced. `undefined` when nothing is
 * there, or a symbolic link or anything else than a regular file (which the write replaces); a named
 * pipe is opened without waiting for a writer.
 */
export async function readOutputStart(path: string, place: OutputPlace, bytes: number): Promise<Buffer | undefined> {
  // The boundary itself is a folder, which the write refuses as one.
  if (resolve(path) === resolve(place.boundary)) return undefined
  if (!(await checkFolder(dirname(path), place, false))) return undefined
  const handle = await openOutput(path)
  if (handle === undefined) return undefined
  try {
    const buffer = Buffer.alloc(bytes)
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/**
 * {@link readOutputFile} of a file that holds what only this package keeps (a team's token hashes,
 * its open reservations): a symbolic link or anything else than a regular file in its place is
 * `'not a file'`, for the caller to refuse, since writing the file again would replace it and drop
 * what it held.
 */
export async function readStateFile(path: string, place: OutputPlace): Promise<Buffer | undefined | 'not a file'> {
  try {
    if (!(await lstat(path)).isFile()) return 'not a file'
  } catch (error) {
    const code = errnoCode(error)
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error
  }
  return readOutputFile(path, place)
}

/**
 * Removes outputs the package wrote earlier and no longer needs (a stale cache entry, a chunk module
 * of another chunk count). A symbolic link in an output's place is removed itself, never followed;
 * an output already gone is no error.
 */
export async function removeOutputFiles(paths: readonly string[]): Promise<void> {
  await Promise.all(paths.map((path) => rm(path, { force: true })))
}

/** Removes a folder the package emptied (a fixture converted to the records layout); a folder still holding something stays. */
export async function removeEmptyFolder(folder: string): Promise<void> {
  await rmdir(folder).catch(() => undefined)
}

function isFolder(display: string): RevisionError {
  return new RevisionError({
    code: 'WRITE_FAILED',
    file: display,
    summary: 'the path is a folder, so the file cannot be written there; nothing was written.',
    expected: 'a file, or nothing',
    found: 'a folder',
    hint: 'remove or rename the folder, or write the file elsewhere.',
  })
}

/**
 * Makes `folder` and every folder missing between the boundary and it, one at a time. Each folder
 * already there is checked with `lstat`: a symbolic link may stand for a folder only when its real
 * path lies inside the boundary (else `FILE_OUTSIDE_PROJECT`), and a link whose target does not
 * exist, or a file where a folder should be, is refused by name (`WRITE_FAILED`) rather than
 * failing in `mkdir`.
 */
export async function makeFolder(folder: string, place: OutputPlace): Promise<void> {
  await checkFolder(folder, place, true)
}

/** Checks (and with `create`, makes) each folder from the boundary down to `folder`; `false` when one is missing and not made. */
async function checkFolder(folder: string, place: OutputPlace, create: boolean): Promise<boolean> {
  const boundary = resolve(place.boundary)
  const target = resolve(folder)
  if (!isWithin(boundary, target)) throw new TypeError(`${target} is not inside its boundary ${boundary}`)
  // The boundary is the project or a folder someone named: made if missing, never questioned.
  if (create) await mkdir(boundary, { recursive: true }).catch((cause) => Promise.reject(folderFailed(displayPath(place.cwd, boundary), cause)))
  let realBoundary: string
  try {
    realBoundary = await realpath(boundary)
  } catch (cause) {
    if (!create && errnoCode(cause) === 'ENOENT') return false
    throw folderFailed(displayPath(place.cwd, boundary), cause)
  }
  let current = boundary
  const rel = relative(boundary, target)
  for (const part of rel === '' ? [] : rel.split(sep)) {
    current = join(current, part)
    const shown = displayPath(place.cwd, current)
    let info = await lstatOrUndefined(current, shown)
    if (info === undefined) {
      if (!create) return false
      try {
        await mkdir(current)
        continue
      } catch (cause) {
        if (errnoCode(cause) !== 'EEXIST') throw folderFailed(shown, cause)
        info = await lstatOrUndefined(current, shown)
        if (info === undefined) throw folderFailed(shown, cause)
      }
    }
    if (info.isSymbolicLink()) info = await followLink(current, shown, realBoundary)
    if (!info.isDirectory()) {
      throw new RevisionError({
        code: 'WRITE_FAILED',
        file: shown,
        summary: 'the path is a file where a folder should be, so nothing can be written below it; nothing was written.',
        expected: 'a folder, or nothing',
        found: 'a file',
        hint: 'remove or rename the file, or write elsewhere.',
      })
    }
  }
  return true
}

/** What a link on the way to an output stands for: a folder whose real path is inside the boundary, or a refusal that names it. */
async function followLink(path: string, shown: string, realBoundary: string): Promise<Stats> {
  let real: string
  try {
    real = await realpath(path)
  } catch {
    const to = await readlink(path).catch(() => undefined)
    throw new RevisionError({
      code: 'WRITE_FAILED',
      file: shown,
      summary: 'the path is a symbolic link whose target does not exist, so nothing can be written below it; nothing was written.',
      expected: `a folder, or a symbolic link to a folder inside ${realBoundary}`,
      found: `a symbolic link to ${to ?? 'a path that cannot be read'}, which does not exist`,
      hint: `remove the link (\`rm ${shown}\`: the folder is then made in its place), or make the folder it points at, inside the project.`,
    })
  }
  if (!isWithin(realBoundary, real)) {
    throw new RevisionError({
      code: 'FILE_OUTSIDE_PROJECT',
      file: shown,
      summary: 'the path leads outside the project through a symbolic link, so nothing is written through it.',
      expected: `a folder whose real path lies inside ${realBoundary}`,
      found: real,
      hint: 'replace the link with a folder of its own (remove it: the folder is then made in its place), or run the command from a folder that holds what the link points at.',
    })
  }
  return stat(path)
}

async function lstatOrUndefined(path: string, shown: string): Promise<Stats | undefined> {
  try {
    return await lstat(path)
  } catch (cause) {
    if (errnoCode(cause) === 'ENOENT') return undefined
    throw folderFailed(shown, cause)
  }
}

function folderFailed(shown: string, cause: unknown): RevisionError {
  return new RevisionError({
    code: 'WRITE_FAILED',
    file: shown,
    summary: `the folder cannot be made or read (${errnoCode(cause) ?? String(cause)}); nothing was written.`,
    hint: 'fix the folder permissions, or write elsewhere.',
  })
}
