/** The options of the compare gate: `rubric({ compare: { against, margin, split, fixtures, judge } })`. */

/**
 * One compare gate: each compared fixture (B) is not worse than `against` (A) by more than
 * `margin`, on one split, as `vitest-rubric compare A B` measures it.
 */
export interface CompareGateOptions {
  /** Fixture A's directory, relative to the project root: the system B must not fall behind. */
  readonly against: string
  /**
   * The split compared. Held-out cases give the result; development cases are development
   * material, so their check is always todo, never a pass.
   * @default 'held_out'
   */
  readonly split?: 'held_out' | 'development'
  /**
   * How far B's acceptance rate may fall below A's, as a proportion from 0 to 1 (`0.05`: 5 points).
   * The check passes when the lower bound of the paired 95% interval of B − A (a one-sided test at
   * the 2.5% level) is at least −margin, over the decided pairs and with every undecided pair
   * counted against B; it is todo when only the decided pairs clear it.
   */
  readonly margin: number
  /**
   * Globs of the fixture directories compared with `against`, matched as `include` is; a named
   * fixture on another rubric or source fails. Left out: every included fixture whose rubric
   * (and source) are byte-identical to `against`'s, but `against` itself.
   */
  readonly fixtures?: string | readonly string[]
  /**
   * A judge whose decisions (judges/<name>.json in both fixtures) cover every paired task: the check
   * then reads the judge-assisted (PPI++) interval of B − A over every paired task of the split,
   * from the tasks both fixtures' samples drew, instead of the decided pairs' Newcombe interval
   * (docs/statistics.md#judge-assisted-paired-comparison). It fails when the two samples are not one
   * draw or a judge decision is stale or missing, and is todo while the sample is too small to estimate.
   */
  readonly judge?: string
}

/** A compare gate with its defaults applied and its globs as a list. */
export interface ResolvedCompareGate {
  readonly against: string
  readonly split: 'held_out' | 'development'
  readonly margin: number
  /** `undefined`: every included fixture on the same rubric and source. */
  readonly fixtures: readonly string[] | undefined
  /** `undefined`: the gate reads the decided pairs only. */
  readonly judge: string | undefined
}
