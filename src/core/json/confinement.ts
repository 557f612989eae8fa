import { lstat, realpath } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { confineToProject, isWithin, realPathOf } from './read.js'

/**
 * {@link confineToProject} for the files of one read of a fixture: the boundary's real path and
 * each folder's are resolved once, and a file that is not a symbolic link itself lies where its
 * folder's real path says, so it costs one `lstat` rather than a resolution of its every folder (a
 * fixture in the records layout reads a hundred bucket files and more). A link, or anything the
 * shortcut does not settle (a file not there, a folder that does not resolve, a path outside), is
 * confined as {@link confineToProject} confines it, which refuses it with its message.
 */
export function confinement(boundary: string): (path: string, display: string) => Promise<void> {
  let root: Promise<string> | undefined
  const folders = new Map<string, Promise<string | undefined>>()
  return async (path, display) => {
    const stats = await lstat(path).catch(() => undefined)
    if (stats !== undefined && !stats.isSymbolicLink()) {
      const folder = dirname(path)
      let real = folders.get(folder)
      if (real === undefined) {
        real = realpath(folder).catch(() => undefined)
        folders.set(folder, real)
      }
      const realFolder = await real
      root ??= realPathOf(boundary).then((resolved) => resolved ?? boundary)
      if (realFolder !== undefined && isWithin(await root, join(realFolder, basename(path)))) return
    }
    await confineToProject(path, display, boundary)
  }
}
