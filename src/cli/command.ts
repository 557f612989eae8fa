import type { Readable, Writable } from 'node:stream'
import type { ParseArgsConfig } from 'node:util'
import { UsageError } from '../core/common/errors.js'

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
export function minReviewsOption(command: string, value: string | boolean | string[] | undefined): number {
  if (value === undefined) return 0
  const count = Number(value)
  if (typeof value !== 'string' || !Number.isInteger(count) || count < 0)
    throw usage(command, `--min-reviews takes a whole number, not ${JSON.stringify(value)}.`)
  return count
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
