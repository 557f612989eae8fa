import type { Coverage } from '../core/contract/results.js'
import { assessFixtureCase, type FixtureCase, type FixtureReview } from '../core/kinds/criteria/access.js'
import { assessAnswer, type Located } from '../core/kinds/criteria/answer.js'
import type { CriteriaDecision } from '../core/kinds/criteria/decision.js'
import { criteriaFixture } from '../core/kinds/criteria/access.js'
import type { CriteriaFixture } from '../core/kinds/criteria/access.js'
import type { SomeEvaluation } from '../core/engine/evaluate.js'
import { kindContext, type SomeFixture } from '../core/engine/fixture.js'
import { bindRubricContents, type BoundRubric, type FileContents } from '../core/kinds/criteria/rubric.js'
import { RubricError, UsageError, preview } from '../core/common/errors.js'

/** A decision and what a message needs to name it. */
export interface Decided {
  readonly decision: CriteriaDecision
  /** `case "wrong-command" of fixtures/docuctl-rollback`, `the answer reviewed as "complete"`. */
  readonly subject: string
  /** The rubric it was decided under; `undefined` when binding the rubric itself failed. */
  readonly bound: BoundRubric | undefined
  /** How the call looked, for the matcher hint: `case` or `answer`. */
  readonly form: 'case' | 'answer'
}

/** A review with where it stands, and where its case records its revision (a fixture's review). */
export interface LocatedReview extends Located {
  readonly file: string
  /** The fixture directory as shown, for a review read from a fixture. */
  readonly dir: string | undefined
  readonly caseId: string | undefined
  readonly revisionRecordedAt: string | undefined
}

/**
 * Decides what a decision matcher received: a fixture's case (no arguments), or an answer with
 * the rubric and review to decide it by. A wrong call is a {@link UsageError}, thrown; a rubric
 * that cannot be bound becomes a refused decision, like any other binding failure.
 */
export function decideReceived(matcher: string, received: unknown, args: readonly unknown[]): Decided {
  if (isFixtureCase(received)) {
    if (args.length > 0) {
      throw usage(matcher, 'a fixture case carries its rubric and review: pass no arguments.', `${matcher}() with no arguments`, `${args.length} argument(s)`)
    }
    const { fixture, id } = received
    const subject = fixture.displayDir === '.' ? `case ${JSON.stringify(id)}` : `case ${JSON.stringify(id)} of ${fixture.displayDir}`
    return { decision: assessFixtureCase(received), subject, bound: kindContext(fixture), form: 'case' }
  }
  if (!isRecord(received) || !('text' in received)) {
    throw usage(
      matcher,
      'the received value is neither a fixture case nor an answer.',
      'getCase(fixture, id), or an answer { text, citation }',
      preview(received),
    )
  }
  const [rubric, options] = args
  if (!isRecord(options) || !('review' in options)) {
    throw usage(matcher, 'an answer is decided with a rubric and a review.', `${matcher}(rubric, { review })`, preview(options))
  }
  const review = locateReview(matcher, options['review'])
  const id = reviewId(review)
  const subject = id === undefined ? 'the answer' : `the answer reviewed as ${JSON.stringify(id)}`
  let bound: BoundRubric
  try {
    bound = rubricOf(matcher, rubric, options['source'])
  } catch (error) {
    if (!(error instanceof RubricError) || error instanceof UsageError) throw error
    const decision: CriteriaDecision = { status: 'refused', id: id ?? 'answer', split: 'development', reason: error.summary, error: error.toJSON() }
    return { decision, subject, bound: undefined, form: 'answer' }
  }
  // Messages name the answer as received and the review where it came from.
  const named: BoundRubric = {
    ...bound,
    files: {
      ...bound.files,
      cases: { name: 'cases.json', display: 'answer', sha256: '' },
      annotations: { name: 'annotations.json', display: review?.file ?? 'review', sha256: '' },
    },
  }
  return { decision: assessAnswer(named, { value: received, path: [] }, review), subject, bound, form: 'answer' }
}

/** A review as received: a fixture's review, a review object, or `null`. */
export function locateReview(matcher: string, review: unknown): LocatedReview | null {
  if (review === null) return null
  if (isFixtureCase(review)) {
    throw usage(matcher, 'a case is not a review.', 'getReview(fixture, id), a review object or null', `case ${JSON.stringify(review.id)}`)
  }
  if (isFixtureReview(review)) {
    return {
      value: review.entry.value,
      path: review.entry.path,
      file: review.fixture.files.annotations.display,
      dir: review.fixture.displayDir,
      caseId: review.caseId,
      revisionRecordedAt: review.revisionRecordedAt,
    }
  }
  if (isRecord(review)) return { value: review, path: [], file: 'review', dir: undefined, caseId: undefined, revisionRecordedAt: undefined }
  throw usage(matcher, 'the review is neither a fixture review nor a review object.', 'getReview(fixture, id), a review object or null', preview(review))
}

/** The bound rubric an argument names: a fixture's, a bound rubric, or contents bound with `source`. */
function rubricOf(matcher: string, rubric: unknown, source: unknown): BoundRubric {
  if (isOtherKindFixture(rubric)) criteriaFixture(rubric, matcher)
  if (isFixture(rubric) || isBoundRubric(rubric)) {
    if (source !== undefined) {
      throw usage(matcher, 'the source comes with the rubric: a fixture or bound rubric holds its own.', '{ review } without source', 'a source as well')
    }
    return isFixture(rubric) ? kindContext(rubric) : rubric
  }
  if (!isContents(rubric)) {
    throw usage(
      matcher,
      'the rubric is neither a fixture, a bound rubric nor file contents.',
      'a loaded fixture, a bound rubric, or the bytes of rubric.json',
      preview(rubric),
    )
  }
  if (!isContents(source)) {
    throw usage(matcher, 'rubric contents are bound with the source they quote.', '{ review, source } with the bytes of source.txt', preview(source))
  }
  return bindRubricContents(rubric, source, { rubric: 'rubric', source: 'source' })
}

/** A loaded fixture of any kind: it carries its kind's definition. */
export function isLoadedFixture(value: unknown): value is SomeFixture {
  return (
    isRecord(value) && typeof value['kind'] === 'string' && isRecord(value['definition']) && Array.isArray(value['cases']) && value['reviews'] instanceof Map
  )
}

/** A loaded fixture of a kind other than criteria: matchers that decide answers say they need a criteria fixture. */
export function isOtherKindFixture(value: unknown): value is SomeFixture {
  return isLoadedFixture(value) && !isFixture(value)
}

export function isFixture(value: unknown): value is CriteriaFixture {
  return isRecord(value) && value['kind'] === 'criteria' && isRecord(value['rubric']) && Array.isArray(value['cases']) && value['reviews'] instanceof Map
}

export function isEvaluation(value: unknown): value is SomeEvaluation {
  return isRecord(value) && isLoadedFixture(value['fixture']) && Array.isArray(value['decisions']) && isCoverage(value['coverage'])
}

export function isCoverage(value: unknown): value is Coverage {
  return isRecord(value) && typeof value['candidates'] === 'number' && isRecord(value['splits']) && Array.isArray(value['pendingCases'])
}

export function isBoundRubric(value: unknown): value is BoundRubric {
  return isRecord(value) && isRecord(value['files']) && isRecord(value['rubric']) && value['rubric']['criteria'] instanceof Map && !('cases' in value)
}

export function isFixtureCase(value: unknown): value is FixtureCase {
  return isRecord(value) && value['kind'] === 'case' && isFixture(value['fixture']) && isRecord(value['entry'])
}

export function isFixtureReview(value: unknown): value is FixtureReview {
  return isRecord(value) && value['kind'] === 'review' && isFixture(value['fixture']) && isRecord(value['entry'])
}

export function isContents(value: unknown): value is FileContents {
  // By tag rather than instanceof, so that a Buffer from another realm still counts.
  return typeof value === 'string' || Object.prototype.toString.call(value) === '[object Uint8Array]'
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A wrong call of a matcher: thrown, whatever `.not` says, since there is nothing to assert. */
export function usage(matcher: string, summary: string, expected: string, found: string): UsageError {
  return new UsageError({ code: 'USAGE', file: matcher, summary, expected, found, hint: `docs/matchers.md says what ${matcher} accepts.` })
}

function reviewId(review: LocatedReview | null): string | undefined {
  if (review === null) return undefined
  if (review.caseId !== undefined) return review.caseId
  const id = isRecord(review.value) ? review.value['answer_id'] : undefined
  return typeof id === 'string' ? id : undefined
}
