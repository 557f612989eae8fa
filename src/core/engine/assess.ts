import { BindingError, CanonicalJsonError, type SerializedRubricError } from '../common/errors.js'
import { formatLocation, type PathSegment, valueAt } from '../common/json-path.js'
import { malformedStringPath } from '../json/literals.js'
import { safeParseFast } from '../json/fast-accept.js'
import { schemaProblem } from '../json/schema-error.js'
import {
  acknowledgement,
  currentHash,
  NOT_APPLICABLE,
  perSlot,
  recordedHash,
  staleProblem,
  stateOf,
  type BindingState,
  type BindingSubject,
} from './bindings.js'
import type { BindingRow } from '../contract/bindings.js'
import type { Decision } from '../contract/decision.js'
import type { CaseEntry, ReviewEntry } from './entries.js'
import type { CaseAt, KindContext, KindDefinition, Problem, SlotOutcome, SomeKindDefinition } from '../contract/kind.js'

/** Why the several-reviewer rule keeps a case pending: what `status` groups it by. */
export type PanelWait = 'too-few-reviews' | 'disagreement' | 'uncertain' | 'not-adopted' | 'one-review'

/** Where the case and its reviews stand, for messages. */
export interface AssessSite {
  readonly casesFile: string
  readonly annotationsFile: string
}

export interface AssessOptions {
  /** Canonical texts already written for values of the case: hashed, not written again. */
  readonly texts?: ReadonlyMap<unknown, string>
  /** Keep the state of every binding row, current ones too (`status` and `bind` read them); else only the stale ones. */
  readonly allStates?: boolean
  /**
   * Check only the rows a review records: for an independent review, which the case neither
   * records nor acknowledges (the case's own hashes are checked with its adopted review).
   */
  readonly reviewRowsOnly?: boolean
}

/** Everything the checks found about one case: what `evaluate`, `status` and `bind` each read. */
export interface CaseAssessment<D extends Decision> {
  readonly decision: D
  /** The binding rows' states for the case (and each slot): every one when asked for, else the stale ones; none for a hash that could not be computed. */
  readonly states: readonly BindingState[]
  /** Problems of the case's own format and checks. */
  readonly caseProblems: readonly Problem[]
  /** Problems of each slot's review: its format, provenance and bindings. */
  readonly slotProblems: Readonly<Record<string, readonly Problem[]>>
  /** Why the several-reviewer rule keeps the case pending, when it does. */
  readonly panelWait?: PanelWait
}

/**
 * Checks one case and its reviews and applies the kind's decision rule.
 *
 * Every problem is collected, in the order a reader fixes them: the case's format and the kind's
 * checks of it; then, for each review, its format and provenance; then the recorded hashes of the
 * binding table. A review added but not bound yet is one problem (with the command that binds it),
 * not a stale hash per field. A problem of the case refuses it; a problem of a review refuses its
 * slot, and the kind's rule says what a refused slot does to the case.
 */
export function assessEntry<R, C, V, D extends Decision, S>(
  definition: KindDefinition<R, C, V, D, S>,
  context: KindContext<R>,
  entry: CaseEntry,
  reviews: Readonly<Record<string, ReviewEntry>> | undefined,
  site: AssessSite,
  caseText: { readonly problem: Problem } | undefined,
  options: AssessOptions = {},
): CaseAssessment<D> {
  const at: CaseAt = { id: entry.id, path: entry.path }
  const caseProblems: Problem[] = caseText === undefined ? [] : [caseText.problem]
  const parsedCase = safeParseFast(definition.schemas.case, entry.value)
  if (!parsedCase.success) {
    caseProblems.push(
      schemaProblem(
        { code: 'CASE_INVALID', file: site.casesFile, basePath: entry.path, caseId: entry.id, hint: definition.schemas.caseHint },
        parsedCase.error.issues,
      ),
    )
  } else for (const problem of definition.checkCase(context, parsedCase.data, at)) caseProblems.push(problem)

  const slots = definition.reviews.slots
  const slotProblems: Record<string, Problem[]> = {}
  const provenance: Record<string, readonly Problem[]> = {}
  const parsedReviews = new Map<string, V>()
  for (const slot of slots) {
    const review = reviews?.[slot]
    const problems: Problem[] = []
    if (review !== undefined) {
      const parsed = safeParseFast(definition.schemas.review(slot), review.value)
      if (!parsed.success) {
        problems.push(
          schemaProblem(
            { code: 'REVIEW_INVALID', file: site.annotationsFile, basePath: review.path, caseId: entry.id, hint: definition.schemas.reviewHint(slot) },
            parsed.error.issues,
          ),
        )
      } else parsedReviews.set(slot, parsed.data)
      // An independent review is not fingerprinted here (the case does not acknowledge it), so what the fingerprint refuses is checked on its own.
      if (options.reviewRowsOnly === true) {
        const malformed = malformedStringPath(review.value)
        if (malformed !== undefined) problems.push(loneSurrogateProblem(review.value, site.annotationsFile, review.path, malformed, entry.id))
      }
      if (parsedCase.success) {
        const underCheck = { value: review.value, parsed: parsed.success ? parsed.data : undefined, path: review.path, slot, file: site.annotationsFile }
        provenance[slot] = definition.checkReview(context, parsedCase.data, underCheck, at)
      }
    }
    slotProblems[slot] = problems
  }

  const states: BindingState[] = []
  const stale: { state: BindingState; problem: Problem }[] = []
  // Made only when a hash is stale: most cases have none.
  let newSlots: Set<string> | undefined
  const { texts } = options
  const subjects = slots.map((slot): BindingSubject => {
    const review = reviews?.[slot]
    const bound = review === undefined ? null : { value: review.value, path: review.path, file: site.annotationsFile }
    return texts === undefined
      ? { at, caseValue: entry.value, casesFile: site.casesFile, slot, review: bound }
      : { at, caseValue: entry.value, casesFile: site.casesFile, slot, review: bound, texts }
  })
  for (const [row, slotIndex] of rowsOf(definition)) {
    if (options.reviewRowsOnly === true && row.in === 'case') continue
    const subject = subjects[slotIndex]!
    const { slot } = subject
    const review = reviews?.[slot]
    const recorded = recordedHash(row, subject)
    if (recorded === NOT_APPLICABLE) continue
    let current: string
    try {
      current = currentHash(row, context, subject)
    } catch (error) {
      // A value with no canonical form (a lone surrogate) has no hash: the refusal says where.
      if (!(error instanceof CanonicalJsonError)) throw error
      if ('fingerprintOf' in row.source) {
        // The case's own text failed already when it did not come to this; a malformed case is refused for its format.
        if (caseText === undefined && parsedCase.success)
          caseProblems.push(canonicalProblem(error, site.casesFile, [...entry.path, ...row.source.fingerprintOf(slot)], entry.id))
      } else if (review !== undefined) slotProblems[slot]!.push(canonicalProblem(error, site.annotationsFile, review.path, entry.id))
      continue
    }
    // A hash that is missing or not a SHA-256 digest is a format problem, which the schema reports.
    if (recorded === current || recorded === undefined || !SHA256.test(recorded)) {
      if (options.allStates === true) states.push(stateOf(row, context, subject, recorded, current))
      continue
    }
    const state = stateOf(row, context, subject, recorded, current)
    states.push(state)
    const hasReview = 'reviewOf' in row.source ? review !== undefined : hasAnyReview(reviews, slots)
    if ('reviewOf' in row.source && acknowledgement(state, hasReview) === 'new') (newSlots ??= new Set()).add(slot)
    stale.push({ state, problem: staleProblem(state, context, at, hasReview, undefined, definition.reviews.slotName(slot)) })
  }
  // In the order a reader fixes them: the review's format; that what it describes changed (an excerpt that no
  // longer matches follows from that); its excerpts; then the other hashes, which `bind` records.
  // A malformed case has no hashes worth comparing: what is wrong with it is its format.
  const shown =
    !parsedCase.success || stale.length === 0
      ? []
      : stale.filter(({ state }) => {
          // A new review records placeholders: binding it stamps every hash of the case and the review at once.
          return 'reviewOf' in state.row.source || newSlots === undefined || (state.row.in !== 'case' && !newSlots.has(state.slot))
        })
  // One changed file is one problem within a refusal, however many hashes of the case and a review record its old bytes.
  let once = (problems: readonly Problem[]): readonly Problem[] => problems
  if (shown.length === 0) {
    // Nothing stale to order or merge: each slot's problems are its provenance's.
    for (const slot of slots) {
      const found = provenance[slot]
      if (found !== undefined && found.length > 0) slotProblems[slot]!.push(...found)
    }
  } else {
    const fileKey = new Map<Problem, string>()
    for (const { state, problem } of shown) if ('bytesOf' in state.row.source) fileKey.set(problem, `${state.row.source.bytesOf}\u0000${state.recorded}`)
    once = (problems, seen = new Set<string>()) =>
      problems.filter((problem) => {
        const key = fileKey.get(problem)
        if (key === undefined) return true
        if (seen.has(key)) return false
        seen.add(key)
        return true
      })
    const describes = ({ state }: { state: BindingState }) => 'fingerprintOf' in state.row.source
    for (const problem of once(shown.filter(({ state }) => state.row.in === 'case' && !('reviewOf' in state.row.source)).map(({ problem }) => problem)))
      caseProblems.push(problem)
    for (const slot of slots) {
      const mine = shown.filter(({ state }) => state.slot === slot && (state.row.in === 'review' || 'reviewOf' in state.row.source))
      slotProblems[slot]!.push(
        ...once([
          ...mine.filter(describes).map(({ problem }) => problem),
          ...(provenance[slot] ?? []),
          ...mine.filter((each) => !describes(each)).map(({ problem }) => problem),
        ]),
      )
    }
  }

  const outcomes: Record<string, SlotOutcome<V>> = {}
  for (const slot of slots) {
    const problems = slotProblems[slot] ?? []
    // A review that is there and has no problem parsed: a failed parse is a problem of its slot.
    const parsed = parsedReviews.get(slot)
    if (problems.length > 0) outcomes[slot] = { status: 'refused', ...refusal(problems) }
    else outcomes[slot] = reviews?.[slot] === undefined || parsed === undefined ? { status: 'absent' } : { status: 'reviewed', review: parsed }
  }
  const caseOutcome =
    caseProblems.length > 0 || !parsedCase.success
      ? { status: 'refused' as const, ...refusal(once([...caseProblems, ...slots.flatMap((slot) => slotProblems[slot]!)])) }
      : { status: 'checked' as const, value: parsedCase.data }
  const decision = definition.decide(context, { id: entry.id, split: entry.split, case: caseOutcome, slots: outcomes })
  return { decision, states, caseProblems, slotProblems }
}

const SHA256 = /^[0-9a-f]{64}$/

/** Each row of a kind's binding table with the slot (by index) it is checked for, once per kind. */
const rowsByKind = new WeakMap<SomeKindDefinition, readonly (readonly [BindingRow, number])[]>()

function rowsOf(definition: SomeKindDefinition): readonly (readonly [BindingRow, number])[] {
  let rows = rowsByKind.get(definition)
  if (rows === undefined) {
    const slots = definition.reviews.slots
    rows = definition.bindings.flatMap((row) => (perSlot(row) ? slots.map((_, index) => [row, index] as const) : [[row, 0] as const]))
    rowsByKind.set(definition, rows)
  }
  return rows
}

function hasAnyReview(reviews: Readonly<Record<string, ReviewEntry>> | undefined, slots: readonly string[]): boolean {
  return slots.some((slot) => reviews?.[slot] !== undefined)
}

/** Several problems as one refusal: the first in full, each other as a line of its own. */
export function refusal(problems: readonly Problem[]): { reason: string; error: SerializedRubricError } {
  const [first, ...rest] = problems
  if (first === undefined) throw new Error('a refusal needs a problem')
  const also = [...(first.also ?? []), ...rest.map((problem) => problemLine(problem, first.hint))]
  const error = new BindingError({ ...first, also })
  return { reason: error.summary, error: error.toJSON() }
}

/** A problem as one line among others: where, what, and the fix when it is not the first problem's. */
export function problemLine(problem: Problem, sharedHint?: string): string {
  const where = formatLocation(problem.file, problem.path ?? [])
  const fix = problem.hint === sharedHint ? '' : ` Fix: ${problem.hint}`
  return `${where}: ${problem.summary}${fix}`
}

function loneSurrogateProblem(value: unknown, file: string, base: readonly PathSegment[], path: readonly PathSegment[], caseId: string): Problem {
  const last = path.at(-1)
  const key = typeof last === 'string' && !last.isWellFormed()
  return {
    code: 'NOT_CANONICAL_JSON',
    file,
    path: [...base, ...path],
    caseId,
    summary: `the ${key ? 'key' : 'string'} holds a lone surrogate, which has no UTF-8 encoding.`,
    found: JSON.stringify(key ? last : valueAt(value, path)),
    hint: 'replace the broken character: the text was probably cut in the middle of an emoji or other character beyond U+FFFF.',
  }
}

function canonicalProblem(error: CanonicalJsonError, file: string, path: readonly PathSegment[], caseId: string): Problem {
  return { code: error.code, file, path: [...path, ...error.path], caseId, summary: error.summary, found: error.found, hint: error.hint }
}
