import type { Coverage } from '../core/contract/results.js'
import type { FixtureCaseOf, FixtureReviewOf } from '../core/engine/fixture-case.js'
import type { SomeFixture } from '../core/engine/fixture.js'
import type { Fixture, FixtureEvaluation } from '../core/registry.js'
import type { Split } from '../core/common/primitives.js'
// The answer form is the criteria kind's: its typings name the types its public entry exports.
import type { Answer, BoundRubric, FileContents } from '../criteria.js'

/** A review object as written in `annotations.json`; checked in full when an answer is decided. */
export interface ReviewObject {
  readonly answer_id: string
  readonly answer_sha256: string
  readonly source_sha256: string
  readonly rubric_sha256: string
  readonly judgements: Readonly<Record<string, unknown>>
}

/** A review: one of a loaded fixture of any kind (`getReview(fixture, id)`), or a review object. */
export type ReviewInput = FixtureReviewOf | ReviewObject

/** An answer `{ text, citation }`, or the answer of a fixture's case. */
export type AnswerInput = Answer | FixtureCaseOf

/** The rubric and source an answer is decided under: a loaded fixture's, or a bound rubric. */
export type RubricInput = Fixture | BoundRubric

/** An object of `T`'s members with at least one of them given. */
export type AtLeastOne<T> = { [K in keyof T]-?: Required<Pick<T, K>> & Partial<T> }[keyof T]

/** Contents to check a review's bindings against: any of the three, at least one. */
export type BindingContents = AtLeastOne<{
  /** Checked against `answer_sha256` (the fingerprint of the answer); the answer of another kind as its cases hold it. */
  readonly answer: AnswerInput | Readonly<Record<string, unknown>>
  /** Checked against `source_sha256` (SHA-256 of the bytes; a string is taken as UTF-8). */
  readonly source: FileContents
  /** Checked against `rubric_sha256` (SHA-256 of the bytes; a string is taken as UTF-8). */
  readonly rubric: FileContents
}>

/**
 * What `toBeBoundTo` checks a review against: a loaded fixture of any kind or a bound rubric
 * (source and rubric), a fixture's case (its answer, source and rubric), or any of the three
 * contents. Which hashes a review holds is its kind's binding table.
 */
export type BindingTarget = SomeFixture | BoundRubric | FixtureCaseOf | BindingContents

/** The review an answer is decided with; `null` for an answer nobody has reviewed (pending). */
export interface AnswerReviewOptions {
  readonly review: ReviewInput | null
}

/** The review, and the source the rubric contents are bound with. */
export interface AnswerContentsOptions extends AnswerReviewOptions {
  readonly source: FileContents
}

/** How an answer names its rubric: a loaded fixture or bound rubric, or the rubric's and source's contents. */
export type AnswerDecisionArgs = [rubric: RubricInput, options: AnswerReviewOptions] | [rubric: FileContents, options: AnswerContentsOptions]

/** Counts a fixture's review coverage must have: any of them, at least one. */
export type ReviewCoverageExpectation = AtLeastOne<{
  /** Every case on disk. */
  readonly candidates: number
  /** Accepted plus rejected. */
  readonly graded: number
  readonly pending: number
  /** Refused cases; when not given, any refused case fails the assertion either way. */
  readonly refused: number
  readonly accepted: number
  readonly rejected: number
}>

/** Which cases `toHaveReviewCoverage` counts. */
export interface ReviewCoverageOptions {
  /**
   * Count the cases of one split only.
   * @default every case, whatever its split
   */
  readonly split?: Split
}

/** What `toHaveReviewCoverage` reads the coverage of. */
export type CoverageInput = Fixture | FixtureEvaluation | Coverage

/** `true` when `T` is `any`: a value typed `any` is let through the matchers' type checks. */
export type IsAny<T> = 0 extends 1 & T ? true : false

/** Only what may be received passes the type check: `Args` when `T` is one of `Allowed`, else an impossible argument. */
export type ReceivedAs<T, Allowed, Args extends unknown[], Problem extends unknown[]> =
  IsAny<T> extends true ? Args : [Awaited<T>] extends [Allowed] ? Args : Problem

/** A decision matcher takes nothing after a fixture's case, and the rubric and review after an answer. */
export type DecisionMatcherArgs<T> =
  IsAny<T> extends true
    ? [] | AnswerDecisionArgs
    : [Awaited<T>] extends [FixtureCaseOf]
      ? []
      : [Awaited<T>] extends [Answer]
        ? AnswerDecisionArgs
        : [received_must_be_a_fixture_case_or_an_answer: never]

/** The arguments of `toBeBoundTo` for a received `T`. */
export type BoundToArgs<T> = ReceivedAs<T, ReviewInput, [target: BindingTarget], [received_must_be_a_review: never]>

/** The arguments of `toHaveReviewCoverage` for a received `T`. */
export type ReviewCoverageArgs<T> = ReceivedAs<
  T,
  CoverageInput,
  [expected: ReviewCoverageExpectation, options?: ReviewCoverageOptions],
  [received_must_be_a_fixture_an_evaluation_or_a_coverage: never]
>

/** The rubric matchers, as they appear on `expect(…)`. */
export interface RubricMatchers<T = unknown> {
  /**
   * The review is bound to the given answer, source and/or rubric: the hashes it holds are those
   * of the contents now. `.not` passes when at least one of the given bindings is stale.
   * @example expect(getReview(fixture, 'complete')).toBeBoundTo({ rubric: await readFile('rubric.json') })
   */
  toBeBoundTo(...args: BoundToArgs<T>): void
  /**
   * After every binding and provenance check, the answer is accepted under the rubric.
   * `.not` passes only for a completed review that rejects it; pending and refused fail both ways.
   * @example expect(getCase(fixture, 'paraphrase')).toMeetRubric()
   * @example expect(regenerated).toMeetRubric(fixture, { review: getReview(fixture, 'paraphrase') })
   */
  toMeetRubric(...args: DecisionMatcherArgs<T>): void
  /**
   * The answer is pending: no review, a criterion without a judgement, or an `uncertain` rating.
   * `.not` passes for a completed review (accepted or rejected); refused fails both ways.
   * @example expect(getCase(fixture, 'not-reviewed')).toBePendingReview()
   */
  toBePendingReview(...args: DecisionMatcherArgs<T>): void
  /**
   * The answer is rejected on exactly these criteria (in any order), after every check: a
   * criteria fixture's criteria, or the items another kind judges (its review page's failed items).
   * `.not` passes for a completed review that fails other criteria or none; pending and refused
   * fail both ways.
   * @example expect(getCase(fixture, 'unsupported-guarantee')).toFailCriteria(['support'])
   */
  toFailCriteria(criteria: readonly [string, ...string[]], ...args: DecisionMatcherArgs<T>): void
  /**
   * The fixture's review coverage has these counts. `.not` passes when at least one differs.
   * Refused cases fail the assertion either way unless `refused` is given.
   * @example expect(fixture).toHaveReviewCoverage({ graded: 6, pending: 2 })
   */
  toHaveReviewCoverage(...args: ReviewCoverageArgs<T>): void
}

declare module 'vitest' {
  // Named and defaulted exactly as Vitest declares it, or the declarations do not merge.
  // biome-ignore lint/suspicious/noExplicitAny: declared exactly as Vitest declares it, or the declarations do not merge
  interface Matchers<T = any> extends RubricMatchers<T> {}
}
