import { plural } from '../common/primitives.js'
import type { z } from 'zod'
import { FixtureError, preview, type RubricError, type RubricErrorCode, type RubricErrorDetails } from '../common/errors.js'
import { formatLocation, type PathSegment } from '../common/json-path.js'

type ErrorClass<E extends RubricError> = new (details: RubricErrorDetails) => E

export interface SchemaErrorContext<E extends RubricError> {
  readonly ErrorClass: ErrorClass<E>
  readonly code: RubricErrorCode
  readonly file: string | undefined
  /** Path of the validated value inside the file. */
  readonly basePath: readonly PathSegment[]
  readonly caseId?: string | undefined
  readonly hint: string
}

/**
 * `schema.safeParse(value)`, keeping the input in the issues of a failure, since messages quote
 * what was found. Most values pass, so the input is asked for only once a value has failed: the
 * second parse costs nothing on the common path.
 */
export function safeParseReporting<T extends z.ZodType>(schema: T, value: unknown): ReturnType<T['safeParse']> {
  const parsed = schema.safeParse(value)
  // Cast: schema.safeParse's result is ReturnType<T['safeParse']>; TypeScript cannot tie the two for a generic T.
  return (parsed.success ? parsed : schema.safeParse(value, { reportInput: true })) as ReturnType<T['safeParse']>
}

/**
 * A whole document of a fixture file checked against its schema: its value as the schema returns
 * it, or a {@link FixtureError} with `code` that points at the first issue, since a file in the
 * wrong format refuses the fixture.
 */
export function checkFileDocument<T extends z.ZodType>(
  schema: T,
  document: unknown,
  where: { readonly file: string; readonly code: RubricErrorCode; readonly hint: string },
): z.output<T> {
  const parsed = schema.safeParse(document, { reportInput: true })
  if (!parsed.success) throw schemaError({ ErrorClass: FixtureError, basePath: [], ...where }, parsed.error.issues)
  return parsed.data
}

/** What a schema failure is reported as, before it becomes an error of some class. */
export type SchemaProblemContext = Omit<SchemaErrorContext<RubricError>, 'ErrorClass'>

/**
 * Turns zod's issues into one problem that points at the first issue and names the others:
 * a failed validation is data with paths, not a crash.
 */
export function schemaProblem(context: SchemaProblemContext, issues: readonly z.core.$ZodIssue[]): RubricErrorDetails {
  const [first, ...rest] = issues
  const path = [...context.basePath, ...(first?.path ?? []).map(toSegment)]
  const also = rest
    .slice(0, MAX_LISTED)
    .map(
      (issue) =>
        `${location(context.file, [...context.basePath, ...issue.path.map(toSegment)])}: ${describeProblem(issue)} Expected ${describeExpected(issue)}.`,
    )
  if (rest.length > MAX_LISTED) also.push(`… and ${rest.length - MAX_LISTED} more.`)
  return {
    code: context.code,
    file: context.file,
    path,
    caseId: context.caseId,
    summary: first === undefined ? 'the value is invalid.' : describeProblem(first),
    expected: first === undefined ? undefined : describeExpected(first),
    found: first === undefined ? undefined : describeFound(first),
    hint: context.hint,
    also,
  }
}

/** {@link schemaProblem} as an error of the context's class. */
export function schemaError<E extends RubricError>(context: SchemaErrorContext<E>, issues: readonly z.core.$ZodIssue[]): E {
  const { ErrorClass, ...rest } = context
  return new ErrorClass(schemaProblem(rest, issues))
}

const MAX_LISTED = 5

function location(file: string | undefined, path: readonly PathSegment[]): string {
  return path.length === 0 && file === undefined ? '(top level)' : formatLocation(file, path)
}

function toSegment(key: PropertyKey): PathSegment {
  return typeof key === 'number' ? key : String(key)
}

function describeProblem(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unexpected key${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}.`
    case 'invalid_type':
      return issue.input === undefined ? 'a required value is missing.' : 'the value has the wrong type.'
    case 'invalid_value':
      return issue.input === undefined ? 'a required value is missing.' : 'the value is not one of those allowed.'
    case 'invalid_format':
      return 'the value is not in the required format.'
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) === 1 ? 'the text is empty.' : 'the text is too short.'
      return issue.origin === 'array' ? 'the list is too short.' : 'the value is too small.'
    case 'too_big':
      // A schema's own wording of its bound (`a number from -1 to 1`) stays as it was given.
      if (!isZodWording(issue)) return 'the value breaks a rule of the format.'
      return issue.origin === 'string' ? 'the text is too long.' : issue.origin === 'array' ? 'the list is too long.' : 'the value is too large.'
    default:
      return 'the value breaks a rule of the format.'
  }
}

/** Whether an issue's message is zod's own (`Too big: expected int to be <=9007199254740991`), not one a schema gave. */
function isZodWording(issue: z.core.$ZodIssue): boolean {
  return issue.message.startsWith('Too big:')
}

const typeNames: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  record: 'an object',
  null: 'null',
}

function describeExpected(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return typeNames[issue.expected] ?? issue.expected
    case 'invalid_value':
      return issue.values.length === 1 ? preview(issue.values[0]) : `one of ${issue.values.map((value) => preview(value)).join(', ')}`
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'a non-empty string'
      if (issue.origin === 'array') return `at least ${plural(Number(issue.minimum), 'item')}`
      return `at least ${String(issue.minimum)}`
    case 'too_big':
      if (!isZodWording(issue)) return issue.message
      if (issue.origin === 'string') return `at most ${plural(Number(issue.maximum), 'character')}`
      if (issue.origin === 'array') return `at most ${plural(Number(issue.maximum), 'item')}`
      // An integer's bound is the largest a double holds exactly: named, not written out in 16 digits.
      if (Number(issue.maximum) === Number.MAX_SAFE_INTEGER) return 'a whole number a JSON number holds exactly (at most 2^53 − 1)'
      return `at most ${String(issue.maximum)}`
    case 'unrecognized_keys':
      return 'only the keys the format defines (docs/format.md lists them)'
    default:
      return issue.message
  }
}

function describeFound(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => JSON.stringify(key)).join(', ')
  if (issue.input === undefined) return 'nothing (the key is missing)'
  if (issue.code === 'invalid_type') return describeValue(issue.input)
  return preview(issue.input)
}

/** A value as a message shows what was found: `the integer 5`, `an array [1,2]`, `null`. */
export function describeValue(value: unknown): string {
  return value === null ? 'null' : `${kindOf(value)} ${preview(value, 60)}`
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'object':
      return 'an object'
    case 'number':
      return Number.isInteger(value) ? 'the integer' : 'the number'
    case 'string':
      return 'the string'
    case 'boolean':
      return 'the boolean'
    default:
      return typeof value
  }
}
