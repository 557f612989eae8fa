import { existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { Vitest } from 'vitest/node'
import { FIXTURE_KINDS } from '../core/fixture.js'

const MARKERS: readonly string[] = Object.values(FIXTURE_KINDS).map((kind) => kind.marker)

/**
 * Reruns a fixture's test module when any other file of its directory changes. Vite sees no
 * import edges between a fixture's files, so the module is invalidated by hand: otherwise the
 * rerun would reuse the code generated from the old files. While a directory is being copied in,
 * its marker file may not exist yet: nothing is rerun until it does.
 */
export function fixtureWatchTrigger(vitest: Vitest, recordFile: string, isFixtureModule: (file: string) => boolean) {
  return {
    pattern: /[^/\\]+$/,
    testsToRun(file: string): string | undefined {
      const name = basename(file)
      if (MARKERS.includes(name) || name === recordFile) return undefined
      const dir = dirname(file)
      for (const marker of MARKERS) {
        const module = join(dir, marker)
        if (existsSync(module) && isFixtureModule(module)) {
          vitest.invalidateFile(module)
          return module
        }
      }
      return undefined
    },
  }
}
