import { StatisticsInputError } from './errors.js'
import { checkLevel } from './normal-quantile.js'

/** One case drawn into the human sample, by a design that gave it a known inclusion probability. */
export interface PpiSampledCase {
  /** Its position in {@link PpiInput.judge}. */
  readonly index: number
  /**
   * π, the probability that the design drew this case, in (0, 1]: n/N for a uniform draw of n
   * among N, n_h/N_h in stratum h of a stratified one, the case's own probability in an active one.
   */
  readonly probability: number
  /** The decided human label, 1 (accepted, meets) or 0; `null` while the case is pending. */
  readonly human: 0 | 1 | null
  /** The stratum the design drew it from, if the design was stratified: the variance is then computed within strata. */
  readonly stratum?: string
}

/** What a prediction-powered estimate of a rate is computed from: every case of a split, a sample of them reviewed. */
export interface PpiInput {
  /** The judge's label f(Xᵢ) ∈ [0, 1] of every case of the split (N of them); `null` where the judge gave none. */
  readonly judge: readonly (number | null)[]
  /** The cases drawn for human review, each at most once. */
  readonly sample: readonly PpiSampledCase[]
}

/** Options of {@link ppiMean}. */
export interface PpiOptions {
  /** Confidence level of the intervals. @default 0.95 */
  readonly level?: number
  /** λ: `'tuned'` for PPI++'s power tuning, or a fixed value in [0, 1] (1 is the original PPI, 0 the human-only estimate). @default 'tuned' */
  readonly lambda?: 'tuned' | number
  /**
   * What the interval is about: `'split'`, the rate over the N cases of the split, whose only
   * randomness is the design's draw; `'system'`, the rate of the process the N cases were drawn
   * from, which adds the spread of a rate over N cases, s²_Y/N. @default 'split'
   */
  readonly estimand?: 'split' | 'system'
  /** Give the interval's worst case over the pending sampled cases. @default true */
  readonly worstCase?: boolean
}

/** A validated input: the judge labels as numbers, the sampled cases split into decided and pending. */
export interface CheckedInput {
  readonly judge: readonly (number | null)[]
  readonly decided: readonly PpiSampledCase[]
  readonly pending: readonly PpiSampledCase[]
  readonly level: number
  readonly lambda: 'tuned' | number
  readonly estimand: 'split' | 'system'
  readonly worstCase: boolean
}

function fail(message: string): never {
  throw new StatisticsInputError(`ppiMean: ${message}`)
}

/** Throws a {@link StatisticsInputError} naming the first value that is not of the documented shape. */
export function checkPpiInput(input: PpiInput, options: PpiOptions): CheckedInput {
  const level = options.level ?? 0.95
  checkLevel(level)
  const lambda = options.lambda ?? 'tuned'
  if (lambda !== 'tuned' && !(typeof lambda === 'number' && lambda >= 0 && lambda <= 1)) {
    fail(`options.lambda must be 'tuned' or a number in [0, 1]; found ${String(lambda)}`)
  }
  const estimand = options.estimand ?? 'split'
  if (estimand !== 'split' && estimand !== 'system') fail(`options.estimand must be 'split' or 'system'; found ${String(estimand)}`)
  if (typeof input !== 'object' || input === null || !Array.isArray(input.judge) || !Array.isArray(input.sample)) {
    fail('expected { judge: (number | null)[], sample: { index, probability, human }[] }')
  }
  const { judge, sample } = input
  for (const [i, f] of judge.entries()) {
    if (f !== null && !(typeof f === 'number' && f >= 0 && f <= 1)) fail(`judge[${i}] must be a number in [0, 1] or null; found ${String(f)}`)
  }
  const seen = new Set<number>()
  const decided: PpiSampledCase[] = []
  const pending: PpiSampledCase[] = []
  for (const [j, drawn] of sample.entries()) {
    if (typeof drawn !== 'object' || drawn === null) fail(`sample[${j}] must be { index, probability, human }; found ${String(drawn)}`)
    const { index, probability, human, stratum } = drawn
    if (!Number.isInteger(index) || index < 0 || index >= judge.length) {
      fail(`sample[${j}].index must be a whole number from 0 to ${judge.length - 1} (a case of judge); found ${String(index)}`)
    }
    if (seen.has(index)) fail(`sample[${j}].index ${index} is drawn twice: a case is in the sample once, with its inclusion probability`)
    seen.add(index)
    if (!(typeof probability === 'number' && probability > 0 && probability <= 1)) {
      fail(`sample[${j}].probability must be an inclusion probability in (0, 1]; found ${String(probability)}`)
    }
    if (human !== 0 && human !== 1 && human !== null) fail(`sample[${j}].human must be 1, 0 or null (pending); found ${String(human)}`)
    if (stratum !== undefined && typeof stratum !== 'string') fail(`sample[${j}].stratum must be a string when given; found ${String(stratum)}`)
    if ((stratum === undefined) !== (sample[0]?.stratum === undefined)) {
      fail(`sample[${j}].stratum is ${stratum === undefined ? 'missing' : 'given'} where sample[0]'s is not: a design is stratified for every case or none`)
    }
    ;(human === null ? pending : decided).push(drawn)
  }
  return { judge, decided, pending, level, lambda, estimand, worstCase: options.worstCase ?? true }
}
