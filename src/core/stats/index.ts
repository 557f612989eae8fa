export { percentAgreement, gwetAc1, type PercentAgreementResult, type Ac1Result } from './agreement.js'
export {
  DEFAULT_BOOTSTRAP_SAMPLES,
  DEFAULT_SEED,
  MAX_SKIPPED_SHARE,
  MIN_BOOTSTRAP_CASES,
  MIN_POOLED_INTERVAL_CASES,
  POOLED_INTERVAL_MINIMUM,
  reportInterval,
  type IntervalMinimum,
  type BootstrapOptions,
  type BootstrapInterval,
  type IntervalReport,
} from './bootstrap.js'
export { cohenKappa, kappaBootstrap, confusionMatrix, type KappaResult, type RatingPair } from './cohen-kappa.js'
export { StatisticsInputError } from './errors.js'
export { wilsonInterval, meanWithError, pairedDifference, type WilsonOptions, type MeanWithError, type PairedDifference } from './intervals.js'
export { krippendorffAlpha, alphaBootstrap, type AlphaBootstrapOptions, type AlphaMetric, type AlphaResult } from './krippendorff.js'
export { normalQuantile, twoSidedZ } from './normal-quantile.js'
export { percentileInterval, quantileSorted, type Interval } from './percentile.js'
export type { Rating, ReliabilityData } from './reliability-data.js'
export { createRandom, randomIndex, hashString, type Random } from './random.js'
export {
  newcombePairedInterval,
  mcnemarExact,
  pairedProportions,
  type PairedCounts,
  type PairedIntervalOptions,
  type McNemarExact,
  type PairedRate,
  type PairedProportions,
} from './paired.js'
export {
  MIN_PPI_PER_LABEL,
  MIN_PPI_REVIEWS,
  ppiMean,
  tunedLambda,
  type PpiCounts,
  type PpiEstimate,
  type PpiRefusalReason,
  type PpiResult,
  type PpiUnsupported,
  type RateInterval,
} from './ppi.js'
export { designMoments, type DesignMoments, type WeightedUnit } from './ppi-design.js'
export type { PpiInput, PpiOptions, PpiSampledCase } from './ppi-input.js'
export {
  MIN_PPI_DISCORDANT,
  ppiDifference,
  type PpiDifferenceEstimate,
  type PpiDifferenceInput,
  type PpiDifferenceRefusalReason,
  type PpiDifferenceResult,
  type PpiDifferenceUnsupported,
  type PpiPairedCase,
} from './ppi-difference.js'
