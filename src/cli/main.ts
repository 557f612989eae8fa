import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { RubricError, UsageError } from '../core/errors.js'
import { evaluateCommand } from './evaluate.js'
import { recordCommand } from './record.js'

const USAGE = `Usage: vitest-rubric <command> [options]

Commands:
  evaluate <dir...>   decide every case of each fixture directory and print the decisions and coverage
  record <dir...>     write each fixture's decision record (decisions.record.json)

Options:
  --json              evaluate: print JSON (an array when several directories are given)
  --check             record: compare the current decisions with the record instead of writing it
  -h, --help          show this help
  -v, --version       show the version

Exit codes: 0 when every fixture loaded (whatever its decisions), 1 when a fixture is refused or
a record check finds differences, 2 on a usage error.`

export interface CliIo {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  readonly cwd: string
}

/** Runs the command line and returns the exit code; never throws for a user's mistake. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        check: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false },
      },
    })
    if (values.help) {
      io.stdout(USAGE)
      return 0
    }
    if (values.version) {
      io.stdout(readVersion())
      return 0
    }
    const [command, ...rest] = positionals
    if (command !== 'evaluate' && command !== 'record') {
      throw usage(command === undefined ? 'no command given.' : `unknown command "${command}".`)
    }
    if (rest.length === 0) throw usage(`${command} needs at least one fixture directory.`)
    if (command === 'record') {
      const { output, ok } = await recordCommand({ dirs: rest, check: values.check, file: 'decisions.record.json', cwd: io.cwd })
      io.stdout(output)
      return ok ? 0 : 1
    }
    io.stdout(await evaluateCommand({ dirs: rest, json: values.json, cwd: io.cwd }))
    return 0
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\n\n${USAGE}`)
      return 2
    }
    if (error instanceof RubricError) {
      io.stderr(error.message)
      return 1
    }
    if (isParseArgsError(error)) {
      io.stderr(`${error.message}\n\n${USAGE}`)
      return 2
    }
    throw error
  }
}

function usage(summary: string): UsageError {
  return new UsageError({ code: 'USAGE', file: 'vitest-rubric', summary, hint: 'see the usage below.' })
}

function isParseArgsError(error: unknown): error is Error {
  return error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')
}

function readVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  return manifest.version
}
