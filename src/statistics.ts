/**
 * vitest-rubric/statistics: the figures docs/statistics.md defines, as functions of plain data
 * (reliability data, rating pairs, counts, a sample's labels): agreement, kappa, bootstrap and
 * score intervals, paired tests and the prediction-powered estimates. Malformed input throws a
 * `StatisticsInputError`.
 */

export { StatisticsInputError } from './core/stats/errors.js'
export type { Rating, ReliabilityData } from './core/stats/reliability-data.js'

// Agreement among coders
export {
  krippendorffAlpha,
  alphaBootstrap,
  type AlphaBootstrapOptions,
  type AlphaCounts,
  type AlphaMetric,
  type AlphaResult,
} from './core/stats/krippendorff.js'
export { percentAgreement, gwetAc1, type Ac1Result, type PercentAgreementResult } from './core/stats/agreement.js'
export { cohenKappa, kappaBootstrap, confusionMatrix, type KappaResult, type RatingPair } from './core/stats/cohen-kappa.js'

// Bootstrap intervals and how a report shows one
export {
  MAX_SKIPPED_SHARE,
  MIN_BOOTSTRAP_CASES,
  MIN_POOLED_INTERVAL_CASES,
  reportInterval,
  type BootstrapInterval,
  type BootstrapOptions,
  type IntervalMinimum,
  type IntervalReport,
} from './core/stats/bootstrap.js'
export { percentileInterval, type Interval } from './core/stats/percentile.js'
export { createRandom, type Random } from './core/stats/random.js'

// Intervals and errors
export { wilsonInterval, meanWithError, pairedDifference, type MeanWithError, type PairedDifference, type WilsonOptions } from './core/stats/intervals.js'
export { normalQuantile, twoSidedZ } from './core/stats/normal-quantile.js'

// Paired comparison of two systems
export { newcombePairedInterval, mcnemarExact, type McNemarExact, type PairedCounts, type PairedIntervalOptions } from './core/stats/paired.js'

// Prediction-powered estimates of a rate and of a paired difference
export {
  MIN_PPI_PER_LABEL,
  MIN_PPI_REVIEWS,
  ppiMean,
  type PpiCounts,
  type PpiEstimate,
  type PpiRefusalReason,
  type PpiResult,
  type PpiUnsupported,
  type RateInterval,
} from './core/stats/ppi.js'
export type { PpiInput, PpiOptions, PpiSampledCase } from './core/stats/ppi-input.js'
export {
  MIN_PPI_DISCORDANT,
  ppiDifference,
  type PpiDifferenceEstimate,
  type PpiDifferenceInput,
  type PpiDifferenceRefusalReason,
  type PpiDifferenceResult,
  type PpiDifferenceUnsupported,
  type PpiPairedCase,
} from './core/stats/ppi-difference.js'
