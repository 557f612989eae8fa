import { fileURLToPath } from 'node:url'
import { initFixture } from '../../core/engine/scaffold.js'
import { usage, type Command } from '../command.js'

/** The JSON Schemas shipped with the package: `src/schemas` beside `src/cli` and `dist/cli` alike. */
export const SCHEMA_DIR = fileURLToPath(new URL('../../../src/schemas/', import.meta.url))

/** `vitest-rubric init <dir> [--from <fixture or rubric>]`: a fixture directory that evaluates at once. */
export const init: Command = {
  name: 'init',
  summary: 'scaffold a fixture directory that evaluates at once (everything pending)',
  help: `Usage: vitest-rubric init <dir> [--from <fixture dir or rubric file>]

Creates a fixture directory: a rubric (a skeleton, or a byte-for-byte copy of another fixture's
rubric and source with --from), no cases and no reviews. Every file names its JSON Schema, so
editors validate and complete it. Refuses a directory that is not empty.

Options:
  --from <path>   copy the rubric of this fixture directory, rubric.json or evaluation_rubric.json`,
  options: { from: { type: 'string' } },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw usage('init', 'init takes exactly one directory.')
    const result = await initFixture(positionals[0]!, { from: values['from'] as string | undefined, cwd: io.cwd, schemaDir: SCHEMA_DIR })
    io.stdout(
      [
        `created ${result.kind} fixture ${result.dir}${result.copiedFrom === undefined ? ' from the skeleton rubric' : ` with the rubric of ${result.copiedFrom} (copied byte for byte)`}:`,
        ...result.files.map((file) => `  ${file}`),
        'It has no cases yet, so everything is pending. Next:',
        ...(result.copiedFrom === undefined ? ['  write the source and the criteria (rubric.json quotes source.txt exactly)'] : []),
        '  add cases to cases.json and reviews to annotations.json',
        `  vitest-rubric status ${result.dir}   # what each case needs`,
        `  vitest-rubric bind ${result.dir} --case <id>   # record a review against the current files`,
      ].join('\n'),
    )
    return 0
  },
}
