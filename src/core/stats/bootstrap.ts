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
  /** Cases drawn, with replacement, into each replicate: the resampling units (units, pairs or clusters). */
  readonly cases: number
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
export function bootstrapCases(cases: number, options: BootstrapOptions, statistic: (draws: Uint32Array) => number | null): BootstrapInterval | null {
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
  return { low: interval.low, high: interval.high, cases, samples: defined, skipped: samples - defined }
}

/**
 * Below this many resampled cases a percentile bootstrap interval is not reported: with n cases
 * there are at most C(2n − 1, n) distinct replicates (one for n = 1, three for n = 2, 35 for
 * n = 4), so the interval is a handful of values and can collapse to a point that claims a
 * precision the data do not have.
 */
export const MIN_BOOTSTRAP_CASES = 10

/**
 * Below this many cases a pooled alpha interval (several criteria of each case, resampled
 * together) is not reported. In the simulation of docs/statistics.md (test/bench/alpha-coverage.mjs:
 * 5 correlated criteria, 3 reviewers, 5,000 panels per size), its 95% interval covered the true
 * alpha in 90.5% of panels of 10 cases, 91.9% of 15 and 92.8% of 20, and in at least 93% from 25 on.
 */
export const MIN_POOLED_INTERVAL_CASES = 25

/** Above this share of skipped replicates (no variation), an interval is reported as unreliable. */
export const MAX_SKIPPED_SHARE = 0.2

/** A bootstrap interval as a report shows it: what it resampled, what it skipped, or why there is none. */
export interface IntervalReport {
  /** [low, high]; `null` with `reason`. */
  readonly ci: readonly [number, number] | null
  /** Why there is no interval: no point estimate, too few cases, or no defined replicate. */
  readonly reason: string | null
  /** What was resampled, and how much of it. `null` when nothing was drawn. */
  readonly bootstrap: {
    /** The resampling unit, in words: `cases`. */
    readonly resampled: string
    /** Resampling units drawn into each replicate. */
    readonly cases: number
    /** Replicates drawn. */
    readonly replicates: number
    /** Of them, replicates without a defined statistic (no variation), left out of the interval. */
    readonly skipped: number
    /** skipped / replicates. */
    readonly skipped_share: number
    /** Whether skipped_share is above {@link MAX_SKIPPED_SHARE}: the interval rests on the replicates that happened to vary. */
    readonly unreliable: boolean
  } | null
}

/** A larger minimum than {@link MIN_BOOTSTRAP_CASES} for one kind of interval, and why. */
export interface IntervalMinimum {
  /** Resampling units below which no interval is reported. */
  readonly cases: number
  /** What needs them: `a pooled interval`. */
  readonly what: string
  /** Why, in words, after the count. */
  readonly why: string
}

/** The pooled alpha interval's minimum: {@link MIN_POOLED_INTERVAL_CASES}, with the coverage it rests on. */
export const POOLED_INTERVAL_MINIMUM: IntervalMinimum = {
  cases: MIN_POOLED_INTERVAL_CASES,
  what: 'a pooled interval',
  why: `below ${MIN_POOLED_INTERVAL_CASES} cases its 95% interval covered the true alpha in under 93% of simulated panels (docs/statistics.md)`,
}

/**
 * The reporting rule shared by every interval of a report: no interval for fewer than
 * {@link MIN_BOOTSTRAP_CASES} resampling units (or `minimum`'s, when it is given and larger), and
 * the share of skipped replicates always stated, flagged above {@link MAX_SKIPPED_SHARE}. `draw`
 * runs the bootstrap; it is not called below the minimum.
 */
export function reportInterval(cases: number, resampled: string, draw: () => BootstrapInterval | null, minimum?: IntervalMinimum): IntervalReport {
  if (cases < MIN_BOOTSTRAP_CASES) {
    return { ci: null, reason: `${resampled} to resample: ${cases}, fewer than the ${MIN_BOOTSTRAP_CASES} a bootstrap interval needs`, bootstrap: null }
  }
  if (minimum !== undefined && cases < minimum.cases) {
    return { ci: null, reason: `${resampled} to resample: ${cases}, fewer than the ${minimum.cases} ${minimum.what} needs: ${minimum.why}`, bootstrap: null }
  }
  const interval = draw()
  if (interval === null) return { ci: null, reason: 'no replicate had variation', bootstrap: null }
  const replicates = interval.samples + interval.skipped
  const skippedShare = interval.skipped / replicates
  return {
    ci: [interval.low, interval.high],
    reason: null,
    bootstrap: {
      resampled,
      cases: interval.cases,
      replicates,
      skipped: interval.skipped,
      skipped_share: skippedShare,
      unreliable: skippedShare > MAX_SKIPPED_SHARE,
    },
  }
}
