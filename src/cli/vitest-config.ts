import { displayPath } from '../core/common/display-path.js'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { RubricError, UsageError } from '../core/common/errors.js'
import { isObject } from '../core/common/primitives.js'
import type { RubricPluginApi } from '../plugin/vite-plugin.js'
import { resolveOptions, type ResolvedRubricOptions } from '../run/options.js'
import { configLoadReason } from './config-load-error.js'

/** The rubric() options a command decides with, and the config file they were read from (`undefined`: no rubric() there, the defaults). */
export interface ConfiguredOptions {
  readonly options: ResolvedRubricOptions
  readonly configFile: string | undefined
}

/**
 * The options of the rubric() plugin in the Vitest config the working directory's `vitest run`
 * would load (or the file `--config` names), resolved by Vitest itself: the decision record a
 * command writes is then the one the plugin compares with. Without a config file, or with one that
 * holds no rubric(), the defaults.
 */
export async function configuredRubricOptions(command: string, cwd: string, config: string | undefined): Promise<ConfiguredOptions> {
  if (config !== undefined && !existsSync(resolve(cwd, config))) {
    throw configError(
      command,
      `the Vitest config ${config} does not exist.`,
      'name an existing config file with --config, or leave --config out to use the one `vitest` finds.',
    )
  }
  // Vitest is a peer dependency of the plugin: imported only when a command needs the config.
  const { resolveConfig } = await import('vitest/node')
  let resolved: Awaited<ReturnType<typeof resolveConfig>>
  try {
    resolved = await resolveConfig({ root: cwd, ...(config === undefined ? {} : { config }), mode: 'test' })
  } catch (error) {
    // A rubric() option refused as the config loaded: its own message names the option, what it takes and what was found.
    // The config may import another copy of the package than this command's, whose error class is its own: told by its fields.
    if (error instanceof RubricError) throw error
    if (isObject(error) && error['code'] === 'USAGE' && typeof error['summary'] === 'string' && typeof error['hint'] === 'string') {
      const str = (key: string) => (typeof error[key] === 'string' ? error[key] : undefined)
      const path = Array.isArray(error['path']) ? error['path'].filter((segment) => typeof segment === 'string' || typeof segment === 'number') : []
      throw new UsageError({
        code: 'USAGE',
        file: str('file'),
        path,
        summary: error['summary'],
        expected: str('expected'),
        found: str('found'),
        hint: error['hint'],
      })
    }
    const reason = configLoadReason(error, cwd)
    throw new RubricError({
      code: 'FILE_UNREADABLE',
      file: config ?? 'the Vitest config',
      summary: `the Vitest config could not be loaded, so the rubric() options it gives are unknown: ${reason}`,
      hint: 'fix the config so that `vitest` loads it, or name another with --config.',
    })
  }
  const { viteConfig } = resolved
  const configFile = viteConfig.configFile === undefined ? undefined : displayPath(cwd, viteConfig.configFile)
  const instances = viteConfig.plugins.flatMap((plugin) => {
    // Cast: a Vite plugin's api is untyped; the plugin named vitest-rubric is this package's.
    const api = plugin.name === 'vitest-rubric' ? (plugin.api as Partial<RubricPluginApi> | undefined) : undefined
    return api?.rubricOptions === undefined ? [] : [api.rubricOptions]
  })
  const [first, ...others] = instances
  // A config without rubric() decides as the plugin's defaults would: nothing of it to name.
  if (first === undefined) return { options: resolveOptions(), configFile: undefined }
  if (others.some((other) => JSON.stringify(other) !== JSON.stringify(first))) {
    throw new RubricError({
      code: 'USAGE',
      file: configFile,
      summary: `rubric() is used ${instances.length} times with different options, so the decision record has no one definition.`,
      hint: 'use one rubric() in the config, or name a config with one through --config.',
    })
  }
  return { options: first, configFile }
}

function configError(command: string, summary: string, hint: string): UsageError {
  return new UsageError({ code: 'USAGE', file: `vitest-rubric ${command}`, summary, hint })
}

/** Whether the folder has a Vitest (or Vite) config for the rubric's options. */
export function hasViteConfig(cwd: string): boolean {
  return ['vitest', 'vite'].some((name) => ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'].some((ext) => existsSync(join(cwd, `${name}.config.${ext}`))))
}
