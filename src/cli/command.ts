import type { Readable, Writable } from 'node:stream'
import type { ParseArgsConfig } from 'node:util'
import { readGivenFile } from '../core/common/given-file.js'
import { RubricError, UsageError } from '../core/common/errors.js'
import { errnoCode } from '../core/common/primitives.js'
import type { RawFile } from '../core/json/read.js'
import { checkReviewer } from '../core/engine/authoring/authors.js'

/** Where a command writes and which directory it works in. */
export interface CliIo {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  readonly cwd: string
  /** The terminal a command may prompt on: present only when both input and output are a terminal. */
  readonly terminal?: { readonly input: Readable; readonly output: Writable } | undefined
}

/** The options a command takes, as `node:util` parses them. */
export type CommandOptions = NonNullable<ParseArgsConfig['options']>

/** Options that each take one string value (`--judge <name>`), by name. */
export function stringOptions(...names: readonly string[]): CommandOptions {
  return Object.fromEntries(names.map((name) => [name, { type: 'string' }]))
}

/** A command's arguments once parsed. */
export interface ParsedArgs {
  readonly values: Record<string, string | boolean | string[] | undefined>
  readonly positionals: string[]
}

/** One command of `vitest-rubric`: its line in the command list, its help, its options and what it does. */
export interface Command {
  readonly name: string
  /** One line for the command list. */
  readonly summary: string
  /** `vitest-rubric <command> --help`. */
  readonly help: string
  readonly options: CommandOptions
  /** Returns the exit code; a user's mistake is a `UsageError` (exit 2), a refusal a `RubricError` (exit 1). */
  readonly run: (args: ParsedArgs, io: CliIo) => Promise<number>
}

/** A wrong call of a command: exit 2, with its usage. */
export function usage(command: string | undefined, summary: string): UsageError {
  return new UsageError({ code: 'USAGE', file: command === undefined ? 'vitest-rubric' : `vitest-rubric ${command}`, summary, hint: 'see the usage below.' })
}

/** One argument as `parseArgs` reads it with `tokens: true`: an option's token names the option and holds its value. */
export interface ArgToken {
  readonly kind: string
  readonly name?: string
  /** The option as typed: `--json`, `-h`. */
  readonly rawName?: string
  readonly value?: string | undefined
  /** Whether the value was given with `=` (`--size=-3`), rather than as the next argument. */
  readonly inlineValue?: boolean | undefined
}

/**
 * Refuses an option given more than once that takes one value (`--case a --case b`): `parseArgs`
 * keeps the last, so which one was meant would be a guess. Options declared `multiple` repeat by
 * design; a flag given twice says the same thing twice.
 */
export function refuseRepeatedOptions(command: string, options: CommandOptions, tokens: readonly ArgToken[]): void {
  const given = new Map<string, string[]>()
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue
    const option = Object.hasOwn(options, token.name) ? options[token.name] : undefined
    if (option?.type !== 'string' || option.multiple === true) continue
    given.set(token.name, [...(given.get(token.name) ?? []), token.value ?? ''])
  }
  for (const [name, values] of given) {
    if (values.length < 2) continue
    const times = values.length === 2 ? 'twice' : `${values.length} times`
    throw usage(command, `--${name} is given ${times} (${values.map((value) => JSON.stringify(value)).join(', ')}); it takes one value: give it once.`)
  }
}

/**
 * Refuses an option given an empty value (`--out ''`, `--seed "$UNSET"`): no option takes one, and
 * reading it as a path, a name or a number would be a guess (`--out ''` was the current folder).
 */
export function refuseEmptyOptions(command: string, tokens: readonly ArgToken[]): void {
  const empty = tokens.find((token) => token.kind === 'option' && token.value === '')
  if (empty?.name !== undefined) throw usage(command, `--${empty.name} is given an empty value; give it a value, or leave the option out.`)
}

/** The fixture directories a command was given; at least one. */
export function needDirs(command: string, positionals: readonly string[]): readonly string[] {
  if (positionals.length === 0) throw usage(command, `${command} needs at least one fixture directory.`)
  return positionals
}

/** The one fixture directory a command was given. */
export function oneDir(command: string, positionals: readonly string[]): string {
  if (positionals.length !== 1) throw usage(command, `${command} takes exactly one fixture directory.`)
  return positionals[0]!
}

/** The values of a repeatable `--option <key>=<value>`, by key; a value without `=`, or a key given twice, is a usage error. */
export function keyedValues(command: string, option: string, values: readonly string[] | undefined): Map<string, string> {
  const keyed = new Map<string, string>()
  for (const value of values ?? []) {
    const at = value.indexOf('=')
    if (at <= 0) throw usage(command, `--${option} takes <criterion>=<value>, not ${JSON.stringify(value)}.`)
    const key = value.slice(0, at)
    if (keyed.has(key)) throw usage(command, `--${option} ${key}=… is given twice.`)
    keyed.set(key, value.slice(at + 1))
  }
  return keyed
}

/** `--min-reviews <n>`: the independent reviews a case needs; 0 when not given. */
/** The most independent reviews a case may need: as many as `serve --team` may ask of a case. */
const MAX_MIN_REVIEWS = 100

export function minReviewsOption(command: string, value: string | boolean | string[] | undefined): number {
  if (value === undefined) return 0
  // Decimal digits only: Number() reads '' as 0, '1e20' as a count no fixture has and '0x10' as 16.
  const count = typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : undefined
  if (count === undefined || count > MAX_MIN_REVIEWS)
    throw usage(command, `--min-reviews takes a whole number from 0 to ${MAX_MIN_REVIEWS}, not ${JSON.stringify(value)}.`)
  return count
}

/**
 * A whole-number option, written in decimal digits, from `least` to `most`; anything else (`1e20`,
 * `0x10`, `2.5`, an empty value) is a usage error rather than a number a command chokes on later.
 */
export function wholeNumberOption(command: string, name: string, text: string, least: number, most: number, what: string, mostSaid = ''): number {
  const count = /^[0-9]{1,16}$/.test(text) ? Number(text) : Number.NaN
  if (!(count >= least && count <= most)) throw usage(command, `--${name} takes ${what} from ${least} to ${most}${mostSaid}, not ${JSON.stringify(text)}.`)
  return count
}

/** `--judge <name>` when given: a judge's name, checked as the commands that write its file check it (no path, no `..`). */
export function optionalJudge(given: string | undefined): string | undefined {
  return given === undefined ? undefined : checkReviewer(given, '--judge')
}

/** The value of a string option, as parsed: `undefined` when it was not given (its type is the option table's, `string`). */
export function stringOption(values: ParsedArgs['values'], name: string): string | undefined {
  const value = values[name]
  return typeof value === 'string' ? value : undefined
}

/** The value of a string option the command cannot run without; a usage error saying `need` when it was not given. */
export function requiredOption(command: string, values: ParsedArgs['values'], name: string, need: string): string {
  const value = stringOption(values, name)
  if (value === undefined) throw usage(command, need)
  return value
}

/** The values of a repeatable string option, as parsed: `undefined` when it was not given. */
export function stringsOption(values: ParsedArgs['values'], name: string): string[] | undefined {
  const value = values[name]
  return Array.isArray(value) ? value : undefined
}

/**
 * Reads a file named on the command line (`--from <file>`), taken from the working directory. A
 * path that leads to no file is a usage error naming the option and the path, never a file the
 * fixture lacks; a file that cannot be read (permissions) is refused as `FILE_UNREADABLE`.
 */
export async function readOptionFile(cwd: string, option: string, path: string): Promise<RawFile> {
  const { display, bytes } = await readGivenFile(cwd, path, (shown, cause) => {
    const code = errnoCode(cause)
    const where = { file: shown, hint: `check the path given to --${option}: a relative path is taken from the folder the command runs in.` }
    if (code === 'ENOENT' || code === 'ENOTDIR') return new UsageError({ code: 'USAGE', ...where, summary: `the file given to --${option} does not exist.` })
    if (code === 'EISDIR') return new UsageError({ code: 'USAGE', ...where, summary: `the path given to --${option} is a directory, not a file.` })
    return new RubricError({
      code: 'FILE_UNREADABLE',
      file: shown,
      summary: `the file given to --${option} cannot be read (${code ?? String(cause)}).`,
      hint: 'check the file permissions and that the path is a regular file.',
    })
  })
  return { display, bytes }
}
