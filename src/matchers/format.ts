import { bindCommand } from '../core/engine/bindings.js'
import { FORK_REASON, isForkReason } from '../core/common/fork-reason.js'
import type { MatcherState } from 'vitest'
import type { SomeKindDefinition } from '../core/contract/kind.js'
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
export function statusLine(decided: Decided): string {
  const { decision, subject } = decided
  switch (decision.status) {
    case 'accepted': {
      const own = decided.context === undefined ? undefined : decided.matchers.accepted?.(decided.context, decision)
      if (own !== undefined) return `${subject} is accepted: ${own}.`
      const pass = ratingWords(decided.definition)?.pass
      const item = decided.definition.panel.words.item
      return `${subject} is accepted: every ${item} is ${pass === undefined ? 'judged to pass' : `judged ${JSON.stringify(pass)}`}.`
    }
    case 'rejected': {
      const failed = failedItems(decided)
      return failed.length === 0 ? `${subject} is rejected: ${decision.reason}.` : `${subject} is rejected on ${failed.join(', ')}.`
    }
    case 'pending':
      return `${subject} is pending (${decision.reason}): not a pass and not a fail until its review is complete.`
    case 'refused':
      return `${subject} is refused: a binding or provenance check failed, so there is no decision.`
  }
}

/** The evidence behind a decision, in the kind's words: its ratings, what failed, what is pending, or the refusal. */
export function decisionDetails(decided: Decided): string {
  const { decision, definition, context } = decided
  if (decision.status === 'refused') return decision.error.message
  // Only a refused decision lacks its rubric (one that could not be bound).
  if (context === undefined) return decision.reason
  switch (decision.status) {
    case 'accepted':
      return `ratings: ${Object.entries(itemRatings(decided))
        .map(([item, rating]) => `${item} ${rating}`)
        .join(', ')}`
    case 'rejected':
      // The failure message a case test of the kind carries: the matcher and the reporter show one text.
      return definition.present.plannedCase(decision, context).message ?? decision.reason
    case 'pending':
      return decided.matchers.pending(context, decision)
  }
}

/** The items a decision fails, in the rubric's order, as the kind's review page lists them. */
export function failedItems({ definition, matchers, context, caseValue, decision }: Decided): readonly string[] {
  if (context === undefined) return []
  return matchers.failed?.(context, decision) ?? definition.page.row(context, caseValue, decision).failed
}

/** Each judged item's rating as a reader sees it (`meets`), in the rubric's order. */
export function itemRatings({ definition, context, decision }: Decided): Readonly<Record<string, string>> {
  if (context === undefined) return {}
  return Object.fromEntries(Object.entries(definition.panel.items(context, decision)).map(([item, { shown }]) => [item, shown]))
}

/** The rating a passing and a failing item is given (`meets`, `does_not_meet`); `undefined` for a kind whose items are scored, not rated. */
export function ratingWords(definition: SomeKindDefinition): { readonly pass: string; readonly fail: string } | undefined {
  const { calibration } = definition.panel
  return 'pass' in calibration ? calibration : undefined
}

/** What to do about a decision that is not the one asserted. */
export function fixFor(decided: Decided): string {
  const { decision, context, form } = decided
  const annotations = context?.files.annotations?.display ?? 'the annotations'
  const { item, items } = decided.definition.panel.words
  switch (decision.status) {
    case 'accepted': {
      const fail = ratingWords(decided.definition)?.fail
      return `fix: if the answer should fail, a reviewer must judge the failing ${item} ${fail ?? 'as failing'}; the matcher does not re-judge text.`
    }
    case 'rejected': {
      const failed = failedItems(decided)
      // A rejection that names no item (a mean below its threshold) has no list to assert.
      if (failed.length === 0)
        return 'fix: revise the answer until it meets the rule and have it reviewed again; if it is a contrast meant to fail, assert .not.toMeetRubric().'
      return `fix: revise the answer until it meets ${failed.length === 1 ? `that ${item}` : `those ${items}`} and have it reviewed again; if it is a contrast meant to fail, assert toFailCriteria([${failed.map((each) => JSON.stringify(each)).join(', ')}]).`
    }
    case 'pending':
      // A case whose records were revised apart waits for resolve alone: its reason names the fork and the command.
      if (isForkReason(decision.reason)) return `fix: the case's records were revised apart: ${decision.reason.slice(FORK_REASON.length)}.`
      if (context !== undefined && decided.definition.page.waiting(decision) === 'no review')
        return `fix: review the answer and add the review to ${annotations}.`
      // A fixture's case is bound by a command; an answer checked in memory has no file to bind.
      return form === 'case' && context !== undefined
        ? `fix: complete the review (${decision.reason}) in ${annotations}, then run \`${bindCommand(context.dir, decision.id)}\` to acknowledge the new review revision.`
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
