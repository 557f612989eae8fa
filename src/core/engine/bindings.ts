import type { RubricErrorCode } from '../common/errors.js'
import { formatLocation, type PathSegment, valueAt } from '../common/json-path.js'
import { isObject } from '../common/primitives.js'
import { fingerprint, NULL_FINGERPRINT, sha256Hex } from '../json/canonical-json.js'
import { explainStaleBytes } from '../json/line-endings.js'
import type { CaseAt, KindContext, Problem } from '../contract/kind.js'
import type { BindingRow } from '../contract/bindings.js'

/**
 * The row every kind has: the case records the fingerprint of each of its reviews (or of `null`),
 * so that an edited, added or removed review is refused until someone acknowledges it.
 */
export function acknowledgementRow(path: BindingRow['path']): BindingRow {
  return {
    in: 'case',
    path,
    source: { reviewOf: 'slot' },
    target: 'review',
    code: 'REVIEW_EDIT_UNACKNOWLEDGED',
    meaning: 'the review changed since the case recorded it',
    fix: 'check the edit',
  }
}

/** The code of each file-hash row's refusal, by the entry that records the hash and the file hashed. */
const FILE_HASH_CODES = {
  'case:source': 'CASE_SOURCE_STALE',
  'case:rubric': 'CASE_RUBRIC_STALE',
  'review:source': 'REVIEW_SOURCE_STALE',
  'review:rubric': 'REVIEW_RUBRIC_STALE',
} as const satisfies Record<`${BindingRow['in']}:${'source' | 'rubric'}`, RubricErrorCode>

/**
 * The row of a hash of a fixture file's bytes that a case or review records, as the format names
 * it: `expected.<file>_sha256` in a case, `<file>_sha256` in a review, refused as
 * `CASE_<FILE>_STALE` or `REVIEW_<FILE>_STALE` when the file changed since.
 */
export function fileHashRow(entry: BindingRow['in'], file: 'source' | 'rubric', words: { readonly meaning: string; readonly fix: string }): BindingRow {
  const hash = `${file}_sha256`
  return {
    in: entry,
    path: entry === 'case' ? ['expected', hash] : [hash],
    source: { bytesOf: file },
    target: file,
    code: FILE_HASH_CODES[`${entry}:${file}`],
    ...words,
  }
}

/** Whether a row is evaluated once per slot (review rows, and case rows whose path names the slot). */
export function perSlot(row: BindingRow): boolean {
  return row.in === 'review' || typeof row.path === 'function' || 'reviewOf' in row.source
}

/** A row's path inside its entry, for a slot. */
export function rowPath(row: BindingRow, slot: string): readonly string[] {
  return typeof row.path === 'function' ? row.path(slot) : row.path
}

/** The case and review a row is checked against, as written. */
export interface BindingSubject {
  readonly at: CaseAt
  readonly caseValue: unknown
  readonly casesFile: string
  readonly slot: string
  /** The slot's review, or `null`. */
  readonly review: { readonly value: unknown; readonly path: readonly PathSegment[]; readonly file: string } | null
  /** Canonical texts already written for values of the case (its answer, its outputs): hashed, not written again. */
  readonly texts?: ReadonlyMap<unknown, string>
}

/** One row as it stands for one case (and slot): what is recorded, what the files say now. */
export interface BindingState {
  readonly row: BindingRow
  readonly slot: string
  /** The file holding the hash. */
  readonly file: string
  /** Its JSON path in that file. */
  readonly path: readonly PathSegment[]
  /** The recorded hash; `undefined` when the entry does not hold a string there. */
  readonly recorded: string | undefined
  /** The hash of the files as they are now. */
  readonly current: string
  /** What the current hash is of, for messages: `SHA-256 of fixtures/x/source.txt`. */
  readonly of: string
}

/**
 * The state of a row for one case and slot; `undefined` when the row does not apply (a review
 * row of a slot without a review). A value that has no canonical form throws a
 * `CanonicalJsonError`, which the caller turns into a refusal at the value's path. Where and of
 * what are worked out only when asked: most hashes are current, and nobody asks.
 */
export function bindingState(row: BindingRow, context: KindContext<unknown>, subject: BindingSubject): BindingState | undefined {
  const recorded = recordedHash(row, subject)
  return recorded === NOT_APPLICABLE ? undefined : stateOf(row, context, subject, recorded, currentHash(row, context, subject))
}

/** What a row's entry records, as {@link bindingState} reads it; {@link NOT_APPLICABLE} when the row does not apply. */
export function recordedHash(row: BindingRow, subject: BindingSubject): string | undefined | typeof NOT_APPLICABLE {
  if (row.in === 'review' && subject.review === null) return NOT_APPLICABLE
  const value = row.in === 'review' ? subject.review!.value : subject.caseValue
  const inner = rowPath(row, subject.slot)
  const recorded = inner.length === 1 && isObject(value) ? value[inner[0]!] : valueAt(value, inner)
  return typeof recorded === 'string' ? recorded : undefined
}

/** The marker of a row that does not apply: a review row of a slot without a review. */
export const NOT_APPLICABLE: unique symbol = Symbol('not applicable')

/** The state of a row whose recorded and current hashes are known. */
export function stateOf(row: BindingRow, context: KindContext<unknown>, subject: BindingSubject, recorded: string | undefined, current: string): BindingState {
  const entry = row.in === 'review' ? subject.review! : { value: subject.caseValue, path: subject.at.path, file: subject.casesFile }
  return new State(row, subject, entry, rowPath(row, subject.slot), recorded, current, context)
}

class State implements BindingState {
  constructor(
    readonly row: BindingRow,
    private readonly subject: BindingSubject,
    private readonly entry: { readonly path: readonly PathSegment[]; readonly file: string },
    private readonly inner: readonly string[],
    readonly recorded: string | undefined,
    readonly current: string,
    private readonly context: KindContext<unknown>,
  ) {}

  get slot(): string {
    return this.subject.slot
  }

  get file(): string {
    return this.entry.file
  }

  get path(): readonly PathSegment[] {
    return [...this.entry.path, ...this.inner]
  }

  get of(): string {
    const { source } = this.row
    const { subject } = this
    if ('bytesOf' in source) return `SHA-256 of ${this.context.files[source.bytesOf]?.display ?? source.bytesOf}`
    if ('fingerprintOf' in source) return `fingerprint of ${formatLocation(subject.casesFile, [...subject.at.path, ...source.fingerprintOf(subject.slot)])}`
    if (subject.review === null) return 'fingerprint of null: no review'
    return `fingerprint of ${formatLocation(subject.review.file, subject.review.path)}`
  }
}

/** The hash a row's recorded value should be, from the files as they are now. */
export function currentHash(row: BindingRow, context: KindContext<unknown>, subject: BindingSubject): string {
  const { source } = row
  if ('bytesOf' in source) {
    const file = context.files[source.bytesOf]
    if (file === undefined) throw new Error(`the kind binds a ${source.bytesOf} file it does not have`)
    return file.sha256
  }
  if ('fingerprintOf' in source) {
    const value = valueAt(subject.caseValue, source.fingerprintOf(subject.slot))
    const text = subject.texts?.get(value)
    return text === undefined ? fingerprint(value) : sha256Hex(text)
  }
  return subject.review === null ? NULL_FINGERPRINT : fingerprint(subject.review.value)
}

/** Whether a state's recorded hash is not the current one. */
export function isStale(state: BindingState): boolean {
  return state.recorded !== state.current
}

/** The review as it would stand once every review row of its slot records the current hash. */
export function boundReview(review: unknown, states: readonly BindingState[]): unknown {
  if (!isObject(review)) return review
  const copy: Record<string, unknown> = { ...review }
  for (const state of states) {
    if (state.row.in !== 'review') continue
    const inner = rowPath(state.row, state.slot)
    if (inner.length === 1) copy[inner[0]!] = state.current
  }
  return copy
}

/** What kind of acknowledgement problem a review row of the case records. */
export type Acknowledgement = 'current' | 'new' | 'edited' | 'withdrawn'

/** How the case's recorded revision of a review stands against the review as it is. */
export function acknowledgement(state: BindingState, hasReview: boolean): Acknowledgement {
  if (!isStale(state)) return 'current'
  if (!hasReview) return 'withdrawn'
  return state.recorded === NULL_FINGERPRINT ? 'new' : 'edited'
}

/** `vitest-rubric bind <dir> --case <id>`, quoted for a POSIX shell where needed. */
export function bindCommand(dir: string, id: string): string {
  return `vitest-rubric bind ${shellWord(dir)} --case ${shellWord(id)}`
}

/** A word as a POSIX shell reads it back: bare when safe, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w./@:+-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`
}

/**
 * The one message of a stale recorded hash: where it is, what the mismatch means, what it records
 * and what the files hash to now, and the command that records the new hash once a reviewer has
 * done what the row asks. A hash of a rubric or source that only changed by its line endings or
 * byte-order mark says so (once per file: the fixture's notes explain the conversion).
 */
export function staleProblem(
  state: BindingState,
  context: KindContext<unknown>,
  at: CaseAt,
  hasReview: boolean,
  rebind?: string,
  slotName = 'a review',
): Problem {
  const { row } = state
  const bind = `\`${bindCommand(context.dir, at.id)}\``
  const base = {
    code: row.code,
    file: state.file,
    path: state.path,
    caseId: at.id,
    expected: `${state.current} (${state.of} now)`,
    found: state.recorded === undefined ? 'nothing (no hash is recorded there)' : state.recorded,
  }
  if ('reviewOf' in row.source) {
    const where = state.of.replace(/^fingerprint of /, '')
    switch (acknowledgement(state, hasReview)) {
      case 'new':
        return {
          ...base,
          summary: `${where} is a new review, not bound yet.`,
          hint: `check it, then run ${bind}: it records the hashes of the files as they are now.`,
        }
      case 'withdrawn':
        return {
          ...base,
          summary: `the case records ${slotName}, but ${context.files.annotations?.display ?? 'the review file'} has none for "${at.id}".`,
          hint: `restore the review; if it was withdrawn on purpose, acknowledge that with ${bind}.`,
        }
      default:
        return {
          ...base,
          summary: `${where} changed since the case recorded it: an unacknowledged label edit.`,
          hint: `if the review is meant to change, acknowledge it with ${bind}; otherwise restore the review.`,
        }
    }
  }
  const unreviewed = row.in === 'case' && !hasReview
  const details = {
    ...base,
    summary: `${row.meaning}${unreviewed ? ', and the case has no review yet' : ''}.`,
    hint: unreviewed ? `nothing was judged, so run ${bind} to record the files as they are now.` : `${row.fix}, then ${rebind ?? `run ${bind}`}.`,
  }
  if (!('bytesOf' in row.source) || state.recorded === undefined) return details
  const file = context.files[row.source.bytesOf]
  return explainStaleBytes(details, file?.display ?? row.source.bytesOf, state.recorded, context.conversions[row.source.bytesOf], 'brief')
}
