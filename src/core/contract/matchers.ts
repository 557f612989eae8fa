// How the rubric matchers (`toMeetRubric`, `toBePendingReview`, `toFailCriteria`) read a kind's
// decisions: the evidence only the kind can word, and the answer form of a kind whose answers are
// decided in memory. Types only, importing no engine module. The matchers read everything else
// (item words, ratings, what failed) from the kind's panel, page and presentation.
import type { PathSegment } from '../common/json-path.js'
import type { KindContext } from './context.js'

/** A review as a matcher received it: a fixture's review, or a review object as written. */
export interface ReceivedReview {
  readonly value: unknown
  /** Where it stands in its file; `[]` for a review object. */
  readonly path: readonly PathSegment[]
  /** The file that holds it, as shown: `fixtures/lab/annotations.json`, or `review` for a review object. */
  readonly file: string
  /** The fixture directory as shown, for a review read from a fixture. */
  readonly dir: string | undefined
  /** The case the review belongs to, for a review read from a fixture. */
  readonly caseId: string | undefined
  /** Where its case records the review revision: `cases.json › cases[2] › expected › review_sha256`. */
  readonly revisionRecordedAt: string | undefined
}

/** What a matcher hands a kind's answer form: its name, and how it words a wrong call and reads a review. */
export interface MatcherCall {
  /** `toMeetRubric`. */
  readonly matcher: string
  /** A usage error of this matcher: what is wrong, what it expected and what it found. */
  usage(summary: string, expected: string, found: string): Error
  /** The review an option names: a fixture's review, a review object, or `null`; a usage error for anything else. */
  review(value: unknown): ReceivedReview | null
}

/** An answer decided in memory, and what a message needs to name it. */
export interface AnswerDecided<R, D> {
  readonly decision: D
  /** `the answer reviewed as "complete"`. */
  readonly subject: string
  /** The rubric it was decided under; `undefined` when binding the rubric itself failed (the decision is refused). */
  readonly context: KindContext<R> | undefined
  /** The answer as the value of a case, for the kind's page row facts (what failed). */
  readonly caseValue: unknown
}

/**
 * How an answer that is not a fixture's case is decided by a matcher:
 * `expect(answer).toMeetRubric(rubric, { review })`.
 */
export interface KindAnswerForm<R, D> {
  /** The answer in a usage message: `an answer { text, citation }`. */
  readonly shape: string
  /** Whether a received value is an answer of the kind. */
  isAnswer(value: unknown): boolean
  /** The kind's rubric passed as a bound value (not a loaded fixture), or `undefined` when the value is not one. */
  boundRubric(value: unknown): KindContext<R> | undefined
  /** Decides an answer with the matcher's arguments after it; a wrong call is `call.usage(…)`, thrown. */
  decide(received: unknown, args: readonly unknown[], call: MatcherCall): AnswerDecided<R, D>
}

/** What the rubric matchers need of a kind beyond its panel, page and presentation; a kind without it is not decided by them. */
export interface KindMatchers<R, D> {
  /** The evidence of a pending decision: nobody reviewed it, or what is not judged, what is uncertain and why, what already fails. */
  pending(context: KindContext<R>, decision: D): string
  /** The kind's answer form, when its answers can be decided in memory. */
  readonly answer?: KindAnswerForm<R, D>
  /**
   * Why an accepted decision passes, said after `is accepted: `; by default every item is judged
   * the panel's passing rating. A kind whose items are scored, not rated, words its own rule.
   */
  accepted?(context: KindContext<R>, decision: D): string
  /**
   * The items a rejected decision fails, in the rubric's order (`toFailCriteria` compares them); by
   * default those the kind's review page lists as failed. A rejection that names no item (a mean
   * below its threshold) is worded by the decision's reason.
   */
  failed?(context: KindContext<R>, decision: D): readonly string[]
}
