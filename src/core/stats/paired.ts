import { StatisticsInputError } from './errors.js'
import { wilsonInterval } from './intervals.js'
import { twoSidedZ } from './normal-quantile.js'
import type { Interval } from './percentile.js'

/**
 * The paired 2×2 table of two systems A and B judged on the same items: how many items both
 * passed, A alone, B alone, and neither. Only items judged for both systems belong in it.
 */
export interface PairedCounts {
  /** Passed by both A and B. */
  readonly both: number
  /** Passed by A, failed by B. */
  readonly aOnly: number
  /** Failed by A, passed by B. */
  readonly bOnly: number
  /** Failed by both. */
  readonly neither: number
}

/** Options of {@link newcombePairedInterval} and {@link pairedProportions}. */
export interface PairedIntervalOptions {
  /** Confidence level. @default 0.95 */
  readonly level?: number
}

function checkCounts(counts: PairedCounts, caller: string): number {
  for (const cell of ['both', 'aOnly', 'bOnly', 'neither'] as const) {
    const value = counts[cell]
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new StatisticsInputError(`${caller}: counts.${cell} must be a whole number of items, 0 or more; found ${String(value)}`)
    }
  }
  return counts.both + counts.aOnly + counts.bOnly + counts.neither
}

/**
 * The difference of pass rates B − A = (bOnly − aOnly)/n with Newcombe's score-based interval for
 * paired proportions: method 10 of Newcombe (1998), "Improved confidence intervals for the
 * difference between binomial proportions based on paired data", Statistics in Medicine 17,
 * 2635–2650. It combines the Wilson intervals of the two marginal rates, corrected for their
 * correlation φ, which is taken as 0 when the concordance ad − bc is positive but at most n/2.
 * `null` for an empty table, where no rate is defined.
 */
export function newcombePairedInterval(counts: PairedCounts, options: PairedIntervalOptions = {}): (Interval & { readonly difference: number }) | null {
  const n = checkCounts(counts, 'newcombePairedInterval')
  twoSidedZ(options.level ?? 0.95) // checks the level before anything is returned
  if (n === 0) return null
  // In Newcombe's notation the first proportion is B's: p1 = (e + f)/n with e = both, f = bOnly.
  const e = counts.both
  const f = counts.bOnly
  const g = counts.aOnly
  const h = counts.neither
  const p1 = (e + f) / n
  const p2 = (e + g) / n
  // Cast: n > 0 here, and Wilson's interval is null only for n = 0.
  const first = wilsonInterval(e + f, n, options) as Interval
  // Cast: as above.
  const second = wilsonInterval(e + g, n, options) as Interval
  const concordance = e * h - f * g
  const margins = (e + f) * (g + h) * (e + g) * (f + h)
  let phi = 0
  if (margins > 0) {
    const numerator = concordance > 0 ? Math.max(concordance - n / 2, 0) : concordance
    phi = numerator / Math.sqrt(margins)
  }
  const difference = (f - g) / n
  const dl1 = p1 - first.low
  const du1 = first.high - p1
  const dl2 = p2 - second.low
  const du2 = second.high - p2
  // Rounding can leave a square a hair below 0 when φ is near 1; it is 0.
  const low = difference - Math.sqrt(Math.max(0, dl1 * dl1 - 2 * phi * dl1 * du2 + du2 * du2))
  const high = difference + Math.sqrt(Math.max(0, dl2 * dl2 - 2 * phi * dl2 * du1 + du1 * du1))
  return { difference, low: Math.max(-1, low), high: Math.min(1, high) }
}

/** McNemar's exact test of the discordant pairs. */
export interface McNemarExact {
  /** aOnly + bOnly: the pairs the test rests on. */
  readonly discordant: number
  /**
   * Two-sided p-value: 2 · P(X ≤ min(aOnly, bOnly)) for X ~ Binomial(discordant, ½), at most 1.
   * 1 when there is no discordant pair, the only outcome the test could have seen.
   */
  readonly pValue: number
}

/**
 * McNemar's exact (binomial) test that A and B pass as often: under the null hypothesis each
 * discordant pair is as likely to favour A as B. Concordant pairs carry no information.
 */
export function mcnemarExact(counts: PairedCounts): McNemarExact {
  checkCounts(counts, 'mcnemarExact')
  const discordant = counts.aOnly + counts.bOnly
  const smaller = Math.min(counts.aOnly, counts.bOnly)
  if (discordant === 0 || 2 * smaller === discordant) return { discordant, pValue: 1 }
  // Terms C(m, k)·2⁻ᵐ in log space: 2⁻ᵐ alone underflows past m = 1074.
  const logs: number[] = []
  let log = -discordant * Math.LN2
  for (let k = 0; k <= smaller; k++) {
    if (k > 0) log += Math.log((discordant - k + 1) / k)
    logs.push(log)
  }
  const top = logs.at(-1) ?? 0
  let sum = 0
  for (const value of logs) sum += Math.exp(value - top)
  return { discordant, pValue: Math.min(1, 2 * Math.exp(top) * sum) }
}

/** One system's pass rate over the paired items, with its Wilson interval. */
export interface PairedRate {
  readonly passed: number
  /** `null` without pairs. */
  readonly rate: number | null
  /** `null` without pairs. */
  readonly interval: Interval | null
}

/** The paired figures of a 2×2 table: each system's rate, the difference B − A with its interval, McNemar's test. */
export interface PairedProportions {
  readonly counts: PairedCounts
  /** Items in the table. */
  readonly n: number
  readonly a: PairedRate
  readonly b: PairedRate
  /** (bOnly − aOnly)/n; `null` without pairs. */
  readonly difference: number | null
  /** Newcombe's method 10 interval of the difference; `null` without pairs. */
  readonly differenceInterval: Interval | null
  readonly mcnemar: McNemarExact
  /** Why the rates and the difference are `null`; `null` when they are not. */
  readonly reason: string | null
}

/** Every paired figure of a 2×2 table, computed once: see {@link newcombePairedInterval} and {@link mcnemarExact}. */
export function pairedProportions(counts: PairedCounts, options: PairedIntervalOptions = {}): PairedProportions {
  const n = checkCounts(counts, 'pairedProportions')
  const interval = newcombePairedInterval(counts, options)
  const rate = (passed: number): PairedRate => ({ passed, rate: n === 0 ? null : passed / n, interval: wilsonInterval(passed, n, options) })
  return {
    counts: { both: counts.both, aOnly: counts.aOnly, bOnly: counts.bOnly, neither: counts.neither },
    n,
    a: rate(counts.both + counts.aOnly),
    b: rate(counts.both + counts.bOnly),
    difference: interval?.difference ?? null,
    differenceInterval: interval === null ? null : { low: interval.low, high: interval.high },
    mcnemar: mcnemarExact(counts),
    reason: n === 0 ? 'no pair is decided for both systems' : null,
  }
}
