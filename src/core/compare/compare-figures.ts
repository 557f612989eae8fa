import { plural } from '../common/primitives.js'
import type { Split } from '../common/primitives.js'
import { pairedProportions, type PairedCounts } from '../stats/paired.js'

/** The label of every comparison over development cases: they tuned the systems, so they measure nothing beyond themselves. */
export const DEVELOPMENT_LABEL = 'development material: not a result beyond these examples'

/** The paired figures of one 2×2 table, as `compare --json` prints them (docs/compare.md). */
export interface PairedFigures {
  /** Pairs counted: both decided (for a criterion, both judged). */
  readonly n: number
  readonly table: { readonly both: number; readonly a_only: number; readonly b_only: number; readonly neither: number }
  readonly a: RateFigure
  readonly b: RateFigure
  /** B − A, as a proportion; `null` without pairs. */
  readonly difference: number | null
  /** Newcombe's method 10 interval of B − A; `null` without pairs. */
  readonly difference_interval: readonly [number, number] | null
  readonly mcnemar: { readonly discordant: number; readonly p_value: number }
  /** Why a figure is `null`; `null` when none is. */
  readonly reason: string | null
}

/** A system's pass rate over the pairs with its Wilson interval. */
export interface RateFigure {
  readonly passed: number
  readonly rate: number | null
  readonly interval: readonly [number, number] | null
}

/** How many of a split's pairs both systems decided, and why the others are left out. */
export interface ComparisonCoverage {
  /** Cases present in both fixtures, in this split. */
  readonly paired: number
  /** Pairs decided (accepted or rejected) in both: the ones counted. */
  readonly decided: number
  readonly pending: { readonly a: number; readonly b: number }
  readonly refused: { readonly a: number; readonly b: number }
  /** `41 of 50 tasks decided in both; 6 pending in B, 3 refused in A`. */
  readonly line: string
}

/**
 * The coverage of one split's pairs: those decided in both, and how many sides are pending or refused.
 * @internal
 */
export function coverageOf(
  pairs: readonly (readonly [{ readonly status: string }, { readonly status: string }])[],
  isDecided: (side: { readonly status: string }) => boolean,
): ComparisonCoverage {
  const decided = pairs.filter(([left, right]) => isDecided(left) && isDecided(right)).length
  const count = (status: 'pending' | 'refused', side: 0 | 1) => pairs.filter((pair) => pair[side].status === status).length
  const pending = { a: count('pending', 0), b: count('pending', 1) }
  const refused = { a: count('refused', 0), b: count('refused', 1) }
  const gaps = (
    [
      [pending.a, 'pending in A'],
      [pending.b, 'pending in B'],
      [refused.a, 'refused in A'],
      [refused.b, 'refused in B'],
    ] as const
  )
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n} ${what}`)
  const line = `${decided} of ${plural(pairs.length, 'task')} decided in both${gaps.length === 0 ? '' : `; ${gaps.join(', ')}`}`
  return { paired: pairs.length, decided, pending, refused, line }
}

/**
 * The figures of a split with the pairs they leave out counted one way. The figures count only the
 * pairs decided in both (complete cases), which assumes that the undecided pairs (a side pending or
 * refused) would come out as the decided ones did. The worst case for B counts every undecided pair
 * against B: an undecided side of A as accepted, an undecided side of B as rejected, a decided side
 * as it was decided. The best case counts them for B, the other way round.
 */
export interface UndecidedCase {
  /** Pairs of the split not decided in both: left out of the figures, counted here. */
  readonly undecided: number
  /** Pairs counted: the decided ones and the undecided ones. */
  readonly n: number
  readonly table: PairedFigures['table']
  /** B − A with the undecided pairs counted so; `null` without pairs. */
  readonly difference: number | null
  /** Its Newcombe interval; `null` without pairs. */
  readonly difference_interval: readonly [number, number] | null
}

/**
 * One split's pairs with each undecided pair counted against `against` ({@link UndecidedCase}): the
 * worst case for B by default; against A, the best case for B (B accepted, A rejected where undecided).
 * @internal
 */
export function undecidedCase<D extends { readonly status: string }>(
  pairs: readonly (readonly [D, D])[],
  isDecided: (side: D) => boolean,
  level: number,
  against: 'b' | 'a' = 'b',
): UndecidedCase {
  const counts = { both: 0, aOnly: 0, bOnly: 0, neither: 0 }
  let undecided = 0
  for (const [left, right] of pairs) {
    if (!isDecided(left) || !isDecided(right)) undecided++
    const a = isDecided(left) ? left.status === 'accepted' : against === 'b'
    const b = isDecided(right) ? right.status === 'accepted' : against === 'a'
    if (a && b) counts.both++
    else if (a) counts.aOnly++
    else if (b) counts.bOnly++
    else counts.neither++
  }
  const worst = figures(counts, level)
  return { undecided, n: worst.n, table: worst.table, difference: worst.difference, difference_interval: worst.difference_interval }
}

/** The worst case in words, or `null` when no pair is undecided. @internal */
export function worstCaseLine(worst: UndecidedCase, nouns: { readonly accepted: string; readonly rejected: string } = ACCEPTANCE_NOUNS): string | null {
  if (worst.undecided === 0 || worst.difference === null) return null
  return (
    `worst case for B: with the ${plural(worst.undecided, 'undecided pair')} counted against B (B ${nouns.rejected}, A ${nouns.accepted} where undecided), ` +
    `B − A = ${points(worst.difference)} points, 95% interval ${pointsInterval(worst.difference_interval)} over ${plural(worst.n, 'pair')}`
  )
}

/** The words of a criteria fixture's decisions. @internal */
export const ACCEPTANCE_NOUNS = { accepted: 'accepted', rejected: 'rejected' } as const

/**
 * The paired figures of a 2×2 table, as `compare --json` prints them.
 * @internal
 */
export function figures(counts: PairedCounts, level: number): PairedFigures {
  const paired = pairedProportions(counts, { level })
  const pair = (interval: { low: number; high: number } | null) => (interval === null ? null : ([interval.low, interval.high] as const))
  return {
    n: paired.n,
    table: { both: counts.both, a_only: counts.aOnly, b_only: counts.bOnly, neither: counts.neither },
    a: { passed: paired.a.passed, rate: paired.a.rate, interval: pair(paired.a.interval) },
    b: { passed: paired.b.passed, rate: paired.b.rate, interval: pair(paired.b.interval) },
    difference: paired.difference,
    difference_interval: pair(paired.differenceInterval),
    mcnemar: { discordant: paired.mcnemar.discordant, p_value: paired.mcnemar.pValue },
    reason: paired.reason,
  }
}

/** Whether a development split is compared: its standing and label. @internal */
export function standingOf(split: Split): { readonly standing: 'result' | 'development'; readonly label: string | null } {
  return split === 'development' ? { standing: 'development', label: DEVELOPMENT_LABEL } : { standing: 'result', label: null }
}

/** A difference of proportions in percentage points, signed: `+37.5`, `−12.5`, `±0.0`. @internal */
export function points(value: number): string {
  return pointsTo(value, 1)
}

/**
 * A bound and the threshold it is read against, in points, with as many decimals as it takes for
 * the two to read differently when they differ (one at least, six at most): a lower bound of
 * −5.04 points is never shown as −5.0 beside a threshold of −5.0.
 * @internal
 */
export function boundAndThreshold(bound: number, threshold: number): readonly [string, string] {
  const rounded = (value: number, digits: number) => Number((100 * value).toFixed(digits))
  let digits = 1
  // Rounding keeps the order of two values but can make them equal: add decimals until it does not.
  while (digits < 6 && bound !== threshold && rounded(bound, digits) === rounded(threshold, digits)) digits++
  return [pointsTo(bound, digits), pointsTo(threshold, digits)]
}

function pointsTo(value: number, digits: number): string {
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(100 * value).toFixed(digits)}`
}

/** An interval of a difference in percentage points: `[−12.5, +69.3]`; `—` without one. @internal */
export function pointsInterval(bounds: readonly [number, number] | null): string {
  return bounds === null ? '—' : `[${points(bounds[0])}, ${points(bounds[1])}]`
}

/** A proportion as a percentage: `62.5%`; `—` without one. @internal */
export const percent = (value: number | null): string => (value === null ? '—' : `${(100 * value).toFixed(1)}%`)
/** An interval of a proportion as percentages: `[30.6%, 86.3%]`; `—` without one. @internal */
export const interval = (bounds: readonly [number, number] | null): string => (bounds === null ? '—' : `[${percent(bounds[0])}, ${percent(bounds[1])}]`)
/** A p-value: three decimals, or in exponent form below 0.001. @internal */
export const pValue = (p: number): string => (p < 0.001 ? p.toExponential(1) : p.toFixed(3))
/** Case ids, comma-separated; `none` for none. @internal */
export const idList = (ids: readonly string[]): string => (ids.length === 0 ? 'none' : ids.join(', '))

/** The difference B − A of one table, in words: its points, interval and test; or why there is none. @internal */
export function differenceLine(figures: PairedFigures): string {
  if (figures.difference === null) return `no figure: ${figures.reason ?? 'no pair'}`
  return (
    `B − A = ${points(figures.difference)} points, 95% interval ${pointsInterval(figures.difference_interval)} (Newcombe, paired); ` +
    `McNemar exact p = ${pValue(figures.mcnemar.p_value)} on ${plural(figures.mcnemar.discordant, 'discordant pair')}`
  )
}

/** The level of a compare gate, as its messages say it. @internal */
export const ONE_SIDED = 'a one-sided test at the 2.5% level'

/** `the lower bound −3.1 is at least −5.0`, with the digits that tell the two apart. @internal */
export function versus(lower: number | null, threshold: number): string {
  if (lower === null) return 'there is no lower bound'
  const [bound, least] = boundAndThreshold(lower, threshold)
  return `the lower bound ${bound} ${lower >= threshold ? 'is at least' : 'is below'} ${least}`
}

/** A margin in points: `5 points`, `2.5 points`, `1 point`. @internal */
export function pointsText(margin: number): string {
  const value = Number((100 * margin).toFixed(2))
  return `${value} point${value === 1 ? '' : 's'}`
}

/** What the comparison of one split gives for every kind: its standing, its coverage, the acceptance of the case, paired, and the discordant cases. */
export interface PairedSplitFigures {
  readonly split: Split
  /** `'result'` for held-out cases; `'development'` for development material, which is no result. */
  readonly standing: 'result' | 'development'
  /** The label of development cases; `null` for held-out ones. */
  readonly label: string | null
  readonly coverage: ComparisonCoverage
  /** Acceptance of the case, paired, over the pairs decided (or scoreable) in both. */
  readonly acceptance: PairedFigures
  /** Acceptance with every pair not decided in both counted against B: what the result is if the undecided pairs go as badly for B as they can. */
  readonly worst_case: UndecidedCase
  /** The reverse: every undecided pair counted for B (B accepted, A rejected where undecided). */
  readonly best_case: UndecidedCase
  /** The discordant cases of the pairs decided in both: accepted by A and rejected by B first, then the reverse. */
  readonly discordant: { readonly a_accepted_b_rejected: readonly string[]; readonly b_accepted_a_rejected: readonly string[] }
}
