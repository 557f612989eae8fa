import type { Coverage } from '../core/contract/results.js'
import type { KindContext } from '../core/contract/context.js'
import type { Decision } from '../core/contract/decision.js'
import type { SomeKindDefinition } from '../core/contract/kind.js'
import type { KindMatchers, MatcherCall, ReceivedReview } from '../core/contract/matchers.js'
import type { SomeEvaluation } from '../core/engine/evaluate.js'
import { kindContext } from '../core/engine/fixture.js'
import { decideFixtureCase, isFixtureCase, isFixtureReview, isLoadedFixture } from '../core/engine/fixture-case.js'
import { kinds } from '../core/registry.js'
import { UsageError, preview } from '../core/common/errors.js'

export { isFixtureCase, isFixtureReview, isLoadedFixture } from '../core/engine/fixture-case.js'

/** A decision, the kind that made it, and what a message needs to name it. */
export interface Decided {
  readonly decision: Decision
  readonly definition: SomeKindDefinition
  /** The kind's matcher part, which the kind gives for its cases to be decided by the matchers. */
  readonly matchers: KindMatchers<unknown, Decision>
  /** `case "wrong-command" of fixtures/docuctl-rollback`, `the answer reviewed as "complete"`. */
  readonly subject: string
  /** The rubric it was decided under; `undefined` when binding the rubric itself failed. */
  readonly context: KindContext<unknown> | undefined
  /** The case as written (or the answer as a case), for the kind's page row facts. */
  readonly caseValue: unknown
  /** How the call looked, for the matcher hint: `case` or `answer`. */
  readonly form: 'case' | 'answer'
}

/**
 * Decides what a decision matcher received: a fixture's case of any kind that gives the matchers
 * its part (no arguments), or an answer of a kind with an answer form, with the arguments that
 * form takes. A wrong call is a {@link UsageError}, thrown.
 */
export function decideReceived(matcher: string, received: unknown, args: readonly unknown[]): Decided {
  if (isFixtureCase(received)) {
    if (args.length > 0) {
      throw usage(matcher, 'a fixture case carries its rubric and review: pass no arguments.', `${matcher}() with no arguments`, `${args.length} argument(s)`)
    }
    const { fixture, id } = received
    const { definition } = fixture
    if (definition.matchers === undefined) {
      throw usage(
        matcher,
        `${fixture.displayDir} is a ${fixture.kind} fixture, and the ${fixture.kind} kind does not say how the rubric matchers read its decisions.`,
        `a case of a kind the matchers read (${kinds.kinds.flatMap((kind) => (kind.matchers === undefined ? [] : [kind.name])).join(', ')})`,
        `case ${JSON.stringify(id)} of a ${fixture.kind} fixture`,
      )
    }
    const subject = fixture.displayDir === '.' ? `case ${JSON.stringify(id)}` : `case ${JSON.stringify(id)} of ${fixture.displayDir}`
    const decision = decideFixtureCase(received)
    return { decision, definition, matchers: definition.matchers, subject, context: kindContext(fixture), caseValue: received.entry.value, form: 'case' }
  }
  const definition = kinds.kinds.find((kind) => kind.matchers?.answer?.isAnswer(received) === true)
  const form = definition?.matchers
  if (definition === undefined || form?.answer === undefined) {
    const answers = kinds.kinds.flatMap((kind) => (kind.matchers?.answer === undefined ? [] : [kind.matchers.answer.shape]))
    throw usage(matcher, 'the received value is neither a fixture case nor an answer.', ['getCase(fixture, id)', ...answers].join(', or '), preview(received))
  }
  const call: MatcherCall = {
    matcher,
    usage: (summary, expected, found) => usage(matcher, summary, expected, found),
    review: (review) => locateReview(matcher, review),
  }
  const answered = form.answer.decide(received, args, call)
  return { ...answered, definition, matchers: form, form: 'answer' }
}

/** A review as received: a fixture's review, a review object, or `null`. */
export function locateReview(matcher: string, review: unknown): ReceivedReview | null {
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

/** A rubric passed as a bound value, of a shipped kind with an answer form: its context and its kind. */
export function boundRubricOf(value: unknown): { readonly context: KindContext<unknown>; readonly definition: SomeKindDefinition } | undefined {
  for (const definition of kinds.kinds) {
    const context = definition.matchers?.answer?.boundRubric(value)
    if (context !== undefined) return { context, definition }
  }
  return undefined
}

export function isEvaluation(value: unknown): value is SomeEvaluation {
  return isRecord(value) && isLoadedFixture(value['fixture']) && Array.isArray(value['decisions']) && isCoverage(value['coverage'])
}

export function isCoverage(value: unknown): value is Coverage {
  return isRecord(value) && typeof value['candidates'] === 'number' && isRecord(value['splits']) && Array.isArray(value['pendingCases'])
}

export function isContents(value: unknown): value is string | Uint8Array {
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
