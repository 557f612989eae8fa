import { readFile } from 'node:fs/promises'
import { dirname, join, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { UsageError } from '../common/errors.js'
import { readGivenFile } from '../common/given-file.js'
import { judgeModuleOrigin } from '../common/origin.js'
import { sha256Hex } from '../json/canonical-json.js'
import { checkOrigin } from '../engine/authoring/authors.js'
import type { JudgeFunction, JudgeModule } from './judge-types.js'

/** A judge module as `vitest-rubric judge --run` loaded it: the function to call and the origin it records. */
export interface LoadedJudgeModule {
  readonly run: JudgeFunction
  /** `keyword rules r1 (judge module examples/judges/keyword-judge.mjs, sha256 5f1c…)`. */
  readonly origin: string
}

/**
 * Imports a judge module: its `judgeCase` export (one call per case) or its default export (one call
 * per case × criterion), never both. Its version, for the judge file's `origin`, is its package's
 * `name@version` when it is a file of an installed package, and otherwise the SHA-256 of the module
 * file: a changed module is named as another revision.
 */
export async function loadJudgeModule(path: string, cwd: string): Promise<LoadedJudgeModule> {
  const { absolute, display, bytes } = await readGivenFile(
    cwd,
    path,
    (shown) =>
      new UsageError({
        code: 'USAGE',
        file: '--run',
        summary: `there is no judge module ${shown}; nothing was judged.`,
        hint: 'pass the path of a JavaScript module that exports the judge.',
      }),
  )
  let exported: Record<string, unknown>
  try {
    // Cast: an imported module is its namespace object. import-graph: a module the user names, outside src/.
    exported = (await import(pathToFileURL(absolute).href)) as Record<string, unknown>
  } catch (error) {
    throw new UsageError({
      code: 'USAGE',
      file: display,
      summary: `the judge module could not be loaded (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); nothing was judged.`,
      hint: 'run it with node to see the error; a TypeScript module must be compiled first, or run under a Node.js that strips types.',
    })
  }
  // Cast: what it exports is checked below, before anything is called.
  const module = exported as JudgeModule
  const perCase = typeof module.judgeCase === 'function'
  const perCriterion = typeof module.default === 'function'
  if (perCase === perCriterion) {
    throw new UsageError({
      code: 'USAGE',
      file: display,
      summary: perCase
        ? 'the module exports both a default judge and judgeCase, so which one to call would be a guess; nothing was judged.'
        : 'the module exports no judge; nothing was judged.',
      expected:
        'export default async ({ question, answer, source, criterion, rubric, case }) => ({ rating, reason, span }), or export async function judgeCase({ …, criteria }) returning { <criterion id>: { rating, reason, span } }',
      found: `exports: ${Object.keys(exported).join(', ') || 'none'}`,
      hint: 'export one of the two (see docs/judges.md#running-a-judge).',
    })
  }
  const version = (await packageOf(absolute)) ?? `sha256 ${sha256Hex(bytes).slice(0, 16)}`
  const description = typeof module.description === 'string' ? module.description.trim() : ''
  // The description is written into the judge file's origin: a text with no UTF-8 encoding is refused before anything is judged.
  checkOrigin(description, `${display} › description`)
  return {
    run: perCase ? { perCase: module.judgeCase! } : { perCriterion: module.default! },
    origin: judgeModuleOrigin(description, display.split(sep).join('/'), version),
  }
}

/** `name@version` of the installed package the module is a file of, found by its `node_modules` folder. */
async function packageOf(absolute: string): Promise<string | undefined> {
  const parts = absolute.split(sep)
  const at = parts.lastIndexOf('node_modules')
  if (at === -1) return undefined
  const depth = parts[at + 1]?.startsWith('@') === true ? 3 : 2
  const root = parts.slice(0, at + depth).join(sep)
  if (!dirname(absolute).startsWith(root)) return undefined
  try {
    // Cast: parsed JSON of a package.json; each field is checked before it is used.
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown }
    return typeof manifest.name === 'string' && typeof manifest.version === 'string' ? `${manifest.name}@${manifest.version}` : undefined
  } catch {
    return undefined
  }
}
