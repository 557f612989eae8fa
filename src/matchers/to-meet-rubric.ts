import { decideReceived } from './inputs.js'
import { decisionDetails, decisionHint, failEitherWay, fixFor, itemRatings, paragraphs, ratingsDiff, ratingWords, statusLine } from './format.js'
import type { MatcherContext, MatcherOutcome } from './format.js'

/**
 * `expect(case).toMeetRubric()`, `expect(answer).toMeetRubric(rubric, { review, source? })`:
 * after every binding and provenance check, the answer is accepted under its kind's decision rule
 * (the criteria kind's: every criterion meets).
 *
 * `.not` passes only when a completed review rejects the answer. A pending answer is neither a
 * pass nor a fail, and a refused one is an error: both fail with and without `.not`.
 */
export function toMeetRubric(this: MatcherContext, received: unknown, ...args: unknown[]): MatcherOutcome {
  const decided = decideReceived('toMeetRubric', received, args)
  const { decision } = decided
  const hint = decisionHint(this, 'toMeetRubric', decided.form)
  const head = () => [hint, statusLine(decided), decisionDetails(decided)] as const
  switch (decision.status) {
    case 'accepted':
      return { pass: true, message: () => paragraphs(...head(), '.not.toMeetRubric passes only when a completed review rejects the answer.') }
    case 'rejected': {
      const { definition, context } = decided
      const pass = ratingWords(definition)?.pass
      const allPass = pass === undefined || context === undefined ? undefined : Object.fromEntries(definition.panel.order(context).map((item) => [item, pass]))
      return {
        pass: false,
        message: () => paragraphs(...head(), allPass !== undefined && ratingsDiff(this, allPass, itemRatings(decided)), fixFor(decided)),
      }
    }
    case 'pending':
      return failEitherWay(this, () =>
        paragraphs(
          ...head(),
          this.isNot
            ? '.not.toMeetRubric passes only when a completed review rejects the answer: a pending review is not a rejection. Assert toBePendingReview() for that.'
            : fixFor(decided),
        ),
      )
    case 'refused':
      return failEitherWay(this, () => paragraphs(...head(), fixFor(decided)))
  }
}
