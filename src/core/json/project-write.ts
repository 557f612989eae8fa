import { lstat } from 'node:fs/promises'
import { RevisionError } from '../common/errors.js'
import { nodeWriteIo, writeFilesAtomically, type FileWrite, type WriteIo } from './atomic-write.js'
import { makeFolder } from './output-file.js'
import { confineToProject } from './read.js'

/** Where one save into the project goes, and how it is serialised with every other writer. */
export interface ProjectWriteOptions {
  /**
   * The folder every file's real path must lie in (see `projectBoundary`): a write that a symbolic
   * link would lead out of it is refused (`FILE_OUTSIDE_PROJECT`), never made.
   */
  readonly boundary: string
  /** The directory whose lock the save takes, and whose lock directory stages it: a fixture's directory. */
  readonly lockDir: string
  /**
   * `lockDir` as messages show it.
   * @default lockDir
   */
  readonly display?: string | undefined
  /** Folders the save needs that may not exist yet, made one by one from the boundary, each checked as an output's. */
  readonly folders?: readonly string[]
  /** The folder paths in messages are shown from, for the folders made. */
  readonly cwd: string
  /** The filesystem calls of the save; replaced in tests to interrupt it. */
  readonly io?: WriteIo | undefined
}

/**
 * Saves files into the project: every file the package writes into a fixture (its documents,
 * records, judges' labels, decision record, sample, a scaffold) goes through here. Each file is
 * confined to the project, the folders it needs are made and checked, and the set is written by
 * {@link writeFilesAtomically}: under the lock of `lockDir`, fenced, all-or-nothing, and refused
 * when a file changed on disk since it was read.
 */
export async function writeProjectFiles(writes: readonly FileWrite[], options: ProjectWriteOptions): Promise<void> {
  // Each file first, so that a refusal names the file a link would lead out, not the folder on its way.
  for (const write of writes) await confineToProject(write.path, write.display, options.boundary)
  // A save replaces a file by a rename, which would put a file in place of a link and leave what it leads to without the save.
  for (const write of writes) if (await isLink(write.path)) throw linkedFile(write.display)
  for (const folder of options.folders ?? []) await makeFolder(folder, { boundary: options.boundary, cwd: options.cwd })
  await writeFilesAtomically(writes, options.io ?? nodeWriteIo, {
    lockDir: options.lockDir,
    ...(options.display === undefined ? {} : { display: options.display }),
  })
}

async function isLink(path: string): Promise<boolean> {
  return lstat(path).then(
    (info) => info.isSymbolicLink(),
    () => false,
  )
}

function linkedFile(display: string): RevisionError {
  return new RevisionError({
    code: 'WRITE_FAILED',
    file: display,
    summary:
      'the file is a symbolic link: a save replaces the file whole, which would put a file in place of the link and leave the file it leads to without the save; nothing was changed.',
    hint: 'put the file itself in place of the link (a link is followed when the fixture is read, never when it is written), then run the command again.',
  })
}
