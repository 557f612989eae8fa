import { StatisticsInputError } from './errors.js'
import { checkLevel } from './normal-quantile.js'

/** A two-sided interval. */
export interface Interval {
  readonly low: number
  readonly high: number
}

/**
 * The `p`-quantile of ascending `sorted` by linear interpolation between order statistics
 * (Hyndman & Fan type 7, the default of R's `quantile` and NumPy's `percentile`): with
 * h = (N − 1)·p, the value x₍⌊h⌋₎ + (h − ⌊h⌋)·(x₍⌊h⌋+1₎ − x₍⌊h⌋₎), counting from 0.
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const h = (sorted.length - 1) * p
  const below = Math.floor(h)
  const lower = sorted[below]!
  const upper = sorted[Math.min(below + 1, sorted.length - 1)]!
  return lower + (h - below) * (upper - lower)
}

/**
 * The central `level` interval of a sample, as used by every bootstrap of this module (the
 * percentile method): the type 7 quantiles at (1 − level)/2 and (1 + level)/2, see
 * {@link quantileSorted}. The samples need not be sorted (a sorted copy is taken); `null` when there
 * are none.
 *
 * @param level confidence level, strictly between 0 and 1. @default 0.95
 */
export function percentileInterval(samples: ArrayLike<number>, level = 0.95): Interval | null {
  checkLevel(level)
  if (samples.length === 0) return null
  const sorted = Float64Array.from(samples)
  for (const [index, value] of sorted.entries()) {
    if (Number.isNaN(value)) throw new StatisticsInputError(`percentileInterval needs numbers; samples[${index}] is NaN`)
  }
  sorted.sort()
  const tail = (1 - level) / 2
  return { low: quantileSorted(sorted, tail), high: quantileSorted(sorted, 1 - tail) }
}
