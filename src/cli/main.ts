import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { RubricError, UsageError } from '../core/common/errors.js'
import { lockNoticeText, setLockNoticeListener } from '../core/json/fixture-lock.js'
import { refuseEmptyOptions, refuseRepeatedOptions, usage, type CliIo, type Command, type CommandOptions } from './command.js'
import { packageFile } from '../package-files.js'
import { refuseMisusedOptions } from './option-misuse.js'
import { add } from './commands/add.js'
import { adjudicate } from './commands/adjudicate.js'
import { agreement } from './commands/agreement.js'
import { calibrate } from './commands/calibrate.js'
import { compare } from './commands/compare.js'
import { estimate } from './commands/estimate.js'
import { sample } from './commands/sample.js'
import { next } from './commands/next.js'
import { report } from './commands/report.js'
import { serve } from './commands/serve.js'
import { bind } from './commands/bind.js'
import { decisions } from './commands/decisions.js'
import { evaluate } from './commands/evaluate.js'
import { init } from './commands/init.js'
import { judge } from './commands/judge.js'
import { origin } from './commands/origin.js'
import { compact } from './commands/compact.js'
import { convert } from './commands/convert.js'
import { resolve } from './commands/resolve.js'
import { review } from './commands/review.js'
import { schema } from './commands/schema.js'
import { show } from './commands/show.js'
import { status } from './commands/status.js'

export type { CliIo } from './command.js'

/** The commands, in the order the help lists them; only these names dispatch. */
export const COMMANDS: ReadonlyMap<string, Command> = new Map(
  [
    evaluate,
    status,
    next,
    init,
    origin,
    add,
    review,
    show,
    adjudicate,
    agreement,
    calibrate,
    sample,
    estimate,
    compare,
    judge,
    serve,
    report,
    bind,
    schema,
    decisions,
    convert,
    resolve,
    compact,
  ].map((command) => [command.name, command]),
)

const USAGE = `Usage: vitest-rubric <command> [options]

Commands:
${[...COMMANDS.values()].map((command) => `  ${command.name.padEnd(12)}${command.summary}`).join('\n')}

Options:
  -h, --help      show this help, or a command's help (vitest-rubric <command> --help)
  -v, --version   show the version

Exit codes: 0 on success, 1 when a fixture or a case is refused (see each command), 2 on a usage error.`

/** Runs the command line and returns the exit code; never throws (an error that is no `RubricError` is an internal error, exit 1). */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv
  const command = first === undefined ? undefined : COMMANDS.get(first)
  try {
    if (command === undefined) {
      const options = { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } } satisfies CommandOptions
      const { values, positionals, tokens } = parseArgs({ args: [...argv], strict: false, allowPositionals: true, tokens: true, options })
      refuseMisusedOptions(undefined, options, USAGE, tokens)
      if (values.version === true) {
        io.stdout(readVersion())
        return 0
      }
      if (first === 'help') {
        const named = positionals[1] === undefined ? undefined : COMMANDS.get(positionals[1])
        if (positionals[1] !== undefined && named === undefined) throw usage(undefined, `unknown command ${JSON.stringify(positionals[1])}.`)
        io.stdout(named?.help ?? USAGE)
        return 0
      }
      if (values.help === true && (first === undefined || first.startsWith('-'))) {
        io.stdout(USAGE)
        return 0
      }
      throw usage(undefined, first === undefined || first.startsWith('-') ? 'no command given.' : `unknown command ${JSON.stringify(first)}.`)
    }
    const options = { ...command.options, help: { type: 'boolean', short: 'h', default: false } } satisfies CommandOptions
    // Parsed loosely and checked here, so that every misuse is told in this package's words (strict parsing throws
    // Node's own) and a negative number after an option is its value (`--size -3`).
    const { values, positionals, tokens } = parseArgs({ args: rest, strict: false, allowPositionals: true, tokens: true, options })
    refuseMisusedOptions(command.name, options, command.help, tokens)
    if (values.help === true) {
      io.stdout(command.help)
      return 0
    }
    refuseRepeatedOptions(command.name, options, tokens)
    refuseEmptyOptions(command.name, tokens)
    const before = setLockNoticeListener((notice) => io.stderr(lockNoticeText(notice)))
    try {
      return await command.run({ values, positionals }, io)
    } finally {
      setLockNoticeListener(before)
    }
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
    io.stderr(internalError(error, process.env['DEBUG']))
    return 1
  }
}

/**
 * What the CLI prints for an error that is no `RubricError`: a bug of this package, not a mistake
 * of the user's. One line, unless `DEBUG` is set, which adds the stack.
 */
export function internalError(error: unknown, debug: string | undefined): string {
  const message = error instanceof Error ? error.message : String(error)
  const line = `internal error: ${message.split('\n')[0]} (please report it, with the command; DEBUG=1 shows the stack)`
  const stack = error instanceof Error ? error.stack : undefined
  return debug !== undefined && debug !== '' && stack !== undefined ? `${line}\n${stack}` : line
}

function readVersion(): string {
  // Cast: the package's own manifest, which has a version.
  const manifest = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }
  return manifest.version
}
