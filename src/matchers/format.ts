import { bindCommand } from '../core/engine/bindings.js'
import type { MatcherState } from 'vitest'
import type { CriteriaDecision, JudgedCriterion, PendingDecision } from '../core/kinds/criteria/decision.js'
import { formatJudged, formatRejection } from '../core/kinds/criteria/present.js'
import type { Decided } from './inputs.js'

/** The `this` of a matcher: Vitest's matcher state with its printing utilities. */
export type MatcherContext = MatcherState

/** What a matcher returns to Vitest: whether it passed, and the message for when that is wrong. */
export interface MatcherOutcome {
  readonly pass: boolean
  readonly message: () => string
}

/** `expect(case).toMeetRubric()`, or `expect(answer).toMeetRubric(rubric, { review })`. */
export function decisionHint(context: MatcherContext, matcher: string, form: Decided['form'], criteria = false): string {
  const answerArgs = 'rubric, { review }'
  const options = { isNot: context.isNot, promise: context.promise }
  if (form === 'case') return context.utils.matcherHint(matcher, 'case', criteria ? 'criteria' : '', options)
  return criteria
    ? context.utils.matcherHint(matcher, 'answer', 'criteria', { ...options, secondArgument: answerArgs })
    : context.utils.matcherHint(matcher, 'answer', answerArgs, options)
}

/** One line saying what became of the answer: `case "x" of dir is rejected on support.` */
export function statusLine({ decision, subject }: Decided): string {
  switch (decision.status) {
    case 'accepted':
      return `${subject} is accepted: every criterion is judged "meets".`
    case 'rejected':
      return `${subject} is rejected on ${decision.reason}.`
    case 'pending':
      return `${subject} is pending (${decision.reason}): not a pass and not a fail until its review is complete.`
    case 'refused':
      return `${subject} is refused: a binding or provenance check failed, so there is no decision.`
  }
}

/** The evidence behind a decision: failed criteria, what is missing or uncertain, or the refusal. */
export function decisionDetails(decision: CriteriaDecision): string {
  switch (decision.status) {
    case 'accepted':
      return `ratings: ${Object.entries(decision.ratings)
        .map(([criterion, rating]) => `${criterion} ${rating}`)
        .join(', ')}`
    case 'rejected':
      return formatRejection(decision.failed)
    case 'pending':
      return pendingDetails(decision)
    case 'refused':
      return decision.error.message
  }
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

/** What to do about a decision that is not the one asserted. */
export function fixFor({ decision, bound, form }: Decided): string {
  const annotations = bound?.files.annotations?.display ?? 'the annotations'
  switch (decision.status) {
    case 'accepted':
      return 'fix: if the answer should fail, a reviewer must judge the failing criterion does_not_meet; the matcher does not re-judge text.'
    case 'rejected':
      return `fix: revise the answer until it meets ${decision.failed.length === 1 ? 'that criterion' : 'those criteria'} and have it reviewed again; if it is a contrast meant to fail, assert toFailCriteria([${decision.failed.map((item) => JSON.stringify(item.criterion)).join(', ')}]).`
    case 'pending':
      if (!decision.reviewed) return `fix: review the answer and add the review to ${annotations}.`
      // A fixture's case is bound by a command; an answer checked in memory has no file to bind.
      return form === 'case' && bound !== undefined
        ? `fix: complete the review (${decision.reason}) in ${annotations}, then run \`${bindCommand(bound.dir, decision.id)}\` to acknowledge the new review revision.`
        : `fix: complete the review (${decision.reason}), then record the new review revision.`
    case 'refused':
      return 'a refused case is an error, not a decision: no assertion about its decision passes, with or without .not.'
  }
}

/** Expected against actual ratings, as Vitest diffs them, in the rubric's order; empty when they agree. */
export function ratingsDiff(context: MatcherContext, expected: Readonly<Record<string, string>>, actual: Readonly<Record<string, string>>): string {
  // A comparator that never orders keeps them as inserted (sorting is stable); the diff would sort them otherwise.
  return context.utils.diff(expected, actual, { aAnnotation: 'Expected ratings', bAnnotation: 'Received ratings', compareKeys: () => 0 }) ?? ''
}

/** A short list of ids in the expected or received colour: `["command", "support"]`. */
export function printIds(context: MatcherContext, ids: readonly string[], as: 'expected' | 'received'): string {
  const colour = as === 'expected' ? context.utils.EXPECTED_COLOR : context.utils.RECEIVED_COLOR
  return colour(`[${ids.map((id) => JSON.stringify(id)).join(', ')}]`)
}

/**
 * A result that fails with and without `.not`: a refused case is an error, and a pending one is
 * neither a pass nor a fail, so no assertion about a decision may pass on it.
 */
export function failEitherWay(context: MatcherContext, message: () => string): MatcherOutcome {
  return { pass: context.isNot, message }
}

/** Joins message paragraphs, dropping empty ones. */
export function paragraphs(...parts: readonly (string | false | undefined)[]): string {
  return parts.filter((part): part is string => typeof part === 'string' && part !== '').join('\n\n')
}
