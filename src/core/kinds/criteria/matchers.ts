import { RubricError, UsageError, preview } from '../../common/errors.js'
import { isObject } from '../../common/primitives.js'
import type { KindAnswerForm, KindMatchers, MatcherCall } from '../../contract/matchers.js'
import { kindContext } from '../../engine/fixture.js'
import { isFixtureCase, isLoadedFixture } from '../../engine/fixture-case.js'
import type { SomeFixture } from '../../engine/fixture.js'
import { assessAnswer } from './answer.js'
import type { CriteriaDecision, JudgedCriterion, PendingDecision } from './decision.js'
import { formatJudged } from './present.js'
import { bindRubricContents, type BoundRubric, type CriteriaRubric, type FileContents } from './rubric.js'

/**
 * How the rubric matchers read a criteria case: the evidence of a pending review, criterion by
 * criterion, and the answer form, `expect({ text, citation }).toMeetRubric(rubric, { review })`.
 */
export const criteriaMatchers: KindMatchers<CriteriaRubric, CriteriaDecision> = {
  pending: (_context, decision) => (decision.status === 'pending' ? pendingDetails(decision) : ''),
  answer: {
    shape: 'an answer { text, citation }',
    isAnswer: (value) => isObject(value) && 'text' in value,
    boundRubric: (value) => (isBoundRubric(value) ? value : undefined),
    decide: decideAnswer,
  } satisfies KindAnswerForm<CriteriaRubric, CriteriaDecision>,
}

function pendingDetails(decision: PendingDecision): string {
  if (!decision.reviewed) return 'Nobody has reviewed this answer.'
  const lines: string[] = []
  if (decision.missing.length > 0) lines.push(`not judged: ${decision.missing.join(', ')}`)
  if (decision.uncertain.length > 0) {
    lines.push(
      `uncertain: ${decision.uncertain.length} ${decision.uncertain.length === 1 ? 'criterion needs' : 'criteria need'} adjudication or a clearer rule`,
    )
    for (const item of decision.uncertain) lines.push(...marked('?', item))
  }
  if (decision.failed.length > 0) {
    lines.push('already judged does_not_meet (not a rejection while the review is incomplete):')
    for (const item of decision.failed) lines.push(...formatJudged(item))
  }
  return lines.join('\n')
}

function marked(marker: string, item: JudgedCriterion): string[] {
  const [head = '', ...rest] = formatJudged(item)
  return [head.replace('✗', marker), ...rest]
}

/**
 * Decides an answer with the rubric and review to decide it by. A wrong call is the matcher's
 * usage error, thrown; a rubric that cannot be bound becomes a refused decision, like any other
 * binding failure.
 */
function decideAnswer(received: unknown, args: readonly unknown[], call: MatcherCall) {
  const { matcher } = call
  const [rubric, options] = args
  if (!isObject(options) || !('review' in options)) {
    throw call.usage('an answer is decided with a rubric and a review.', `${matcher}(rubric, { review })`, preview(options))
  }
  const review = call.review(options['review'])
  const id = review === null ? undefined : (review.caseId ?? answerIdOf(review.value))
  const subject = id === undefined ? 'the answer' : `the answer reviewed as ${JSON.stringify(id)}`
  const caseValue = { input: { answer: received } }
  let bound: BoundRubric
  try {
    bound = rubricOf(call, rubric, options['source'])
  } catch (error) {
    if (!(error instanceof RubricError) || error instanceof UsageError) throw error
    const decision: CriteriaDecision = { status: 'refused', id: id ?? 'answer', split: 'development', reason: error.summary, error: error.toJSON() }
    return { decision, subject, context: undefined, caseValue }
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
  return { decision: assessAnswer(named, { value: received, path: [] }, review), subject, context: bound, caseValue }
}

/** The bound rubric an argument names: a fixture's, a bound rubric, or contents bound with `source`. */
function rubricOf(call: MatcherCall, rubric: unknown, source: unknown): BoundRubric {
  const given = isLoadedFixture(rubric) ? fixtureRubric(rubric, call.matcher) : isBoundRubric(rubric) ? rubric : undefined
  if (given !== undefined) {
    if (source !== undefined) {
      throw call.usage('the source comes with the rubric: a fixture or bound rubric holds its own.', '{ review } without source', 'a source as well')
    }
    return given
  }
  if (!isContents(rubric)) {
    throw call.usage(
      'the rubric is neither a fixture, a bound rubric nor file contents.',
      'a loaded fixture, a bound rubric, or the bytes of rubric.json',
      preview(rubric),
    )
  }
  if (!isContents(source)) {
    throw call.usage('rubric contents are bound with the source they quote.', '{ review, source } with the bytes of source.txt', preview(source))
  }
  return bindRubricContents(rubric, source, { rubric: 'rubric', source: 'source' })
}

/** The bound rubric of a loaded criteria fixture; a usage error naming `caller` for a fixture of another kind. */
function fixtureRubric(fixture: SomeFixture, caller: string): BoundRubric {
  const context = kindContext(fixture)
  if (fixture.kind === 'criteria' && isBoundRubric(context)) return context
  throw notCriteria(fixture, caller)
}

/** The usage error of a fixture of another kind given where a criteria fixture is read. */
function notCriteria(fixture: SomeFixture, caller: string): UsageError {
  return new UsageError({
    code: 'USAGE',
    file: caller,
    summary: `${fixture.displayDir} is a ${fixture.kind} fixture; ${caller} reads criteria fixtures (rubric.json, source.txt, cases.json, annotations.json).`,
    expected: 'a criteria fixture',
    found: `a ${fixture.kind} fixture`,
    hint: 'pass a criteria fixture; a scored fixture is decided by evaluateFixture.',
  })
}

function isBoundRubric(value: unknown): value is BoundRubric {
  return (
    isObject(value) &&
    isObject(value['files']) &&
    isObject(value['rubric']) &&
    value['rubric']['criteria'] instanceof Map &&
    !('cases' in value) &&
    !isFixtureCase(value)
  )
}

function isContents(value: unknown): value is FileContents {
  // By tag rather than instanceof, so that a Buffer from another realm still counts.
  return typeof value === 'string' || Object.prototype.toString.call(value) === '[object Uint8Array]'
}

function answerIdOf(review: unknown): string | undefined {
  const id = isObject(review) ? review['answer_id'] : undefined
  return typeof id === 'string' ? id : undefined
}
