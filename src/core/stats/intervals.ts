import { bootstrapCases, bootstrapSettings, type BootstrapOptions } from './bootstrap.js'
import { StatisticsInputError } from './errors.js'
import { twoSidedZ } from './normal-quantile.js'
import type { Interval } from './percentile.js'

/** Options of {@link wilsonInterval}. */
export interface WilsonOptions {
  /** Confidence level. @default 0.95 */
  readonly level?: number
}

/**
 * The Wilson (1927) score interval for a binomial proportion successes/n:
 * (s + z²/2 ± z·√(s(n − s)/n + z²/4)) / (n + z²), with z = Φ⁻¹((1 + level)/2). It stays inside
 * [0, 1] and keeps its coverage near 0 and 1, where the Wald interval collapses. `null` for n = 0.
 */
export function wilsonInterval(successes: number, n: number, options: WilsonOptions = {}): Interval | null {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(successes) || successes < 0 || successes > n) {
    throw new StatisticsInputError(`wilsonInterval needs whole numbers 0 ≤ successes ≤ n; found successes ${String(successes)}, n ${String(n)}`)
  }
  const z = twoSidedZ(options.level ?? 0.95)
  if (n === 0) return null
  const z2 = z * z
  const centre = (successes + z2 / 2) / (n + z2)
  const half = (z * Math.sqrt((successes * (n - successes)) / n + z2 / 4)) / (n + z2)
  // At s = 0 (s = n) the bound is 0 (1) exactly; the subtraction would leave a rounding residue.
  return {
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === n ? 1 : Math.min(1, centre + half),
  }
}

/** A mean and its standard error. */
export interface MeanWithError {
  /** `null` when there are no values. */
  readonly mean: number | null
  /** `null` for fewer than two values. */
  readonly se: number | null
  readonly n: number
}

function checkNumbers(values: ArrayLike<number>, caller: string, name: string): void {
  for (let i = 0; i < values.length; i++) {
    if (typeof values[i] !== 'number' || !Number.isFinite(values[i])) {
      throw new StatisticsInputError(`${caller}: ${name}[${i}] must be a finite number; found ${String(values[i])}`)
    }
  }
}

function meanAndError(values: ArrayLike<number>): MeanWithError {
  const n = values.length
  if (n === 0) return { mean: null, se: null, n }
  let sum = 0
  for (let i = 0; i < n; i++) sum += values[i]!
  const mean = sum / n
  if (n < 2) return { mean, se: null, n }
  let squares = 0
  for (let i = 0; i < n; i++) squares += (values[i]! - mean) ** 2
  return { mean, se: Math.sqrt(squares / (n * (n - 1))), n }
}

/**
 * The mean of per-item scores and its standard error SE = √(Σ(sᵢ − s̄)² / (n(n − 1))), the sample
 * standard deviation over √n (Miller 2024, "Adding Error Bars to Evals"). A 95% interval is then
 * about mean ± 1.96·SE when n is not small.
 */
export function meanWithError(values: readonly number[]): MeanWithError {
  checkNumbers(values, 'meanWithError', 'values')
  return meanAndError(values)
}

/** The mean paired difference a − b, its standard error and a paired bootstrap interval. */
export interface PairedDifference {
  readonly n: number
  /** Mean of aᵢ − bᵢ; `null` without pairs. */
  readonly mean: number | null
  /** SE of the differences, as in {@link meanWithError}; `null` for fewer than two pairs. */
  readonly se: number | null
  /** Percentile bootstrap bounds; `null` for fewer than two pairs, where resampling shows no spread. */
  readonly low: number | null
  readonly high: number | null
}

/**
 * Compares two systems scored on the same items: the mean of the differences aᵢ − bᵢ, its SE
 * computed on the differences, and a percentile bootstrap interval that resamples whole pairs, so
 * that what the items share (their difficulty) cancels out of the spread.
 */
export function pairedDifference(pairs: readonly (readonly [number, number])[], options: BootstrapOptions): PairedDifference {
  bootstrapSettings(options)
  if (!Array.isArray(pairs)) throw new StatisticsInputError('pairedDifference: expected an array of [a, b] pairs')
  const differences = new Float64Array(pairs.length)
  for (const [i, pair] of pairs.entries()) {
    if (!Array.isArray(pair) || pair.length !== 2) {
      throw new StatisticsInputError(`pairedDifference: pairs[${i}] must be [a, b], two scores of one item`)
    }
    checkNumbers(pair, 'pairedDifference', `pairs[${i}]`)
    differences[i] = pair[0] - pair[1]
  }
  const { n, mean, se } = meanAndError(differences)
  if (n < 2) return { n, mean, se, low: null, high: null }
  const interval = bootstrapCases(n, options, (draws) => {
    let sum = 0
    for (const i of draws) sum += differences[i]!
    return sum / n
  })
  return { n, mean, se, low: interval?.low ?? null, high: interval?.high ?? null }
}
