/**
 * Prediction-powered inference of a rate over every case of a split (docs/statistics.md#prediction-powered-estimate-of-a-rate):
 * the judge's labels on all N cases, corrected by the human labels of a sample drawn with known
 * inclusion probabilities.
 */
import { judgeRate, smallStratumRefusal, type WeightedUnit } from './ppi-design.js'
import { checkPpiInput, type CheckedInput, type PpiInput, type PpiOptions, type PpiSampledCase } from './ppi-input.js'
import { rectifiedEstimate, type RateInterval, type RectifiedResult } from './ppi-rectified.js'

export { tunedLambda, type RateInterval } from './ppi-rectified.js'

/** Below this many decided sampled cases the estimate is refused: the normal approximation is not to be trusted. */
export const MIN_PPI_REVIEWS = 30
/** Below this many decided sampled cases of either human label (0 or 1) the estimate is refused. */
export const MIN_PPI_PER_LABEL = 5

/** How many cases an estimate was computed from. */
export interface PpiCounts {
  /** N: the cases of the split, each with a judge label. */
  readonly cases: number
  /** Cases drawn into the sample. */
  readonly sampled: number
  /** Sampled cases with a decided human label: the n the estimate uses. */
  readonly decided: number
  /** Sampled cases still pending. */
  readonly pending: number
}

/** A prediction-powered estimate of a rate, beside the figures it improves on. */
export interface PpiEstimate extends PpiCounts, RateInterval, PpiStanding {
  readonly status: 'estimate'
  readonly level: number
  /** What the interval is about: the split's own rate, or the system's (see {@link PpiOptions}). */
  readonly estimand: 'split' | 'system'
  /** The λ used: PPI++'s tuned value, or the one given. */
  readonly lambda: number
  /** The human-only (classical) estimate and interval on the same decided sample, with the same weights. */
  readonly classical: RateInterval
  /** The judge's rate over all N cases: biased by the judge's errors, never an estimate of the human rate. */
  readonly judgeOnly: { readonly rate: number; readonly biased: true }
}

/** What every prediction-powered estimate says of its own weight and completeness. */
export interface PpiStanding {
  /** n · v_classical / v_ppi: how many human reviews, sampled alike, the human-only interval would need to be as narrow. */
  readonly effectiveReviews: number
  /** False while sampled cases are pending: the estimate then treats them as missing at random. */
  readonly complete: boolean
  /**
   * When cases are pending (and the `worstCase` option is on): bounds that contain the interval the
   * complete sample would give at this λ, whatever labels the pending cases get, and this interval.
   * `null` otherwise.
   */
  readonly worstCase: { readonly low: number; readonly high: number } | null
}

/** Why an estimate was refused. */
export type PpiRefusalReason = 'judge-missing' | 'too-few-reviews' | 'too-few-per-label' | 'stratum-too-small' | 'degenerate-variance'

/** No number, and why: the estimate could not be trusted. */
export interface PpiRefused<Reason extends string> extends PpiCounts {
  readonly status: 'unsupported'
  readonly reason: Reason
  /** The reason in words, with the figures that caused it and what to do. */
  readonly message: string
}

/** A refused estimate of a rate. */
export type PpiUnsupported = PpiRefused<PpiRefusalReason>

/** A prediction-powered estimate, or its refusal with the reason. */
export type PpiResult = PpiEstimate | PpiUnsupported

function refusalOf(checked: CheckedInput, counts: PpiCounts): { reason: PpiRefusalReason; message: string } | null {
  const missing = checked.judge.reduce<number>((sum, f) => sum + (f === null ? 1 : 0), 0)
  if (missing > 0) {
    const first = checked.judge.indexOf(null)
    return {
      reason: 'judge-missing',
      message: `${missing} of ${counts.cases} cases have no judge label (the first is case ${first}): the judge's rate would not be over every case; run the judge on them`,
    }
  }
  if (counts.decided < MIN_PPI_REVIEWS) {
    return {
      reason: 'too-few-reviews',
      message: `${counts.decided} sampled cases are decided (${counts.pending} pending); an estimate needs at least ${MIN_PPI_REVIEWS}: review more of the sample`,
    }
  }
  const accepted = checked.decided.filter(({ human }) => human === 1).length
  const fewest = Math.min(accepted, counts.decided - accepted)
  if (fewest < MIN_PPI_PER_LABEL) {
    return {
      reason: 'too-few-per-label',
      message: `${accepted} of the ${counts.decided} decided sampled cases have the human label 1 and ${counts.decided - accepted} the label 0; an estimate needs at least ${MIN_PPI_PER_LABEL} of each, or the normal approximation fails near 0 and 1: review more of the sample`,
    }
  }
  return smallStratumRefusal([...checked.decided, ...checked.pending], ({ human }) => human !== null, 'case')
}

/**
 * The prediction-powered estimate of a rate over all N cases of a split (PPI++, Angelopoulos,
 * Duchi & Zrnic 2023), with inverse-probability weights for non-uniform designs:
 * θ̂ = λ·f̄_N + Σ wⱼ(Yⱼ − λfⱼ) / Σ wⱼ over the decided sampled cases, wⱼ = 1/πⱼ, and its
 * interval θ̂ ± t_ν·√v, v the design variance of the rectifier's Hájek mean (plus s²_Y/N for the
 * system's rate) and t_ν Student's t at Satterthwaite's degrees of freedom of v. Refused, with the reason, where it cannot be trusted.
 * Throws a `StatisticsInputError` on malformed input.
 */
export function ppiMean(input: PpiInput, options: PpiOptions = {}): PpiResult {
  const checked = checkPpiInput(input, options)
  const counts: PpiCounts = {
    cases: checked.judge.length,
    sampled: checked.decided.length + checked.pending.length,
    decided: checked.decided.length,
    pending: checked.pending.length,
  }
  const refusal = refusalOf(checked, counts)
  if (refusal !== null) return { status: 'unsupported', ...refusal, ...counts }
  // Cast: refusalOf refused a case without a judge label ('judge-missing'), so every label is a number.
  const judge = checked.judge as readonly number[]
  const judgeMean = judgeRate(judge)
  const unitOf = (drawn: PpiSampledCase): WeightedUnit => ({
    probability: drawn.probability,
    human: drawn.human ?? 0,
    judge: judge[drawn.index]!,
    stratum: drawn.stratum ?? '',
  })
  const result = rectifiedEstimate({
    decided: checked.decided.map(unitOf),
    // A pending case's label is still 0 or 1.
    pending: checked.pending.map((drawn) => ({ ...unitOf(drawn), low: 0, high: 1 })),
    judgeMean,
    cases: counts.cases,
    level: checked.level,
    lambda: checked.lambda,
    estimand: checked.estimand,
    worstCase: checked.worstCase,
    range: [0, 1],
  })
  if (result.status === 'degenerate')
    return degenerateRefusal(
      counts,
      result.constant === 'human'
        ? 'the human labels do not vary within any stratum, so the normal interval would have no width: review more of the sample, or draw it with fewer strata'
        : `the judge agrees with every decided review (human − λ·judge is constant within every stratum, λ = ${result.lambda}), so the sample cannot tell how often it errs and the interval would have no width: review more of the sample, or read the human-only interval`,
    )
  return {
    status: 'estimate',
    level: checked.level,
    estimand: checked.estimand,
    ...estimatedFigures(result, counts, { judgeOnly: { rate: judgeMean, biased: true } as const }),
  }
}

/** @internal The refusal of an estimate whose interval would have no width, worded for what is estimated. */
export function degenerateRefusal(counts: PpiCounts, message: string): PpiRefused<'degenerate-variance'> {
  return { status: 'unsupported', reason: 'degenerate-variance', message, ...counts }
}

/**
 * @internal What every estimate that was not refused says of itself: its λ, counts, interval, the
 * human-only one, then what is its `own` (the judge-only figures), then its standing.
 */
export function estimatedFigures<Own extends object>(
  result: Extract<RectifiedResult, { status: 'estimate' }>,
  counts: PpiCounts,
  own: Own,
): PpiCounts & RateInterval & PpiStanding & { readonly lambda: number; readonly classical: RateInterval } & Own {
  return {
    lambda: result.lambda,
    ...counts,
    ...result.interval,
    classical: result.classical,
    ...own,
    effectiveReviews: result.effectiveReviews,
    complete: counts.pending === 0,
    worstCase: result.worstCase,
  }
}
