/**
 * The prediction-powered estimator once its input is checked: the judge's mean over every case plus
 * the design-weighted rectifier of the sample, PPI++'s tuned λ, the interval and its worst case
 * over the pending cases. ppiMean (a rate, outcomes in [0, 1]) and ppiDifference (a paired
 * difference of rates, outcomes in [−1, 1]) each check their own input and refusals and share this.
 */
import { designMoments, strataOf, type DesignMoments, type WeightedUnit } from './ppi-design.js'
import { varianceDegrees, varianceDegreesBound } from './ppi-degrees.js'
import { twoSidedT } from './student-t.js'

/** A point estimate, its standard error and its interval, clipped to the outcome's range. */
export interface RateInterval {
  readonly estimate: number
  readonly se: number
  readonly low: number
  readonly high: number
}

/** A sampled case still pending: the least and the greatest human outcome it can still get. */
export interface PendingUnit extends WeightedUnit {
  readonly low: number
  readonly high: number
}

/** What the estimator is computed from. */
export interface RectifiedInput {
  /** The decided sampled cases: human outcome, judge outcome, π and stratum. */
  readonly decided: readonly WeightedUnit[]
  /** The pending sampled cases, with the range of outcomes each can still get (its `human` is unused). */
  readonly pending: readonly PendingUnit[]
  /** The judge's mean outcome over every case. */
  readonly judgeMean: number
  /** N, the cases the estimate is over. */
  readonly cases: number
  readonly level: number
  readonly lambda: 'tuned' | number
  readonly estimand: 'split' | 'system'
  readonly worstCase: boolean
  /** The range of an outcome: [0, 1] for a rate, [−1, 1] for a difference of two. */
  readonly range: readonly [number, number]
}

/** The estimate, or why the sample gives an interval of no width. */
export type RectifiedResult =
  | {
      readonly status: 'estimate'
      readonly lambda: number
      readonly interval: RateInterval
      readonly classical: RateInterval
      readonly effectiveReviews: number
      readonly worstCase: { readonly low: number; readonly high: number } | null
    }
  /** The human outcomes (`human`) or the rectified ones (`rectified`, at λ) do not vary within any stratum. */
  | { readonly status: 'degenerate'; readonly constant: 'human' | 'rectified'; readonly lambda: number }

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
  return Math.min(1, Math.max(0, moments.covariance / moments.judgeVariance))
}

function constantWithinStrata<T extends WeightedUnit>(units: readonly T[], value: (unit: T) => number): boolean {
  return strataOf(units).every((stratum) => stratum.every((unit) => value(unit) === value(stratum[0]!)))
}

interface RangedUnit extends PendingUnit {}

/**
 * Bounds on the interval that the complete sample would give at λ, over every outcome of the
 * pending cases in their ranges. The point estimate is increasing in each outcome, so it lies between
 * all-low and all-high. zⱼ − z̄_h = (wⱼeⱼ − mean_h(we) − R̂·(wⱼ − w̄_h))/W, each part over the outcomes
 * of the pending cases and R̂ anywhere between those two rectifier means, bounds it in an interval,
 * and the variance is bounded term by term by the larger square of its ends (and s²_Y, for the
 * system, by n/(n − 1)·(range width)²/4). The t quantile is taken at a lower bound of the degrees
 * of freedom, from the least and the greatest each term can be ({@link varianceDegreesBound}).
 */
function worstCaseBounds(
  units: readonly RangedUnit[],
  lambda: number,
  judgeMean: number,
  spreadCases: number | null,
  level: number,
  clip: (x: number) => number,
  width: number,
): { low: number; high: number } {
  let weight = 0
  let lowSum = 0
  let highSum = 0
  for (const unit of units) {
    weight += 1 / unit.probability
    lowSum += (unit.low - lambda * unit.judge) / unit.probability
    highSum += (unit.high - lambda * unit.judge) / unit.probability
  }
  const rectifierLow = lowSum / weight
  const rectifierHigh = highSum / weight
  const spreadHigh = spreadCases === null ? 0 : ((units.length / (units.length - 1)) * (width * width)) / 4 / spreadCases
  let variance = spreadHigh
  const terms: { low: number; high: number; scale: number }[] = []
  for (const stratum of strataOf(units)) {
    // zⱼ − z̄_h = (wⱼeⱼ − mean_h(we) − R̂·(wⱼ − w̄_h)) / W: each of its three parts ranges on its own.
    const weights = stratum.map((unit) => 1 / unit.probability)
    const meanWeight = weights.reduce((sum, w) => sum + w, 0) / stratum.length
    const meanLow = stratum.reduce((sum, unit, j) => sum + weights[j]! * (unit.low - lambda * unit.judge), 0) / stratum.length
    const meanHigh = stratum.reduce((sum, unit, j) => sum + weights[j]! * (unit.high - lambda * unit.judge), 0) / stratum.length
    const scale = stratum.length / (stratum.length - 1)
    for (const [j, unit] of stratum.entries()) {
      const w = weights[j]!
      const shifts = [rectifierLow * (w - meanWeight), rectifierHigh * (w - meanWeight)]
      const least = (w * (unit.low - lambda * unit.judge) - meanHigh - Math.max(...shifts)) / weight
      const most = (w * (unit.high - lambda * unit.judge) - meanLow - Math.min(...shifts)) / weight
      const term = {
        low: least <= 0 && most >= 0 ? 0 : scale * (1 - unit.probability) * Math.min(least ** 2, most ** 2),
        high: scale * (1 - unit.probability) * Math.max(least ** 2, most ** 2),
        scale,
      }
      terms.push(term)
      variance += term.high
    }
  }
  const degrees = varianceDegreesBound(terms, spreadHigh)
  // No term bounded away from 0 leaves no bound on the quantile: the interval could be anywhere.
  const spread = variance === 0 ? 0 : degrees > 0 ? twoSidedT(level, degrees) * Math.sqrt(variance) : Number.POSITIVE_INFINITY
  return { low: clip(lambda * judgeMean + rectifierLow - spread), high: clip(lambda * judgeMean + rectifierHigh + spread) }
}

/**
 * How many human reviews, drawn alike, the human-only interval would need to be as narrow as the
 * judge-assisted one. For the split, whose variance (1 − m/N)·s²/m shrinks to 0 at a census, it
 * solves that for m with s² = n·v_c/(1 − n/N): m = n·v_c / ((1 − f)·v + f·v_c), f = n/N, which is n
 * at v = v_c and reaches N only as v reaches 0. For the system, whose variance s²/m has no such
 * correction, it is n·v_c/v, and may pass N: no census of the N cases is as narrow.
 */
export function effectiveReviews(decided: number, cases: number, classical: number, variance: number, system: boolean): number {
  // Every case reviewed with certainty (π = 1) leaves no variance: the judge is worth nothing more.
  if (!(classical > 0)) return decided
  if (system) return variance > 0 ? (decided * classical) / variance : decided
  const fraction = Math.min(1, decided / cases)
  return (decided * classical) / ((1 - fraction) * variance + fraction * classical)
}

/**
 * θ̂ = λ·f̄_N + Σ wⱼ(Yⱼ − λfⱼ) / Σ wⱼ over the decided sampled cases, wⱼ = 1/πⱼ, and its
 * interval θ̂ ± t_ν·√v, v the design variance of the rectifier's Hájek mean (plus s²_Y/N for the
 * system's figure) and ν its Satterthwaite degrees of freedom ({@link varianceDegrees}), beside the
 * human-only figure (λ = 0). The caller has refused what it must
 * (too few reviews, a stratum of one); this refuses only an interval of no width.
 */
export function rectifiedEstimate(input: RectifiedInput): RectifiedResult {
  const { decided, judgeMean, range } = input
  const clip = (x: number) => Math.min(range[1], Math.max(range[0], x))
  const moments = designMoments(decided)
  const lambda = input.lambda === 'tuned' ? tunedLambda(moments, !constantWithinStrata(decided, (unit) => unit.judge)) : input.lambda
  // Tested on the outcomes, not on the computed variance: a variance that is 0 comes out of the
  // arithmetic as a rounding residue of either sign.
  if (constantWithinStrata(decided, (unit) => unit.human)) return { status: 'degenerate', constant: 'human', lambda }
  if (constantWithinStrata(decided, (unit) => unit.human - lambda * unit.judge)) return { status: 'degenerate', constant: 'rectified', lambda }
  const system = input.estimand === 'system'
  // Over the process the N cases were drawn from, the mean over N cases varies by s²_Y/N.
  const spread = system ? moments.humanSpread / input.cases : 0
  // v(λ) from the rectified outcomes themselves, a sum of squares, rather than from the parabola,
  // whose terms cancel to a rounding residue of either sign when the judge is good.
  const rectifiedUnits = decided.map((unit) => ({ ...unit, human: unit.human - lambda * unit.judge }))
  const rectified = designMoments(rectifiedUnits)
  const variance = spread + rectified.humanVariance
  const classicalVariance = spread + moments.humanVariance
  // Student's t at Satterthwaite's degrees of freedom of the variance, not the normal quantile: a
  // variance carried by a few cases (rare disagreements, uneven weights) is itself unsure.
  const interval = (estimate: number, v: number, degrees: number): RateInterval => {
    const se = Math.sqrt(v)
    const t = twoSidedT(input.level, degrees)
    return { estimate, se, low: clip(estimate - t * se), high: clip(estimate + t * se) }
  }
  const ppi = interval(lambda * judgeMean + rectified.humanMean, variance, varianceDegrees(rectifiedUnits, spread))
  const ranged: RangedUnit[] = decided.map((unit) => ({ ...unit, low: unit.human, high: unit.human }))
  const bounds =
    input.worstCase && input.pending.length > 0
      ? worstCaseBounds([...ranged, ...input.pending], lambda, judgeMean, system ? input.cases : null, input.level, clip, range[1] - range[0])
      : null
  return {
    status: 'estimate',
    lambda,
    interval: ppi,
    classical: interval(moments.humanMean, classicalVariance, varianceDegrees(decided, spread)),
    effectiveReviews: effectiveReviews(decided.length, input.cases, classicalVariance, variance, system),
    // The decided cases' own interval is one that the pending ones could leave standing: it is kept inside.
    worstCase: bounds === null ? null : { low: Math.min(bounds.low, ppi.low), high: Math.max(bounds.high, ppi.high) },
  }
}
