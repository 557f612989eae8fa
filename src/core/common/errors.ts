import { formatLocation, type PathSegment } from './json-path.js'

/**
 * Stable identifiers of every error a user can meet, grouped as docs/errors.md groups them; each is
 * documented there once, with its fix. A new code needs its entry there (test/core/common/error-codes.test.ts)
 * and its HTTP status (src/web/status.ts).
 */
export const RUBRIC_ERROR_CODES = [
  // fixture-level: the whole directory is refused
  'FIXTURE_NOT_FOUND',
  'FIXTURE_KIND_UNKNOWN',
  'FIXTURE_KIND_AMBIGUOUS',
  'FILE_UNREADABLE',
  'FILE_OUTSIDE_PROJECT',
  'FILE_NOT_UTF8',
  'FILE_TOO_LARGE',
  'JSON_MALFORMED',
  'JSON_DUPLICATE_KEY',
  'JSON_TOO_DEEP',
  'FILE_SCHEMA',
  'RUBRIC_INVALID',
  'RUBRIC_QUOTE_NOT_IN_SOURCE',
  'DUPLICATE_CRITERION',
  'DUPLICATE_CASE',
  'UNKNOWN_REVIEW',
  'DUPLICATE_REVIEW',
  'RECORDS_MALFORMED',
  'FIXTURE_LAYOUT_AMBIGUOUS',
  // case-level: one case is refused, the others are still decided
  'CASE_INVALID',
  'QUESTION_MISMATCH',
  'CASE_SOURCE_STALE',
  'CASE_RUBRIC_STALE',
  'REVIEW_EDIT_UNACKNOWLEDGED',
  'REVIEW_INVALID',
  'REVIEW_ANSWER_STALE',
  'REVIEW_SOURCE_STALE',
  'REVIEW_RUBRIC_STALE',
  'UNKNOWN_CRITERION',
  'QUOTE_MISMATCH',
  'SPAN_NOT_IN_ANSWER',
  // scored fixtures (evaluation_rubric.json): fixture-level
  'UNKNOWN_DIMENSION',
  'RUBRIC_RULE_UNREADABLE',
  // scored fixtures: case-level
  'DUPLICATE_PLANTED_ISSUE',
  'REVIEW_SPEC_STALE',
  'REVIEW_OUTPUT_STALE',
  'DUPLICATE_CLAIM',
  'UNKNOWN_PLANTED_ISSUE',
  'SPAN_NOT_IN_OUTPUT',
  'ANNOTATION_INCONSISTENT',
  // values that cannot be fingerprinted
  'NOT_CANONICAL_JSON',
  // revising a fixture (init, bind): nothing is written when one of these is raised
  'CASE_NOT_FOUND',
  'BIND_STILL_REFUSED',
  'INIT_TARGET_NOT_EMPTY',
  'INIT_SOURCE_INVALID',
  'FILE_CHANGED_MEANWHILE',
  'CASE_CHANGED_MEANWHILE',
  'FIXTURE_LOCKED',
  'LOCK_LOST',
  'RECORDS_FORKED',
  'CONVERT_NOT_LOSSLESS',
  'EDIT_NOT_LOCATED',
  'WRITE_FAILED',
  // the review server's record of a save (serve --commit, or its audit log): the save is rolled back
  'COMMIT_FAILED',
  'COMMIT_UNCLEAN',
  'AUDIT_FAILED',
  // misuse of the CLI, the plugin or the matchers
  'USAGE',
  'DRAFT_INVALID',
  'REVIEW_EXISTS',
  'AUTHOR_NAME_TAKEN',
  // several reviewers: a review written straight to annotations.json for a case that independent
  // reviews and an adjudication decide; an adoption whose reviews changed since
  'ADJUDICATION_REQUIRED',
  'ADOPTION_STALE',
  // a statistic asked of input it is not defined for (a wrong type, a rating outside the categories)
  'STATISTICS_INPUT',
  // the review sample (vitest-rubric sample, estimate): missing, malformed, or drawn from other cases
  'SAMPLE_MISSING',
  'SAMPLE_INVALID',
  'SAMPLE_POPULATION_CHANGED',
  // the judge's confidences a design draws by: none recorded, or one a judge module gave outside [0, 1]
  'SAMPLE_NO_CONFIDENCE',
  'JUDGE_CONFIDENCE_INVALID',
  // comparing two fixtures (vitest-rubric compare): their rubric or source differ, or their kind cannot be compared yet
  'FIXTURES_NOT_COMPARABLE',
  // the plugin's decision record (expect: 'record') is missing
  'RECORD_MISSING',
  // the review server (vitest-rubric serve): a request refused before any fixture is touched
  'BAD_REQUEST',
  'BAD_HOST',
  'BAD_CODE',
  'BAD_TOKEN',
  'BAD_ORIGIN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'BODY_TOO_LARGE',
  'EMPTY_DRAFT',
  'RATE_LIMITED',
  // the review server with --team: a person's link cannot do this, or names someone else
  'ROLE_NOT_PERMITTED',
  'IDENTITY_MISMATCH',
  // the review server failed on its own account (its terminal says why)
  'INTERNAL',
  // the review server cannot start
  'PORT_IN_USE',
  'HOST_NOT_LOCAL',
  'PORT_NOT_PERMITTED',
  'LISTEN_FAILED',
  // the team file of serve --team, the file of its token hashes, and the file of its reservations
  'TEAM_INVALID',
  'TEAM_TOKENS_INVALID',
  'TEAM_RESERVATIONS_INVALID',
  // the plugin's planning process (a large fixture planned apart from Vitest)
  'PLANNING_FAILED',
  'PLANNING_TIMED_OUT',
] as const

/** Stable identifiers of everything that can refuse a fixture, a case, a command or a request. */
export type RubricErrorCode = (typeof RUBRIC_ERROR_CODES)[number]

/** What a `RubricError` is made of: its code, where it was found, what was wrong and what to do. */
export interface RubricErrorDetails {
  readonly code: RubricErrorCode
  /** The file as shown to the user (relative to the working directory), if the value came from one. */
  readonly file?: string | undefined
  /** JSON path inside `file`. */
  readonly path?: readonly PathSegment[] | undefined
  /** The case the error concerns, if any. */
  readonly caseId?: string | undefined
  /** What is wrong, as one sentence. */
  readonly summary: string
  readonly expected?: string | undefined
  readonly found?: string | undefined
  /** What to do about it. */
  readonly hint: string
  /** Further problems found in the same value, one line each. */
  readonly also?: readonly string[] | undefined
}

/** The JSON form of an error, as it travels to test workers, reporters and `--json` output. */
export interface SerializedRubricError {
  readonly name: string
  readonly code: RubricErrorCode
  readonly file: string | null
  readonly path: string
  readonly caseId: string | null
  readonly message: string
}

/**
 * Base class of every error this package raises on purpose. The message names the file, the
 * JSON path, the case, what was expected, what was found and what to do.
 */
export class RubricError extends Error {
  readonly code: RubricErrorCode
  readonly file: string | undefined
  readonly path: readonly PathSegment[]
  readonly caseId: string | undefined
  readonly summary: string
  readonly expected: string | undefined
  readonly found: string | undefined
  readonly hint: string

  /**
   * `message` replaces the usual layout (where, expected, found, fix) only for a one-line error
   * whose text already says what is wrong and what to do: a refused request, a statistic's input.
   * Its `hint` is still the documented fix.
   */
  constructor(details: RubricErrorDetails, message: string = formatErrorMessage(details)) {
    super(message)
    this.name = new.target.name
    this.code = details.code
    this.file = details.file
    this.path = details.path ?? []
    this.caseId = details.caseId
    this.summary = details.summary
    this.expected = details.expected
    this.found = details.found
    this.hint = details.hint
  }

  /** Where the problem is: `annotations.json › reviews[2] › answer_sha256`. */
  get location(): string {
    return formatLocation(this.file, this.path)
  }

  toJSON(): SerializedRubricError {
    return {
      name: this.name,
      code: this.code,
      file: this.file ?? null,
      path: formatLocation(undefined, this.path),
      caseId: this.caseId ?? null,
      message: this.message,
    }
  }
}

/** A defect that refuses a whole fixture directory: nothing in it is decided. */
export class FixtureError extends RubricError {}

/** A binding or provenance failure that refuses one case: never a decision. */
export class BindingError extends RubricError {}

/** A value that has no canonical JSON form (and so no fingerprint). */
export class CanonicalJsonError extends RubricError {}

/**
 * How Node shows a package error where the package does not print it itself (Vitest's startup error
 * for a bad `rubric()` option, an uncaught throw): its message, which says where, what was expected
 * and what to do, without the stack of the package's own frames or a dump of its fields. Set on the
 * prototype under `util.inspect.custom`'s registered name (this module also runs where `node:util`
 * is not), so that it is no member of the public class.
 */
Object.defineProperty(RubricError.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(this: RubricError): string {
    return `${this.name}: ${this.message}`
  },
})

/** A fixture revision (init, bind) that cannot be made as asked: nothing was written. */
export class RevisionError extends RubricError {}

/** A wrong argument to the CLI, the plugin options or a matcher. */
export class UsageError extends RubricError {}

function formatErrorMessage(details: RubricErrorDetails): string {
  const where = formatLocation(details.file, details.path ?? [])
  const subject = details.caseId === undefined ? where : `${where} (case "${details.caseId}")`
  const lines = [`${subject}: ${details.summary}`]
  if (details.expected !== undefined) lines.push(`  expected: ${details.expected}`)
  if (details.found !== undefined) lines.push(`  found:    ${details.found}`)
  lines.push(`  fix:      ${details.hint}`)
  for (const more of details.also ?? []) lines.push(`  also:     ${more}`)
  return lines.join('\n')
}

/** Shortens a value for an error message without hiding that it was shortened. */
export function preview(value: unknown, max = 120): string {
  // JSON.stringify writes a number beyond the doubles' range (`1e400` reads as Infinity) as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return nonFiniteText(value)
  let text: string
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value))
  } catch {
    text = String(value)
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** A number JSON cannot hold, as a message shows it: what it reads as, and why. */
function nonFiniteText(value: number): string {
  if (Number.isNaN(value)) return 'NaN (not a number)'
  return value > 0 ? 'Infinity (out of range: too large to be a finite number)' : '-Infinity (out of range: too large a negative number to be finite)'
}

/** The details of an id used twice in one list: where the second use is, and where the first. */
export function duplicateIdDetails(details: {
  readonly code: RubricErrorCode
  readonly file: string | undefined
  readonly path: readonly PathSegment[]
  readonly what: string
  readonly earlier: string
  readonly id: string
  readonly hint: string
  readonly caseId?: string
}): RubricErrorDetails {
  return {
    code: details.code,
    file: details.file,
    path: details.path,
    caseId: details.caseId,
    summary: `the ${details.what} id is already used by ${details.earlier}.`,
    found: preview(details.id),
    hint: details.hint,
  }
}
