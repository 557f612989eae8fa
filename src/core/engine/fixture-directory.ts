import { stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { displayPath } from '../common/display-path.js'
import { FixtureError } from '../common/errors.js'

/**
 * Refuses a fixture path that is no directory (`FIXTURE_NOT_FOUND`): one that does not exist, or a
 * file (then naming the directory that holds it). `display` is the path as messages show it.
 */
export async function requireFixtureDirectory(absolute: string, display: string, cwd: string): Promise<void> {
  const stats = await stat(absolute).catch(() => undefined)
  if (stats?.isDirectory() === true) return
  const isFileThere = stats?.isFile() === true
  throw new FixtureError({
    code: 'FIXTURE_NOT_FOUND',
    file: display,
    summary: isFileThere ? 'the path is a file, not a fixture directory.' : 'no such fixture directory.',
    hint: isFileThere
      ? `pass the directory that holds the fixture's files (${displayPath(cwd, dirname(absolute))}).`
      : 'pass the path of a directory that holds a fixture (for example fixtures/docuctl-rollback).',
  })
}
