/**
 * Prediction-powered inference of a rate over every case of a split (docs/statistics.md#prediction-powered-estimate-of-a-rate):
 * the judge's labels on all N cases, corrected by the human labels of a sample drawn with known
 * inclusion probabilities.
 */
import { designMoments, judgeRate, strataOf, type DesignMoments, type WeightedUnit } from './ppi-design.js'
import { checkPpiInput, type CheckedInput, type PpiInput, type PpiOptions } from './ppi-input.js'
import { twoSidedZ } from './normal-quantile.js'

/** Below this many decided sampled cases the estimate is refused: the normal approximation is not to be trusted. */
export const MIN_PPI_REVIEWS = 30
/** Below this many decided sampled cases of either human label (0 or 1) the estimate is refused. */
export const MIN_PPI_PER_LABEL = 5

/** A point estimate, its standard error and its interval, clipped to [0, 1]. */
export interface RateInterval {
  readonly estimate: number
  readonly se: number
  readonly low: number
  readonly high: number
}

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
export interface PpiEstimate extends PpiCounts, RateInterval {
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
export interface PpiUnsupported extends PpiCounts {
  readonly status: 'unsupported'
  readonly reason: PpiRefusalReason
  /** The reason in words, with the figures that caused it and what to do. */
  readonly message: string
}

/** A prediction-powered estimate, or its refusal with the reason. */
export type PpiResult = PpiEstimate | PpiUnsupported

function clip(x: number): number {
  return Math.min(1, Math.max(0, x))
}

function interval(estimate: number, variance: number, z: number): RateInterval {
  const se = Math.sqrt(variance)
  return { estimate, se, low: clip(estimate - z * se), high: clip(estimate + z * se) }
}

/**
 * PPI++'s power tuning for this setting: the λ in [0, 1] that minimises the estimated variance
 * v(Ȳ_w) − 2λ·v(Ȳ_w, f̄_w) + λ²·v(f̄_w), that is v(Ȳ_w, f̄_w) / v(f̄_w); 0 when the judge labels
 * of the sample do not vary within any stratum (`judgeVaries` false: then λ changes nothing the
 * design can see, and v(f̄_w) is a rounding residue). PPI++'s Cov(Y, f) / ((1 + n/N)·Var(f)) (Angelopoulos, Duchi & Zrnic
 * 2023) is for an unlabelled set drawn apart from the labelled one; here the judge's mean is taken
 * over every case, the sampled ones included, and the (1 + n/N) drops out (docs/statistics.md).
 */
export function tunedLambda(moments: DesignMoments, judgeVaries: boolean): number {
  if (!judgeVaries || !(moments.judgeVariance > 0)) return 0
  return clip(moments.covariance / moments.judgeVariance)
}

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
  const decidedPerStratum = new Map<string, number>()
  for (const { stratum, human } of [...checked.decided, ...checked.pending]) {
    const key = stratum ?? ''
    decidedPerStratum.set(key, (decidedPerStratum.get(key) ?? 0) + (human === null ? 0 : 1))
  }
  for (const [stratum, decided] of decidedPerStratum) {
    if (decided < 2) {
      return {
        reason: 'stratum-too-small',
        message: `stratum ${JSON.stringify(stratum)} has ${decided} decided sampled case${decided === 1 ? '' : 's'}; each stratum needs 2 for its variance: review more of it`,
      }
    }
  }
  return null
}

function constantWithinStrata(units: readonly Unit[], value: (unit: Unit) => number): boolean {
  return strataOf(units).every((stratum) => stratum.every((unit) => value(unit) === value(stratum[0]!)))
}

interface Unit extends WeightedUnit {
  readonly pending: boolean
}

/**
 * Bounds on the interval that the complete sample would give at λ, over every labelling of the
 * pending cases. The point estimate is increasing in each label, so it lies between all-0 and all-1.
 * Each zⱼ = wⱼ(eⱼ − R̂)/W lies in [Lⱼ, Uⱼ], over either label of a pending case and R̂ anywhere
 * between those two rectifier means; so zⱼ − z̄_h lies in [Lⱼ − mean_h U, Uⱼ − mean_h L], and the
 * variance is bounded term by term by the larger square of its ends (and s²_Y, for the system, by n/(n − 1)·¼).
 */
function worstCaseBounds(units: readonly Unit[], lambda: number, judgeMean: number, spreadCases: number | null, z: number): { low: number; high: number } {
  let weight = 0
  let lowSum = 0
  let highSum = 0
  for (const unit of units) {
    weight += 1 / unit.probability
    lowSum += ((unit.pending ? 0 : unit.human) - lambda * unit.judge) / unit.probability
    highSum += ((unit.pending ? 1 : unit.human) - lambda * unit.judge) / unit.probability
  }
  const rectifierLow = lowSum / weight
  const rectifierHigh = highSum / weight
  let variance = spreadCases === null ? 0 : units.length / (units.length - 1) / 4 / spreadCases
  for (const stratum of strataOf(units)) {
    const ranges = stratum.map((unit) => {
      const low = (unit.pending ? 0 : unit.human) - lambda * unit.judge
      const high = (unit.pending ? 1 : unit.human) - lambda * unit.judge
      const scale = 1 / unit.probability / weight
      return { low: scale * (low - rectifierHigh), high: scale * (high - rectifierLow) }
    })
    const meanLow = ranges.reduce((sum, range) => sum + range.low, 0) / stratum.length
    const meanHigh = ranges.reduce((sum, range) => sum + range.high, 0) / stratum.length
    let squares = 0
    for (const [j, unit] of stratum.entries()) {
      const { low, high } = ranges[j]!
      squares += (1 - unit.probability) * Math.max((low - meanHigh) ** 2, (high - meanLow) ** 2)
    }
    variance += (stratum.length / (stratum.length - 1)) * squares
  }
  const spread = z * Math.sqrt(variance)
  return { low: clip(lambda * judgeMean + rectifierLow - spread), high: clip(lambda * judgeMean + rectifierHigh + spread) }
}

/**
 * The prediction-powered estimate of a rate over all N cases of a split (PPI++, Angelopoulos,
 * Duchi & Zrnic 2023), with inverse-probability weights for non-uniform designs:
 * θ̂ = λ·f̄_N + Σ wⱼ(Yⱼ − λfⱼ) / Σ wⱼ over the decided sampled cases, wⱼ = 1/πⱼ, and its normal
 * interval θ̂ ± z·√v, v the design variance of the rectifier's Hájek mean (plus s²_Y/N for the
 * system's rate). Refused, with the reason, where it cannot be trusted.
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
  const judge = checked.judge as readonly number[]
  const judgeMean = judgeRate(judge)
  const unitOf = (drawn: (typeof checked.decided)[number], pending: boolean): Unit => ({
    probability: drawn.probability,
    human: drawn.human ?? 0,
    judge: judge[drawn.index]!,
    stratum: drawn.stratum ?? '',
    pending,
  })
  const decided = checked.decided.map((drawn) => unitOf(drawn, false))
  const moments = designMoments(decided)
  const lambda = checked.lambda === 'tuned' ? tunedLambda(moments, !constantWithinStrata(decided, (unit) => unit.judge)) : checked.lambda
  // Tested on the labels, not on the computed variance: a variance that is 0 comes out of the
  // arithmetic as a rounding residue of either sign.
  const humanConstant = constantWithinStrata(decided, (unit) => unit.human)
  if (humanConstant || constantWithinStrata(decided, (unit) => unit.human - lambda * unit.judge)) {
    return {
      status: 'unsupported',
      reason: 'degenerate-variance',
      message: humanConstant
        ? 'the human labels do not vary within any stratum, so the normal interval would have no width: review more of the sample, or draw it with fewer strata'
        : `the judge agrees with every decided review (human − λ·judge is constant within every stratum, λ = ${lambda}), so the sample cannot tell how often it errs and the interval would have no width: review more of the sample, or read the human-only interval`,
      ...counts,
    }
  }
  const system = checked.estimand === 'system'
  // Over the process the N cases were drawn from, the split's own rate varies by s²_Y/N.
  const spread = system ? moments.humanSpread / counts.cases : 0
  // v(λ) from the rectified labels themselves, a sum of squares, rather than from the parabola,
  // whose terms cancel to a rounding residue of either sign when the judge is good.
  const rectified = designMoments(decided.map((unit) => ({ ...unit, human: unit.human - lambda * unit.judge })))
  const variance = spread + rectified.humanVariance
  const classicalVariance = spread + moments.humanVariance
  const z = twoSidedZ(checked.level)
  const estimate = lambda * judgeMean + rectified.humanMean
  const ppi = interval(estimate, variance, z)
  const bounds =
    checked.worstCase && counts.pending > 0
      ? worstCaseBounds([...decided, ...checked.pending.map((drawn) => unitOf(drawn, true))], lambda, judgeMean, system ? counts.cases : null, z)
      : null
  // The decided cases' own interval is one that the pending ones could leave standing: it is kept inside.
  const worstCase = bounds === null ? null : { low: Math.min(bounds.low, ppi.low), high: Math.max(bounds.high, ppi.high) }
  return {
    status: 'estimate',
    level: checked.level,
    estimand: checked.estimand,
    lambda,
    ...counts,
    ...ppi,
    classical: interval(moments.humanMean, classicalVariance, z),
    judgeOnly: { rate: judgeMean, biased: true },
    // Every case reviewed with certainty (π = 1) leaves no variance: the judge is worth nothing more.
    effectiveReviews: variance > 0 ? (counts.decided * classicalVariance) / variance : counts.decided,
    complete: counts.pending === 0,
    worstCase,
  }
}
