// What a kind gives a comparison of two of its fixtures (`vitest-rubric compare`): its own figures
// beside the paired acceptance every kind shares, and their words. Types only, importing no engine module.
import type { Split } from '../common/primitives.js'
import type { KindContext } from './context.js'
import type { Decision } from './decision.js'

/** One fixture of a comparison, as its kind's comparison sees it: its context and its cases as written. */
export interface ComparedSide<R> {
  readonly context: KindContext<R>
  readonly cases: readonly { readonly id: string; readonly split: Split; readonly value: unknown }[]
}

/** What a comparison is asked for beside the fixtures: the level of its intervals and the seed of anything drawn at random. */
export interface CompareParameters {
  readonly level: number
  readonly seed: number | string
}

/** One row of a split's per-item table (a criterion): its name and its cells, under {@link KindComparisonText.items}. */
export interface ComparedItemRow {
  readonly item: string
  readonly cells: readonly string[]
}

/**
 * How a kind's comparison is worded: `compare` prints it and the page shows it, from one text. `F`
 * is the kind's figures of the two fixtures, `S` its figures of a split.
 */
export interface KindComparisonText<F, S> {
  /** A decision's two outcomes: `accepted` and `rejected`, or `passed` and `failed`. */
  readonly nouns: { readonly accepted: string; readonly rejected: string }
  /** What a held-out case that leaks shares with a development case: `the spec`. */
  readonly leaked: string
  /** What the two fixtures share, byte for byte, and what is compared: one line. */
  same(shared: F & { readonly rubric_sha256: string }): string
  /** Lines beside the unpaired cases: each case in both fixtures that is not paired, and why. */
  notes(shared: F): readonly string[]
  /**
   * The head of a split's per-item table, and how wide `compare` prints each column after the
   * first (the first is as wide as its longest cell); the columns past the widths are printed as
   * one, ` / ` between them. `null` for a kind without one.
   */
  readonly items: { readonly head: readonly string[]; readonly widths: readonly number[] } | null
  /** The per-item rows of a split with a pair decided in both, in the rubric's order. */
  rows(split: S): readonly ComparedItemRow[]
  /** A line of the split's own figures beside the paired acceptance (a scored split's mean score); `null` for none. */
  line(split: S): string | null
}

/**
 * What a kind adds to the comparison of two of its fixtures. The engine pairs the cases by id,
 * evaluates both fixtures, and gives every kind alike the coverage, the paired acceptance with its
 * worst and best cases, the discordant pairs and the leaks; the kind gives its own figures (`F` of
 * the two fixtures, `S` of a split) and says how a case leaks and which pairs are not one task.
 */
export interface KindComparison<R, D extends Decision, F extends object = object, S extends object = object> {
  /** The text a held-out case must not share with a development case; `undefined` when the case has none that can be read (it is refused). */
  leakText(caseValue: unknown): string | undefined
  /** The kind's figures of the two fixtures, and the ids in both whose cases are not the same task: those are not paired. */
  shared(a: ComparedSide<R>, b: ComparedSide<R>, parameters: CompareParameters): { readonly figures: F; readonly notPaired: ReadonlySet<string> }
  /** The kind's figures of one split, from its pairs (A's decision, B's) decided in both; `context` is A's, whose rubric B shares. */
  split(decided: readonly (readonly [D, D])[], context: KindContext<R>, parameters: CompareParameters): S
  readonly text: KindComparisonText<F, S>
}
