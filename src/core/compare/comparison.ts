// What a comparison of two fixtures is, whatever their kind: the shape every kind's comparison
// shares, apart from the code that makes it, so that a kind can name its own comparison's type.
import type { Split } from '../common/primitives.js'
import type { JudgeAssistedComparison } from './compare-judge.js'
import type { PairedSplitFigures } from './compare-figures.js'

/** Which split a comparison covers: one of them, or each of them, side by side and never pooled. */
export type CompareSplit = Split | 'all'

/** One fixture of a comparison. */
export interface ComparedFixture {
  /** `cases.json › name`. */
  readonly name: string
  /** The directory as shown. */
  readonly dir: string
  /** Cases in `cases.json`. */
  readonly cases: number
}

/** A held-out case whose task is a development case's: the same question and answer text (criteria), the same spec (scored). */
export interface Leak {
  readonly fixture: 'A' | 'B'
  readonly case: string
  /** The development cases with the same text. */
  readonly development: readonly { readonly fixture: 'A' | 'B'; readonly case: string }[]
}

/** What every comparison says, whatever the kind. */
export interface ComparisonBase {
  readonly a: ComparedFixture
  readonly b: ComparedFixture
  /** SHA-256 of the rubric file both fixtures share, byte for byte. */
  readonly rubric_sha256: string
  readonly split: CompareSplit
  readonly level: number
  /** Case ids in one fixture only: listed, never paired. */
  readonly unpaired: { readonly a_only: readonly string[]; readonly b_only: readonly string[] }
  /** Case ids in both fixtures but in different splits: listed, in no split's figures. */
  readonly split_mismatch: readonly { readonly case: string; readonly a: Split; readonly b: Split }[]
  readonly leaks: readonly Leak[]
  /** With the `judge` option: B − A by prediction-powered inference, per split. Absent otherwise. */
  readonly judge_assisted?: JudgeAssistedComparison
}

/**
 * The comparison of two fixtures of the kind `K`, whose own figures are `F` (of the two fixtures)
 * and `S` (of each split), as its definition's `compare` gives them.
 */
export type KindFixtureComparison<K extends string, F extends object, S extends object> = ComparisonBase &
  F & {
    readonly kind: K
    /** The splits compared, held-out first. */
    readonly splits: readonly (PairedSplitFigures & S)[]
  }

/** The comparison of two fixtures of a kind not known where it is read. */
export type SomeFixtureComparison = KindFixtureComparison<string, object, object>
