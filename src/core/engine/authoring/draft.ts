import { preview, RevisionError, type RubricErrorCode } from '../../common/errors.js'
import { formatLocation, type PathSegment, valueAt } from '../../common/json-path.js'
import { malformedStringPath, prototypeKeyPath } from '../../json/literals.js'
import { safeParseReporting, schemaProblem } from '../../json/schema-error.js'
import type { z } from 'zod'
import type { DraftProblem } from '../../contract/kind.js'

/**
 * Where a draft came from, so a problem is named as the user gave it: an option
 * (`--span verification`), a file and JSON path (`review.json › verification › answer_span`), or
 * a question a prompt asks again.
 */
export interface DraftSource {
  /** The whole draft: `the options`, `review.json`. */
  readonly label: string
  /** A place inside the draft. */
  readonly locate: (path: readonly PathSegment[]) => string
  /**
   * The fix of a draft that does not follow the format, said as whoever gave it can act on it.
   * @default 'give what the command describes (see its --help).'
   */
  readonly hint?: string
}

const COMMAND_HINT = 'give what the command describes (see its --help).'

/** A draft read from a JSON file: its problems are named by the file and a JSON path. */
export function fileSource(display: string): DraftSource {
  return { label: display, locate: (path) => formatLocation(display, path) }
}

/** A draft checked against its schema, then made into an entry by the kind; throws at the first defect, naming every one. */
/** @internal */
export function drafted(
  source: DraftSource,
  at: readonly PathSegment[],
  schema: z.ZodType,
  raw: unknown,
  make: (draft: unknown) => { readonly value?: Readonly<Record<string, unknown>> | undefined; readonly problems: readonly DraftProblem[] },
): Record<string, unknown> {
  const parsed = safeParseReporting(schema, raw)
  if (!parsed.success) {
    const problem = schemaProblem({ code: 'DRAFT_INVALID', file: undefined, basePath: at, hint: source.hint ?? COMMAND_HINT }, parsed.error.issues)
    // The further problems name their place as the source does, not as a bare JSON path.
    const also = parsed.error.issues
      .slice(1, 6)
      .map((issue) => `${source.locate([...at, ...issue.path.map((key) => (typeof key === 'number' ? key : String(key)))])}: ${issue.message}`)
    throw new RevisionError({
      ...problem,
      file: source.locate(problem.path ?? []),
      path: [],
      summary: `${problem.summary.replace(/\.$/, '')}; nothing was written.`,
      also,
    })
  }
  // A text with no UTF-8 encoding would be written, and refused only when it is read: refused here, where it was given.
  const malformed = malformedStringPath(raw)
  if (malformed !== undefined) {
    const last = malformed.at(-1)
    const key = typeof last === 'string' && !last.isWellFormed()
    throw draftError(
      source,
      [...at, ...malformed],
      `the ${key ? 'key' : 'text'} holds a lone surrogate (half of a character beyond U+FFFF), which has no UTF-8 encoding; nothing was written.`,
      'replace the broken character: the text was probably cut in the middle of an emoji or other character beyond U+FFFF.',
      { expected: 'well-formed Unicode text', found: preview(key ? last : valueAt(raw, malformed)) },
    )
  }
  const prototypeKey = prototypeKeyPath(raw)
  if (prototypeKey !== undefined) {
    throw draftError(
      source,
      [...at, ...prototypeKey],
      'the key "__proto__" is no member this takes: JavaScript reads it as an object\'s prototype, so what it holds would be dropped; nothing was written.',
      'remove the key, or give what it stands for its own name (a criterion id of the rubric).',
    )
  }
  const result = make(parsed.data)
  if (result.value === undefined) {
    const [first, ...rest] = result.problems
    throw draftError(source, [...at, ...first!.path], `${first!.summary.replace(/\.$/, '')}; nothing was written.`, first!.hint, {
      expected: first!.expected,
      found: first!.found,
      also: rest.map(
        (problem) => `${source.locate([...at, ...problem.path])}: ${problem.summary}${problem.hint === first!.hint ? '' : ` Fix: ${problem.hint}`}`,
      ),
    })
  }
  return { ...structuredClone(result.value) }
}

/**
 * Refuses a review or label that judges nothing (`{}`), as the review page refuses it: recorded, it
 * would decide nothing and would only stand in the way of the case's real review (`--replace`).
 */
/** @internal */
export function refuseEmptyDraft(source: DraftSource, at: readonly PathSegment[], raw: unknown): void {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || Object.keys(raw).length > 0) return
  throw draftError(
    source,
    at,
    'the draft judges no criterion, so there is nothing to save; nothing was written.',
    `rate at least one criterion (or dimension) before saving: give its judgement in ${source.label}.`,
    { expected: 'at least one judgement', found: '{}', code: 'EMPTY_DRAFT' },
  )
}

/** @internal */
export function draftError(
  source: DraftSource,
  path: readonly PathSegment[],
  summary: string,
  hint: string,
  more: { expected?: string | undefined; found?: string | undefined; also?: readonly string[]; code?: RubricErrorCode } = {},
): RevisionError {
  return new RevisionError({
    code: more.code ?? 'DRAFT_INVALID',
    file: source.locate(path),
    summary,
    expected: more.expected,
    found: more.found,
    hint,
    also: more.also,
  })
}
