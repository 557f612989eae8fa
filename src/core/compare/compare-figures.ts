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
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(100 * value).toFixed(1)}`
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
