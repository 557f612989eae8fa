import { kinds } from '../core/registry.js'
import { existsSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import type { TestProject, Vitest } from 'vitest/node'
import { markerFiles, scanFixtures } from '../core/engine/discover.js'
import { JUDGES_DIR, REVIEWS_DIR } from '../core/engine/panel.js'
import { chunkRange } from '../core/engine/plan.js'
import { SAMPLE_FILE } from '../core/sample/sample-file.js'
import { RECORDS_DIR } from '../core/store/records.js'
import type { KeptEvaluations } from '../run/kept.js'
import type { ResolvedRubricOptions } from '../run/options.js'

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
  kept?: KeptEvaluations,
  comparedWith: (dir: string) => readonly string[] = () => [],
) {
  return {
    pattern: /[^/\\]+$/,
    testsToRun(file: string): string | string[] | undefined {
      const name = basename(file)
      // The record, and what a writer leaves beside the files while it writes (its temporary copies, the fixture's lock).
      if (name === recordFile || name.startsWith('.')) return undefined
      // A reviewer's or a judge's file is one level down, in the fixture's reviews/ or judges/ directory; a record file in its records/.
      const parent = basename(dirname(file))
      const dir = parent === REVIEWS_DIR || parent === JUDGES_DIR || parent === RECORDS_DIR ? dirname(dirname(file)) : dirname(file)
      // The sample decides no case, only the estimate gates' checks: the fixture's module reruns (a split fixture's first
      // chunk, after which its gates are checked where the chunks meet), with the checks made again from the new sample.
      if (name === SAMPLE_FILE && dir === dirname(file)) {
        const modules = (chunkModulesOf(dir) ?? MARKERS.map((marker) => join(dir, marker)).filter((each) => existsSync(each) && isFixtureModule(each))).slice(
          0,
          1,
        )
        for (const module of modules) vitest.invalidateFile(module)
        return modules.length === 0 ? undefined : [...modules]
      }
      // A fixture kept from the last run: its files are read again, and only the modules of the cases that changed rerun.
      if (kept?.has(dir) === true) {
        const module = MARKERS.map((marker) => join(dir, marker)).find((each) => existsSync(each) && isFixtureModule(each))
        settled(dir, () => rerunKept(vitest, kept, dir, chunkModulesOf(dir) ?? (module === undefined ? [] : [module]), comparedWith(dir)))
        return undefined
      }
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

/** How long a fixture's files must be still before a kept fixture is read again: a save writes two files, one after the other. */
const SETTLE_MS = 100

const settling = new Map<string, ReturnType<typeof setTimeout>>()

/** Runs `work` once the fixture directory's files have been still for {@link SETTLE_MS}. */
function settled(dir: string, work: () => Promise<void>): void {
  clearTimeout(settling.get(dir))
  settling.set(
    dir,
    setTimeout(() => {
      settling.delete(dir)
      void work()
    }, SETTLE_MS),
  )
}

/**
 * Reads a kept fixture's changed files and reruns the test modules whose cases were decided again:
 * of a split fixture, the chunks that hold them (every chunk when every case was decided again or
 * cases were added or removed, since the chunks' ranges move; the first chunk when only
 * fixture-level figures changed, so that the run reports them); otherwise the fixture's module.
 * Nothing reruns when no file's bytes changed. A fixture that no longer loads reruns every module,
 * which shows its refusal. The modules a compare gate compared with the fixture (`compared`) rerun
 * with it.
 */
async function rerunKept(vitest: Vitest, kept: KeptEvaluations, dir: string, modules: readonly string[], compared: readonly string[] = []): Promise<void> {
  let affected: readonly string[] = modules
  try {
    const refreshed = await kept.refresh(dir)
    if (refreshed !== undefined) {
      const { evaluation, change, casesBefore } = refreshed
      if (change.files.length === 0) return
      const cases = evaluation.fixture.cases.length
      if (modules.length > 1 && change.decided !== 'all' && change.removed.length === 0 && cases === casesBefore) {
        const count = modules.length
        const chunks = new Set<number>()
        for (const id of change.decided) {
          const position = evaluation.positionOf(id)
          if (position !== undefined) chunks.add(chunkOfPosition(position, cases, count))
        }
        affected = chunks.size === 0 ? modules.slice(0, 1) : modules.filter((_, index) => chunks.has(index + 1))
      }
    }
  } catch {
    // The fixture is refused as a whole: every module reruns, and the run says why.
  }
  // The modules compared with this fixture read its files too, whichever of its cases changed.
  affected = [...affected, ...compared.filter((module) => !affected.includes(module))]
  for (const module of affected) vitest.invalidateFile(module)
  await vitest.rerunTestSpecifications(affected.flatMap((module) => vitest.getModuleSpecifications(module)))
}

/** The chunk (1-based) of `count` that holds the case at `position`, as `chunkRange` deals them. */
export function chunkOfPosition(position: number, cases: number, count: number): number {
  for (let index = 1; index <= count; index++) {
    const { start, end } = chunkRange(cases, { index, count })
    if (position >= start && position < end) return index
  }
  return count
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
