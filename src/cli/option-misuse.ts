import { UsageError } from '../core/common/errors.js'
import { closestName } from '../core/common/suggest.js'
import type { ArgToken, CommandOptions } from './command.js'

/**
 * A value that reads as an option (`--json`, `-h`): given where a value was due, the value was most
 * likely left out. A negative number (`-3`), `-` or `- item` is no option: it is the value.
 */
const OPTION_LIKE = /^-[A-Za-z-]/

/**
 * Refuses the command line that `node:util`'s `parseArgs` refuses in strict mode, in this package's
 * words: an unknown option (with the one it most likely meant), an option that takes a value given
 * none, or given an option in its place, and a flag given a value. The command line is parsed loosely
 * so that these reach this check: a negative number after an option is that option's value
 * (`--size -3` reads as `--size=-3`, for the command to judge), where strict parsing calls it
 * ambiguous. `help` is the command's usage, for the name of each option's value.
 */
export function refuseMisusedOptions(command: string | undefined, options: CommandOptions, help: string, tokens: readonly ArgToken[]): void {
  const where = command === undefined ? 'vitest-rubric' : `vitest-rubric ${command}`
  const fail = (summary: string, expected: string, hint: string) => new UsageError({ code: 'USAGE', file: where, summary, expected, hint })
  const known = Object.keys(options)
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue
    const raw = token.rawName ?? `--${token.name}`
    const option = Object.hasOwn(options, token.name) ? options[token.name] : undefined
    if (option === undefined) {
      const meant = raw.startsWith('--') ? closestName(token.name, known) : undefined
      throw fail(
        `unknown option ${raw}${meant === undefined ? '' : ` (did you mean --${meant}?)`}.`,
        `one of ${known.map((name) => `--${name}`).join(', ')}`,
        meant !== undefined
          ? `write --${meant}.`
          : command === undefined
            ? `leave ${raw} out, or name a command first: its options follow it (vitest-rubric <command> --help lists them).`
            : `leave ${raw} out, or give an option the usage below lists; an argument that starts with "-" and is no option goes after "--" (${where} -- ${raw}).`,
      )
    }
    const value = valueName(token.name, help)
    if (option.type === 'boolean') {
      if (token.value !== undefined)
        throw fail(
          `--${token.name} takes no value, not ${JSON.stringify(token.value)}.`,
          `--${token.name} alone`,
          `write --${token.name}, without "=${token.value}".`,
        )
      continue
    }
    if (token.value === undefined)
      throw fail(`--${token.name} needs a value.`, `--${token.name} ${value}`, `give --${token.name} its value: --${token.name} ${value}.`)
    if (token.inlineValue !== true && OPTION_LIKE.test(token.value))
      throw fail(
        `--${token.name} needs a value, and ${token.value} after it is an option, not its value.`,
        `--${token.name} ${value}`,
        `give --${token.name} its value before the next option; a value that starts with "-" is written --${token.name}=${token.value}.`,
      )
  }
}

/** What an option's value is called in the usage (`<name>` in `--judge <name>`), or `<value>`. */
function valueName(option: string, help: string): string {
  const escaped = option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`--${escaped}[ =](<[^>]+>)`).exec(help)?.[1] ?? '<value>'
}
