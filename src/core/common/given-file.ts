import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { displayPath } from './display-path.js'
import type { RubricError } from './errors.js'

/** A file named on the command line, read whole: where it is, how it is shown, and its bytes. */
export interface GivenFile {
  readonly absolute: string
  readonly display: string
  readonly bytes: Buffer
}

/**
 * Reads the file at `path`, taken from `cwd` (a judge module, a team file); when it cannot be read,
 * throws what `refuse` makes of the failure, given the path as shown and the cause.
 */
export async function readGivenFile(cwd: string, path: string, refuse: (display: string, cause: unknown) => RubricError): Promise<GivenFile> {
  const absolute = resolve(cwd, path)
  const display = displayPath(cwd, absolute)
  try {
    return { absolute, display, bytes: await readFile(absolute) }
  } catch (cause) {
    throw refuse(display, cause)
  }
}
