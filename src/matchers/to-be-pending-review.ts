import { decideReceived } from './inputs.js'
import { decisionDetails, decisionHint, failEitherWay, fixFor, paragraphs, statusLine, type MatcherContext, type MatcherOutcome } from './format.js'

/**
 * `expect(case).toBePendingReview()`, `expect(answer).toBePendingReview(rubric, { review })`:
 * after every binding and provenance check, the answer awaits review (no review, a criterion
 * without a judgement, or an `uncertain` rating, or what else keeps its kind's decision pending);
 * the message gives the reason.
 *
 * `.not` passes for a completed review, accepted or rejected. A refused answer is an error, not
 * a pending one: it fails with and without `.not`.
 */
export function toBePendingReview(this: MatcherContext, received: unknown, ...args: unknown[]): MatcherOutcome {
  const decided = decideReceived('toBePendingReview', received, args)
  const { decision } = decided
  const hint = decisionHint(this, 'toBePendingReview', decided.form)
  switch (decision.status) {
    case 'pending':
      return { pass: true, message: () => paragraphs(hint, statusLine(decided), decisionDetails(decided), fixFor(decided)) }
    case 'accepted':
    case 'rejected':
      return {
        pass: false,
        message: () => paragraphs(hint, statusLine(decided), decisionDetails(decided), 'Its review is complete, so it is graded, not pending.'),
      }
    case 'refused':
      return failEitherWay(this, () => paragraphs(hint, statusLine(decided), decisionDetails(decided), fixFor(decided)))
  }
}
