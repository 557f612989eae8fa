// How the review page shows a kind's cases: the page description each kind gives, and the view of a
// case it returns. The web's own types, which the kind contract names; they import the contract's
// context, never the contract's definition, so that no import circle closes through them.
import type { KindContext } from '../core/contract/context.js'
import type { PageCriterion, PageJudgement, PageTable } from './protocol.js'

export type { PageCriterion, PageJudgement, PageTable } from './protocol.js'

/** What the page shows of a case as a kind reads it: the text of its question, answer and source, and its criteria. */
export interface PageCaseView {
  readonly question: string | null
  readonly answer: string | null
  readonly citation: string | null
  readonly source: string | null
  /** The criteria, each with the judgement of the review shown; empty for a kind shown as a table. */
  readonly criteria: readonly PageCriterion[]
}

/** What the overview's filters read of a case. */
export interface PageRowFacts {
  /** Items rated as failing, uncertain, or not judged. */
  readonly failed: readonly string[]
  readonly uncertain: readonly string[]
  readonly missing: readonly string[]
  /** The text a search looks in. */
  readonly text: string
}

/**
 * How the review page shows a kind's cases: the engine and the page add the decision, the
 * bindings, the reviewers side by side and what a save replaces.
 */
export interface KindPage<R, D> {
  /** `form`: a card per criterion, reviewed and adjudicated on the page; `table`: read-only, the kind's table and the decision. */
  readonly view: 'form' | 'table'
  /** The ratings the page's form offers an item, in the order of its keys 1, 2, 3…; empty for a `table` view. */
  readonly ratings: readonly string[]
  /** What the overview's filters read of a case and its decision (the one shown). */
  row(context: KindContext<R>, caseValue: unknown, decision: D): PageRowFacts
  /** Why a pending case waits when the several-reviewer rule does not say: `no review`, `missing criteria`, `manual review`, `forked`, … */
  waiting(decision: D): string
  /** The case as shown, with the judgements of `review` (as written; `undefined` for none). */
  caseView(context: KindContext<R>, caseValue: unknown, review: unknown): PageCaseView
  /** A review's judgements by item, as the side-by-side view lists them. */
  judgements(review: unknown): Readonly<Record<string, PageJudgement>>
  /** The table of a `table` view from the decision shown; `null` when there is nothing to tabulate. */
  table(decision: D): PageTable | null
}
