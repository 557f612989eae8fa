import { fileURLToPath } from 'node:url'
import { initFixture } from '../core/scaffold.js'

/** The JSON Schemas shipped with the package: `src/schemas` beside `src/cli` and `dist/cli` alike. */
export const SCHEMA_DIR = fileURLToPath(new URL('../../src/schemas/', import.meta.url))

/** `vitest-rubric init <dir> [--from <fixture or rubric>]`: a fixture directory that evaluates at once. */
export async function initCommand(options: { dir: string; from: string | undefined; cwd: string }): Promise<string> {
  const result = await initFixture(options.dir, { from: options.from, cwd: options.cwd, schemaDir: SCHEMA_DIR })
  return [
    `created ${result.kind} fixture ${result.dir}${result.copiedFrom === undefined ? ' from the skeleton rubric' : ` with the rubric of ${result.copiedFrom} (copied byte for byte)`}:`,
    ...result.files.map((file) => `  ${file}`),
    'It has no cases yet, so everything is pending. Next:',
    ...(result.copiedFrom === undefined ? ['  write the source and the criteria (rubric.json quotes source.txt exactly)'] : []),
    '  add cases to cases.json and reviews to annotations.json',
    `  vitest-rubric status ${result.dir}   # what each case needs`,
    `  vitest-rubric bind ${result.dir} --case <id>   # record a review against the current files`,
  ].join('\n')
}
