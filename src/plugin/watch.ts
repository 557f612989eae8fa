import { kinds } from '../core/registry.js'
import { existsSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import type { TestProject, Vitest } from 'vitest/node'
import { markerFiles, scanFixtures } from '../core/engine/discover.js'
import { JUDGES_DIR, REVIEWS_DIR } from '../core/engine/panel.js'
import type { ResolvedRubricOptions } from './options.js'

const MARKERS = markerFiles(kinds)

/**
 * Reruns a fixture's test module when any other file of its directory changes. Vite sees no
 * import edges between a fixture's files, so the module is invalidated by hand: otherwise the
 * rerun would reuse the code generated from the old files. While a directory is being copied in,
 * its marker file may not exist yet: nothing is rerun until it does. A change to a compare gate's
 * `against` fixture reruns the modules compared with it too (`comparedWith`).
 */
export function fixtureWatchTrigger(
  vitest: Vitest,
  recordFile: string,
  isFixtureModule: (file: string) => boolean,
  chunkModulesOf: (dir: string) => readonly string[] | undefined = () => undefined,
  comparedWith: (dir: string) => readonly string[] = () => [],
) {
  return {
    pattern: /[^/\\]+$/,
    testsToRun(file: string): string | string[] | undefined {
      const name = basename(file)
      if (name === recordFile) return undefined
      // A reviewer's or a judge's file is one level down, in the fixture's reviews/ or judges/ directory.
      const parent = basename(dirname(file))
      const dir = parent === REVIEWS_DIR || parent === JUDGES_DIR ? dirname(dirname(file)) : dirname(file)
      // A split fixture's marker file is no test module: a change to it, as to any of its files, reruns every chunk.
      const chunks = chunkModulesOf(dir)
      if (chunks !== undefined) {
        for (const module of chunks) vitest.invalidateFile(module)
        return [...chunks]
      }
      if (MARKERS.includes(name)) return undefined
      const compared = comparedWith(dir)
      for (const module of compared) vitest.invalidateFile(module)
      for (const marker of MARKERS) {
        const module = join(dir, marker)
        if (existsSync(module) && isFixtureModule(module)) {
          vitest.invalidateFile(module)
          return compared.length === 0 ? module : [module, ...compared]
        }
      }
      return compared.length === 0 ? undefined : [...compared]
    },
  }
}

/**
 * In watch mode, warns when a fixture loses its rubric file, as a run started in that state does:
 * without it the directory is no fixture, and its cases would vanish from the run unannounced.
 */
export function warnOnLostRubrics(vitest: Vitest, project: TestProject, options: ResolvedRubricOptions, message: (dir: string) => string): void {
  const { root } = project.config
  vitest.vite.watcher.on('unlink', (file: string) => {
    if (!MARKERS.includes(basename(file))) return
    void scanFixtures(kinds, root, options.include, options.exclude).then((scan) => {
      const lost = scan.incomplete.filter((dir) => dir === dirname(file))
      if (lost.length > 0) vitest.logger.warn(lost.map((dir) => message(relative(root, dir))).join('\n'))
    })
  })
}
