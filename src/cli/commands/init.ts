import { fileURLToPath } from 'node:url'
import { initFixture } from '../../core/engine/scaffold.js'
import type { FixtureKind } from '../../core/kinds/index.js'
import { usage, type Command } from '../command.js'

/** The fixture files' JSON Schemas: `src/schemas` beside `src/cli`, copied to `dist/schemas` beside `dist/cli` by the build. */
export const SCHEMA_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url))

/**
 * The rubrics shipped with the package to start from, each the rubric (and source) of a bundled
 * fixture, copied byte for byte: `package.json` lists exactly these files.
 */
export const TEMPLATES: ReadonlyMap<string, { readonly dir: string; readonly about: string }> = new Map([
  ['docuctl', { dir: fileURLToPath(new URL('../../../fixtures/docuctl-rollback/', import.meta.url)), about: 'criteria: the docuctl staging-rollback rubric and its source (hard criteria, every one must be met)' }],
  ['debate', { dir: fileURLToPath(new URL('../../../fixtures/debate-benchmark/', import.meta.url)), about: 'scored: the debate benchmark rubric (six dimensions, N/A, benchmark gate, baseline margin)' }],
])

/** The commands that add a first case to a new fixture and review it, by kind: each takes what that kind's cases and reviews are made of. */
const NEXT_STEPS: Record<FixtureKind, (dir: string) => readonly string[]> = {
  criteria: (dir) => [
    `  vitest-rubric add ${dir} --id <id> --answer <text> --citation <text>   # a case, pending until reviewed`,
    `  vitest-rubric review ${dir} --case <id>   # record its review (asks on a terminal)`,
  ],
  scored: (dir) => [
    `  vitest-rubric add ${dir} --id <id> --spec <spec.json> --outputs <outputs.json>   # a case, pending until reviewed`,
    `  vitest-rubric review ${dir} --case <id> --system debate --from <review.json>   # record its review (then --system baseline)`,
  ],
}

/** `vitest-rubric init <dir> [--from <fixture or rubric>]`: a fixture directory that evaluates at once. */
export const init: Command = {
  name: 'init',
  summary: 'scaffold a fixture directory that evaluates at once (everything pending)',
  help: `Usage: vitest-rubric init <dir> [--from <fixture dir or rubric file> | --template <name>]

Creates a fixture directory: a rubric (a skeleton, a byte-for-byte copy of another fixture's
rubric and source with --from, or one of the rubrics shipped with the package with --template),
no cases and no reviews. Every file names its JSON Schema, so editors validate and complete it.
Refuses a directory that is not empty.

Options:
  --from <path>       copy the rubric of this fixture directory, rubric.json or evaluation_rubric.json
  --template <name>   start from a shipped rubric:
${[...TEMPLATES].map(([name, template]) => `                        ${name.padEnd(9)}${template.about}`).join('\n')}`,
  options: { from: { type: 'string' }, template: { type: 'string' } },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw usage('init', 'init takes exactly one directory.')
    const from = values['from'] as string | undefined
    const name = values['template'] as string | undefined
    if (from !== undefined && name !== undefined) throw usage('init', 'pass --from or --template, not both.')
    const template = name === undefined ? undefined : TEMPLATES.get(name)
    if (name !== undefined && template === undefined) {
      throw usage('init', `there is no template ${JSON.stringify(name)}; the templates are ${[...TEMPLATES.keys()].join(' and ')}.`)
    }
    const result = await initFixture(positionals[0]!, {
      from: template?.dir ?? from,
      fromLabel: name === undefined ? undefined : `template ${name}`,
      cwd: io.cwd,
      schemaDir: SCHEMA_DIR,
    })
    io.stdout(
      [
        `created ${result.kind} fixture ${result.dir}${result.copiedFrom === undefined ? ' from the skeleton rubric' : ` with the rubric of ${result.copiedFrom} (copied byte for byte)`}:`,
        ...result.files.map((file) => `  ${file}`),
        'It has no cases yet, so everything is pending. Next:',
        ...(result.copiedFrom === undefined ? ['  write the source and the criteria (rubric.json quotes source.txt exactly)'] : []),
        ...NEXT_STEPS[result.kind](result.dir),
        `  vitest-rubric status ${result.dir}   # what each case needs`,
      ].join('\n'),
    )
    return 0
  },
}
