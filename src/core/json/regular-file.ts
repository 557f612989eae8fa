import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs'
import { type FileHandle, open } from 'node:fs/promises'

/**
 * The errno-like code of a path that is neither a regular file nor a directory: a named pipe, a
 * socket or a device. Reading a named pipe waits for a writer that may never come, and a device
 * may never end, so a fixture file that is one is refused before anything is read from it.
 */
export const NOT_REGULAR = 'ENOTREGULAR'

/** What a file that is not a regular file is, in words: `a named pipe`. */
export function fileKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory'
  if (stats.isFIFO()) return 'a named pipe'
  if (stats.isSocket()) return 'a socket'
  if (stats.isCharacterDevice()) return 'a character device'
  if (stats.isBlockDevice()) return 'a block device'
  return 'not a regular file'
}

function refusal(stats: Stats, path: string): NodeJS.ErrnoException {
  if (stats.isDirectory()) return Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), { code: 'EISDIR', path })
  return Object.assign(new Error(`${NOT_REGULAR}: ${fileKind(stats)}, not a regular file: '${path}'`), { code: NOT_REGULAR, path, kind: fileKind(stats) })
}

/**
 * Opens a file for reading, refusing anything but a regular file (a directory with `EISDIR`, a
 * named pipe, a socket or a device with {@link NOT_REGULAR}). Opened without blocking, so that a
 * named pipe with no writer is refused at once rather than waited on.
 */
export async function openRegularFile(path: string): Promise<FileHandle> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) throw refusal(stats, path)
    return handle
  } catch (error) {
    await handle.close()
    throw error
  }
}

/** A regular file's bytes, as `readFile` gives them; anything else is refused as {@link openRegularFile} says. */
export async function readRegularFile(path: string): Promise<Buffer> {
  const handle = await openRegularFile(path)
  try {
    return await handle.readFile()
  } finally {
    await handle.close()
  }
}

/** {@link readRegularFile}, synchronously. */
export function readRegularFileSync(path: string): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) throw refusal(stats, path)
    return readFileSync(fd)
  } finally {
    closeSync(fd)
  }
}
