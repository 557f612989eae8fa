// What a kind gives an automated judge that `vitest-rubric judge --run` calls, and how the judge's
// answer becomes a label of the kind. Types only, importing no engine module.
import type { PathSegment } from '../common/json-path.js'
import type { KindContext } from './context.js'

/** One item a judge labels (a criterion): its id, and what the judge is shown of it. */
export interface JudgedItem {
  readonly id: string
  /** Given to the judge as `criterion` (one call per item) or in `criteria` (one call per case). */
  readonly shown: unknown
}

/** What is wrong with a judge's verdict on one item: where in the verdict, and what was expected there. */
export interface VerdictProblem {
  readonly path: readonly PathSegment[]
  readonly message: string
}

/**
 * How a kind's cases are judged by an automated judge (`vitest-rubric judge --run`): what the
 * judge is shown, and how its verdicts on items become a label. The runner does the rest for
 * every kind alike: which items have a current label, the calls, their retries and timeouts, the
 * writes, and the kind's own check of each label (`authoring.newReview`) before it is written.
 * A judge labels the `review` slot: a kind with several slots records its labels by `review --judge`.
 */
export interface KindJudging<R, C> {
  /** The items a judge labels, in the rubric's order. */
  items(context: KindContext<R>): readonly JudgedItem[]
  /** What the judge is shown of a case beside the items to judge: the question, the answer, the source. */
  input(context: KindContext<R>, theCase: C): Readonly<Record<string, unknown>>
  /** The judgements a label holds, by item id, as written. */
  judgementsOf(label: unknown): Readonly<Record<string, unknown>>
  /** A judgement as written, as a judge's verdict becomes one, to be written again (a label carried over to a revised rubric); `undefined` when it is not whole. */
  redraft(judgement: unknown): Readonly<Record<string, unknown>> | undefined
  /**
   * A judge's verdict on one item as the judgement a label records, or what is wrong with the
   * verdict (`invalid verdict for <item> › <path>: <message>`). A problem the kind words whole,
   * under a code of its own, is thrown as an `Error`: its message is the call's failure.
   */
  judgement(
    verdict: unknown,
    at: { readonly judge: string; readonly caseId: string; readonly item: string },
  ): { readonly judgement: Readonly<Record<string, unknown>> } | { readonly problem: VerdictProblem }
  /** A label's draft (as `authoring.newReview` takes it) from its judgements by item id. */
  draft(judgements: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>>
}
