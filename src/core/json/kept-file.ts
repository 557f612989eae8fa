import { link, readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { errnoCode } from '../common/primitives.js'
import type { HeldLock } from './fixture-lock.js'

/** A file as it was before a save replaced it: its bytes, or a link to them in the lock directory; `null` for a file the save made. */
export type KeptFile = Buffer | { readonly link: string } | null

/**
 * Keeps the file at `path` as it is, before a save replaces it, to put it back if the save must be
 * undone: by a hard link to it in the lock directory, which costs nothing however large the file
 * (a save replaces it by renaming another file over it, so the bytes linked stay as they were);
 * without a lock, or where links cannot be made, by its bytes. The link goes with the lock directory
 * when the lock is released, or taken over.
 */
export async function keepFile(path: string, lock: HeldLock | undefined): Promise<KeptFile> {
  if (lock !== undefined) {
    const linked = lock.stage(`${basename(path)}.kept`)
    try {
      await link(path, linked)
      return { link: linked }
    } catch (cause) {
      if (errnoCode(cause) === 'ENOENT') return null
    }
  }
  return readFile(path).catch((cause: unknown) => (errnoCode(cause) === 'ENOENT' ? null : Promise.reject(cause)))
}

/** The bytes of a file kept; `null` for one the save made. A link kept in a lock directory taken over since is gone: that is an error. */
export async function keptBytes(kept: KeptFile): Promise<Buffer | null> {
  return kept === null || Buffer.isBuffer(kept) ? kept : readFile(kept.link)
}
