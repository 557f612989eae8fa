import { dirname, extname, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
// Brings in Vitest's `configureVitest` addition to Vite's plugin type.
import type {} from 'vitest/config'
import type { TestProject } from 'vitest/node'
import { planWithContext, setRubricContext, type RubricContext } from './context.js'
import { excludeGlobs, kindOfModule, literalGlob, markerGlobs, scanFixtures, unmatchedIncludes } from './discover.js'
import { fixtureModuleCode } from './module-code.js'
import { resolveOptions, type RubricPluginOptions } from './options.js'
import { fixtureWatchTrigger } from './watch.js'
import { RubricReporter } from '../reporter/rubric-reporter.js'

export type { PendingPolicy, ResolvedRubricOptions, RubricPluginOptions } from './options.js'
export { discoverFixtures, type DiscoveredFixture } from './discover.js'

// The runtime sits beside this file, built (.js) or in source (.ts) alike.
const here = fileURLToPath(import.meta.url)
const RUNTIME = fileURLToPath(new URL(`../runtime/index${extname(here)}`, import.meta.url))
const MATCHERS_SETUP = fileURLToPath(new URL(`../matchers/setup${extname(here)}`, import.meta.url))

/**
 * The Vitest plugin: every fixture directory the globs match becomes a test module with one test
 * per case — accepted passes, rejected and refused fail with their reasons, pending is todo.
 *
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config'
 * import { rubric } from 'vitest-rubric/plugin'
 * export default defineConfig({ plugins: [rubric()] })
 * ```
 */
export function rubric(options: RubricPluginOptions = {}): Plugin {
  const resolved = resolveOptions(options)
  let project: TestProject | undefined
  let context: RubricContext | undefined

  return {
    name: 'vitest-rubric',
    enforce: 'pre',

    async configureVitest(plugin) {
      const { vitest, project: current } = plugin
      project = current
      context = {
        options: resolved,
        root: current.config.root,
        cacheDir: resolved.cache ? current.vite.config.cacheDir : undefined,
        plans: new Map(),
      }
      setRubricContext(vitest, context)
      current.config.include.push(...markerGlobs(resolved.include))
      current.config.exclude.push(...excludeGlobs(resolved.exclude))
      if (resolved.matchers) current.config.setupFiles.push(MATCHERS_SETUP)

      const { root } = current.config
      const scan = await scanFixtures(root, resolved.include, resolved.exclude)
      // A fixture reached again through a link would run twice under two names.
      current.config.exclude.push(...scan.aliases.map((moduleId) => literalGlob(relative(root, moduleId))))
      const problems = [
        ...(await unmatchedIncludes(root, resolved.include, resolved.exclude, scan)).map(
          (glob) =>
            `vitest-rubric: the include glob ${JSON.stringify(glob)} matches no fixture directory under ${root} ` +
            '(a fixture directory holds rubric.json, or evaluation_rubric.json). Set the include option of rubric() to where your fixtures are.',
        ),
        ...scan.incomplete.map(
          (dir) =>
            `vitest-rubric: ${relative(root, dir)} holds cases.json and annotations.json but neither rubric.json nor evaluation_rubric.json, ` +
            'so it is no fixture and none of its cases runs. Restore its rubric file (from version control, if it was deleted or renamed).',
        ),
      ]
      if (problems.length > 0) {
        // A run never goes green over fixtures it could not find; in watch mode they may still be added.
        if (vitest.config.watch) vitest.logger.warn(problems.join('\n'))
        else {
          vitest.logger.error(problems.join('\n'))
          process.exitCode = 1
        }
      }
      if (resolved.reporter !== false && shouldAddReporter(vitest.config.reporters)) {
        vitest.config.reporters.push(new RubricReporter(resolved.reporter))
      }
      vitest.config.watchTriggerPatterns ??= []
      vitest.config.watchTriggerPatterns.push(
        fixtureWatchTrigger(vitest, resolved.record, (file) => current.matchesTestGlob(file)),
      )
    },

    async load(id) {
      if (project === undefined || context === undefined) return undefined
      if (id.includes('?') || kindOfModule(id) === undefined || !project.matchesTestGlob(id)) return undefined
      const dir = dirname(id)
      const result = await planWithContext(context, dir)
      context.plans.set(id, result)
      const code = await fixtureModuleCode(dir, result, {
        runtime: RUNTIME,
        cacheDir: project.vite.config.cacheDir,
        moduleId: id,
        root: project.config.root,
        record: resolved.record,
        updateRecords: project.config.snapshotOptions.updateSnapshot === 'all',
      })
      return { code, moduleType: 'js' }
    },
  }
}

/** Not when the reporter is already listed, nor when `blob` is the only reporter (a shard). */
function shouldAddReporter(reporters: readonly unknown[]): boolean {
  const names = reporters.map((entry) => (Array.isArray(entry) ? (entry[0] as unknown) : entry))
  if (names.some((name) => name instanceof RubricReporter || name === 'vitest-rubric/reporter')) return false
  return !(names.length > 0 && names.every((name) => name === 'blob'))
}
