import { readFileSync } from 'node:fs'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { RubricError, UsageError } from '../core/errors.js'
import { bindCommand } from './bind.js'
import { evaluateCommand } from './evaluate.js'
import { initCommand } from './init.js'
import { recordCommand } from './record.js'
import { SCHEMA_USAGE, schemaCommand } from './schema.js'
import { statusCommand } from './status.js'

export interface CliIo {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  readonly cwd: string
}

type Options = NonNullable<ParseArgsConfig['options']>
interface Parsed {
  readonly values: Record<string, string | boolean | string[] | undefined>
  readonly positionals: string[]
}

interface Command {
  /** One line for the command list. */
  readonly summary: string
  /** `vitest-rubric <command> --help`. */
  readonly help: string
  readonly options: Options
  /** Returns the exit code. */
  readonly run: (args: Parsed, io: CliIo) => Promise<number>
}

const COMMANDS: Readonly<Record<string, Command>> = {
  evaluate: {
    summary: 'decide every case of each fixture and print the decisions and coverage',
    help: `Usage: vitest-rubric evaluate <dir...> [--json]

Decides every case of each fixture directory and prints its review coverage and decisions.
Rejected and pending cases are results, not errors.

Options:
  --json   print the evaluation as JSON (an array when several directories are given)

Exit codes: 0 when every fixture loaded, whatever its decisions; 1 when a fixture is refused.`,
    options: { json: { type: 'boolean', default: false } },
    async run({ values, positionals }, io) {
      io.stdout(await evaluateCommand({ dirs: needDirs('evaluate', positionals), json: values.json === true, cwd: io.cwd }))
      return 0
    },
  },
  status: {
    summary: 'what each case needs next: stale, unacknowledged, unreviewed, uncertain or current',
    help: `Usage: vitest-rubric status [dir...] [--json]

For every case, what a reviewer must do next, grouped by action: a stale answer, source or rubric
(with the criteria a rubric change affects), an edited review not acknowledged, a refused case,
an unreviewed, incomplete or uncertain review, or nothing. Without directories, checks every
fixture below fixtures/.

Options:
  --json   print the status as JSON

Exit codes: 0 when every review is bound to the files as they are (pending cases included);
1 when a case is stale, unacknowledged or refused, a fixture is refused, or there is no fixture
to check: use it in CI or a pre-commit hook.`,
    options: { json: { type: 'boolean', default: false } },
    async run({ values, positionals }, io) {
      const { output, ok } = await statusCommand({ dirs: positionals, json: values.json === true, cwd: io.cwd })
      io.stdout(output)
      return ok ? 0 : 1
    },
  },
  bind: {
    summary: 'record that a re-read review applies to the current answer, source and rubric',
    help: `Usage: vitest-rubric bind <dir> (--case <id>... | --all) [--dry-run]

The explicit revision, after a reviewer has re-read a case: sets the review's answer, source and
rubric hashes (scored fixtures: rubric, spec and output) and the case's expected hashes to the
files as they are now, and acknowledges the review's new revision. Prints every old → new hash.
Only cases.json and annotations.json change, and only in those hashes; the rubric and the source
are never written. Nothing is written when a case has no review, or would still be refused once
bound (revise its judgements first).

Options:
  --case <id>   a case to bind (repeatable)
  --all         every case that has a review (cases without one are listed and left alone)
  --dry-run     print what would change, write nothing

Exit codes: 0 when bound (or nothing to change); 1 when refused, with nothing written.`,
    options: {
      case: { type: 'string', multiple: true },
      all: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
    },
    async run({ values, positionals }, io) {
      if (positionals.length !== 1) throw usage('bind', 'bind takes exactly one fixture directory.')
      const ids = (values.case as string[] | undefined) ?? []
      if (values.all === true && ids.length > 0) throw usage('bind', 'give either --case or --all, not both.')
      if (values.all !== true && ids.length === 0) throw usage('bind', 'name the cases to bind with --case <id>, or pass --all.')
      io.stdout(await bindCommand({ dir: positionals[0]!, cases: values.all === true ? 'all' : ids, dryRun: values['dry-run'] === true, cwd: io.cwd }))
      return 0
    },
  },
  init: {
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
      io.stdout(await initCommand({ dir: positionals[0]!, from: values.from as string | undefined, cwd: io.cwd }))
      return 0
    },
  },
  schema: {
    summary: 'print the JSON Schemas of the fixture files, or write them with --out',
    help: SCHEMA_USAGE,
    options: { out: { type: 'string' } },
    async run({ values, positionals }, io) {
      if (positionals.length > 0) throw usage('schema', 'schema takes no directories (use --out <dir> to write the files).')
      io.stdout(await schemaCommand({ out: values.out as string | undefined, cwd: io.cwd }))
      return 0
    },
  },
  record: {
    summary: "write each fixture's decision record, or check it with --check",
    help: `Usage: vitest-rubric record <dir...> [--check]

Writes each fixture's decision record (decisions.record.json): every decision and the identities
of the files it was made from. With --check, compares instead of writing.

Options:
  --check   compare the current decisions with the record; exit 1 on a difference`,
    options: { check: { type: 'boolean', default: false } },
    async run({ values, positionals }, io) {
      const { output, ok } = await recordCommand({ dirs: needDirs('record', positionals), check: values.check === true, file: 'decisions.record.json', cwd: io.cwd })
      io.stdout(output)
      return ok ? 0 : 1
    },
  },
}

const USAGE = `Usage: vitest-rubric <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(10)}${command.summary}`)
  .join('\n')}

Options:
  -h, --help      show this help, or a command's help (vitest-rubric <command> --help)
  -v, --version   show the version

Exit codes: 0 on success, 1 when a fixture or a case is refused (see each command), 2 on a usage error.`

/** Runs the command line and returns the exit code; never throws for a user's mistake. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv
  const command = first === undefined || first.startsWith('-') ? undefined : COMMANDS[first]
  try {
    if (command === undefined) {
      const { values } = parseArgs({
        args: [...argv],
        allowPositionals: true,
        options: { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } },
      })
      if (values.version === true) {
        io.stdout(readVersion())
        return 0
      }
      if (values.help === true || first === 'help') {
        const named = first === 'help' && rest[0] !== undefined ? COMMANDS[rest[0]] : undefined
        io.stdout(named?.help ?? USAGE)
        return 0
      }
      throw usage(undefined, first === undefined || first.startsWith('-') ? 'no command given.' : `unknown command "${first}".`)
    }
    const parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { ...command.options, help: { type: 'boolean', short: 'h', default: false } },
    })
    if (parsed.values.help === true) {
      io.stdout(command.help)
      return 0
    }
    return await command.run(parsed, io)
  } catch (error) {
    const help = command?.help ?? USAGE
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\n\n${help}`)
      return 2
    }
    if (error instanceof RubricError) {
      io.stderr(error.message)
      return 1
    }
    if (isParseArgsError(error)) {
      io.stderr(`${error.message}\n\n${help}`)
      return 2
    }
    throw error
  }
}

function needDirs(command: string, positionals: readonly string[]): readonly string[] {
  if (positionals.length === 0) throw usage(command, `${command} needs at least one fixture directory.`)
  return positionals
}

function usage(command: string | undefined, summary: string): UsageError {
  return new UsageError({
    code: 'USAGE',
    file: command === undefined ? 'vitest-rubric' : `vitest-rubric ${command}`,
    summary,
    hint: 'see the usage below.',
  })
}

function isParseArgsError(error: unknown): error is Error {
  return error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')
}

function readVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  return manifest.version
}
