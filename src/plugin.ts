/**
 * vitest-rubric/plugin: the Vitest plugin, its options and fixture discovery. This entry joins the
 * plugin (src/plugin/) to the printing reporter (src/reporter/), which never import each other.
 */
import type { Plugin } from 'vite'
import { rubricPlugin } from './plugin/vite-plugin.js'
import { RubricReporter } from './reporter/rubric-reporter.js'
import type { RubricPluginOptions } from './run/options.js'

export type {
  CompareGateOptions,
  FalseAcceptLimit,
  JudgeGateOptions,
  PendingPolicy,
  ResolvedCompareGate,
  ResolvedJudgeGate,
  ResolvedRubricOptions,
  RubricPluginOptions,
} from './run/options.js'
export type { EstimateGateOptions, ResolvedEstimateGate } from './run/estimate-options.js'
export type { RubricCaseMeta, RubricCheckMeta, RubricFixtureMeta } from './runtime/meta.js'
export type { DiscoveredFixture } from './core/engine/discover.js'
export { discoverFixtures, type RubricPluginApi } from './plugin/vite-plugin.js'

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
  return rubricPlugin(options, RubricReporter)
}
