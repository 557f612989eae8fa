import { dirname } from 'node:path'
import { glob } from 'tinyglobby'
import { markerGlobs } from '../core/engine/discover.js'
import { kinds } from '../core/registry.js'
import type { ResolvedRubricOptions } from './options.js'

/** The fixture directories (absolute) that the gates' `fixtures` globs name, by gate. */
export interface GateScopes {
  /** By judge, for the judge gates that have `fixtures` globs. */
  readonly judges: ReadonlyMap<string, ReadonlySet<string>>
}

/** No gate names any fixture. */
export const NO_SCOPES: GateScopes = { judges: new Map() }

/**
 * Matches each gate's `fixtures` globs below the root, as the `include` globs are matched: a glob
 * names a directory holding a fixture's marker file (`rubric.json`, `evaluation_rubric.json`).
 */
export async function gateScopes(options: ResolvedRubricOptions, root: string): Promise<GateScopes> {
  const judges = new Map<string, ReadonlySet<string>>()
  for (const [judge, gate] of Object.entries(options.judges ?? {})) {
    if (gate.fixtures !== undefined) judges.set(judge, await namedFixtures(root, gate.fixtures))
  }
  return { judges }
}

/** The fixture directories the globs name, absolute. */
export async function namedFixtures(root: string, globs: readonly string[]): Promise<ReadonlySet<string>> {
  const files = await glob(markerGlobs(kinds, globs), { cwd: root, absolute: true, ignore: ['**/node_modules/**', '**/.git/**'] })
  return new Set(files.map((file) => dirname(file)))
}
