import { constants } from 'node:fs'
import { appendFile, open } from 'node:fs/promises'
import { dirname } from 'node:path'
import { makeFolder, type OutputPlace } from './output-file.js'

/**
 * Appends `text` to a log the package keeps (a serve audit log): the folders on the way are checked
 * as every output's are (a link leading out of the place is refused), and the file is opened with
 * `O_NOFOLLOW`, so a symbolic link planted in its place is refused, never written through. An append
 * of one line is all or nothing for a reader of whole lines: a torn last line is visible.
 */
export async function appendToLog(path: string, text: string, place: OutputPlace): Promise<void> {
  await makeFolder(dirname(path), place)
  const handle = await open(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o666)
  try {
    await handle.writeFile(text)
  } finally {
    await handle.close()
  }
}

/**
 * Appends `text` to a file that another program owns and names (the CI runner's job summary, from
 * `GITHUB_STEP_SUMMARY`): appended to as named, outside the project, since every step of the job
 * appends to it and a replacing write would drop what the steps before wrote.
 */
export async function appendToNamedFile(path: string, text: string): Promise<void> {
  await appendFile(path, text)
}
