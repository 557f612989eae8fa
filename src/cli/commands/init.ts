import { BUILT, packageFile } from '../../package-files.js'
import { initFixture, kinds } from '../../core/registry.js'
import { convertFixture } from '../../core/engine/convert-layout.js'
import { usage, stringOption, type Command } from '../command.js'

/** The fixture files' JSON Schemas: `src/schemas`, copied to `dist/schemas` by the build. */
export const SCHEMA_DIR = packageFile(BUILT ? 'dist/schemas/' : 'src/schemas/')

/**
 * The rubrics shipped with the package to start from, each the rubric (and source) of a bundled
 * fixture, copied byte for byte: `package.json` lists exactly these files.
 */
export const TEMPLATES: ReadonlyMap<string, { readonly dir: string; readonly about: string }> = new Map([
  [
    'docuctl',
    {
      dir: packageFile('fixtures/docuctl-rollback/'),
      about: 'criteria: the docuctl staging-rollback rubric and its source (hard criteria, every one must be met)',
    },
  ],
  [
    'debate',
    {
      dir: packageFile('fixtures/debate-benchmark/'),
      about: 'scored: the debate benchmark rubric (six dimensions, N/A, benchmark gate, baseline margin)',
    },
  ],
])

/** `vitest-rubric init <dir> [--from <fixture or rubric>]`: a fixture directory that evaluates at once. */
export const init: Command = {
  name: 'init',
  summary: 'scaffold a fixture directory that evaluates at once (everything pending)',
  help: `Usage: vitest-rubric init <dir> [--from <fixture dir or rubric file> | --template <name>] [--layout seed|records]

Creates a fixture directory: a rubric (a skeleton, a byte-for-byte copy of another fixture's
rubric and source with --from, or one of the rubrics shipped with the package with --template),
no cases and no reviews. Every file names its JSON Schema, so editors validate and complete it.
Refuses a directory that is not empty. --layout records makes it in the records layout, for a
team that shares it through git: records/ with records/.gitattributes (*.jsonl merge=union
eol=lf), so that branches that worked on different cases merge with no conflict (docs/teams.md).

Options:
  --from <path>       copy the rubric of this fixture directory, rubric.json or evaluation_rubric.json
  --layout <layout>   seed (cases.json and annotations.json; the default) or records
  --template <name>   start from a shipped rubric:
${[...TEMPLATES].map(([name, template]) => `                        ${name.padEnd(9)}${template.about}`).join('\n')}`,
  options: { from: { type: 'string' }, template: { type: 'string' }, layout: { type: 'string' } },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw usage('init', 'init takes exactly one directory.')
    const from = stringOption(values, 'from')
    const name = stringOption(values, 'template')
    if (from !== undefined && name !== undefined) throw usage('init', 'pass --from or --template, not both.')
    const layout = stringOption(values, 'layout') ?? 'seed'
    if (layout !== 'seed' && layout !== 'records') throw usage('init', `--layout takes seed or records, not ${JSON.stringify(layout)}.`)
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
    // The records layout is the seed layout's documents moved into records/, by the same step `convert` takes.
    const converted = layout === 'records' ? await convertFixture(positionals[0]!, 'records', { cwd: io.cwd, kinds }) : undefined
    const files = converted === undefined ? result.files : [...result.files.filter((file) => !converted.removed.includes(file)), ...converted.written]
    io.stdout(
      [
        `created ${result.kind} fixture ${result.dir}${converted === undefined ? '' : ' in the records layout'}${result.copiedFrom === undefined ? ' from the skeleton rubric' : ` with the rubric of ${result.copiedFrom} (copied byte for byte)`}:`,
        ...files.map((file) => `  ${file}`),
        'It has no cases yet, so everything is pending. Next:',
        ...(result.copiedFrom === undefined ? ['  write the source and the criteria (rubric.json quotes source.txt exactly)'] : []),
        ...(kinds.get(result.kind)?.scaffold.nextSteps(result.dir) ?? []),
        `  vitest-rubric status ${result.dir}   # what each case needs`,
      ].join('\n'),
    )
    return 0
  },
}
