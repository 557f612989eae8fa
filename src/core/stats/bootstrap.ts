import { StatisticsInputError } from './errors.js'
import { checkLevel } from './normal-quantile.js'
import { percentileInterval } from './percentile.js'
import { createRandom } from './random.js'

/** Options of every bootstrap interval of this module. */
export interface BootstrapOptions {
  /** Seed of the resampling: the same seed and data give the same interval, on any platform. */
  readonly seed: number | string
  /** Bootstrap replicates to draw. @default 2000 */
  readonly samples?: number
  /** Confidence level of the interval. @default 0.95 */
  readonly level?: number
}

/** A percentile bootstrap interval and how many replicates it rests on. */
export interface BootstrapInterval {
  readonly low: number
  readonly high: number
  /** Replicates whose statistic was defined: the ones the interval is computed from. */
  readonly samples: number
  /** Replicates drawn whose statistic was undefined (e.g. no variation), left out of the interval. */
  readonly skipped: number
}

/** Default number of bootstrap replicates. */
export const DEFAULT_BOOTSTRAP_SAMPLES = 2000

/** The seed of every interval the package reports unless one is given: a report is the same on every run. */
export const DEFAULT_SEED = 'vitest-rubric'

/**
 * Reads and checks the options of a bootstrap.
 * @internal
 */
export function bootstrapSettings(options: BootstrapOptions): { samples: number; level: number } {
  const samples = options.samples ?? DEFAULT_BOOTSTRAP_SAMPLES
  const level = options.level ?? 0.95
  if (!Number.isInteger(samples) || samples < 1) {
    throw new StatisticsInputError(`bootstrap samples must be a whole number of at least 1; found ${String(samples)}`)
  }
  checkLevel(level)
  return { samples, level }
}

/**
 * The engine of the case-resampling bootstraps: draws `samples` replicates of `cases` cases with
 * replacement, evaluates `statistic` on each and returns the percentile interval of the defined
 * values; `null` when no replicate is defined.
 *
 * Replicate r (r = 0, 1, …) fills `draws` with `cases` indices, each `randomIndex(random, cases)`
 * in turn, from one `createRandom(seed)`: that order is what makes a seed reproducible. `draws` is
 * reused between replicates, so `statistic` must not keep it.
 * @internal
 */
export function bootstrapCases(
  cases: number,
  options: BootstrapOptions,
  statistic: (draws: Uint32Array) => number | null,
): BootstrapInterval | null {
  const { samples, level } = bootstrapSettings(options)
  if (!Number.isInteger(cases) || cases < 1) {
    throw new StatisticsInputError(`a bootstrap needs at least one case; found ${String(cases)}`)
  }
  const random = createRandom(options.seed)
  const draws = new Uint32Array(cases)
  const values = new Float64Array(samples)
  let defined = 0
  for (let replicate = 0; replicate < samples; replicate++) {
    // Inlined randomIndex (same result): `cases` was checked once above, not once per draw.
    for (let index = 0; index < cases; index++) draws[index] = Math.floor(random() * cases)
    const value = statistic(draws)
    if (value !== null) values[defined++] = value
  }
  const interval = percentileInterval(values.subarray(0, defined), level)
  if (interval === null) return null
  return { low: interval.low, high: interval.high, samples: defined, skipped: samples - defined }
}
