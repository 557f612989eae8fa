/**
 * The design-weighted moments of a sample that prediction-powered inference needs: Hájek means
 * (weights 1/π) and the with-replacement variance of those means, computed within strata.
 */

/** One reviewed case: its design weight 1/π, human label y, judge label f and stratum. */
export interface WeightedUnit {
  readonly weight: number
  readonly human: number
  readonly judge: number
  readonly stratum: string
}

/** Hájek means of the human and judge labels over a sample, and the covariances of those means. */
export interface DesignMoments {
  /** W = Σ wⱼ, the sample's estimate of the number of cases it stands for. */
  readonly weight: number
  /** Ȳ_w = Σ wⱼ yⱼ / W. */
  readonly humanMean: number
  /** f̄_w = Σ wⱼ fⱼ / W. */
  readonly judgeMean: number
  /** v(Ȳ_w): the estimated variance of the human mean. */
  readonly humanVariance: number
  /** v(Ȳ_w, f̄_w): their estimated covariance. */
  readonly covariance: number
  /** v(f̄_w): the estimated variance of the judge mean over the sample. */
  readonly judgeVariance: number
}

/** Groups units by stratum, in order of first appearance. */
export function strataOf<T extends { readonly stratum: string }>(units: readonly T[]): T[][] {
  const groups = new Map<string, T[]>()
  for (const unit of units) {
    let group = groups.get(unit.stratum)
    if (group === undefined) groups.set(unit.stratum, (group = []))
    group.push(unit)
  }
  return [...groups.values()]
}

/**
 * Hájek means and the linearised with-replacement variance of each (the ratio of two π-estimators,
 * Särndal, Swensson & Wretman 1992; what R's `survey::svymean` gives for a design declared with
 * weights, strata and no finite-population correction): with zⱼ = wⱼ(aⱼ − ā_w)/W,
 * v(ā_w, b̄_w) = Σ_h n_h/(n_h − 1) · Σ_{j∈h} (zᵃⱼ − z̄ᵃ_h)(zᵇⱼ − z̄ᵇ_h).
 * Every stratum needs two units (the caller refuses otherwise). With one stratum and equal weights,
 * v(ā) = s²_a / n, the sample variance over n.
 */
export function designMoments(units: readonly WeightedUnit[]): DesignMoments {
  let weight = 0
  let humanSum = 0
  let judgeSum = 0
  for (const { weight: w, human, judge } of units) {
    weight += w
    humanSum += w * human
    judgeSum += w * judge
  }
  const humanMean = humanSum / weight
  const judgeMean = judgeSum / weight
  let humanVariance = 0
  let covariance = 0
  let judgeVariance = 0
  for (const stratum of strataOf(units)) {
    const n = stratum.length
    const zy = stratum.map((unit) => (unit.weight * (unit.human - humanMean)) / weight)
    const zf = stratum.map((unit) => (unit.weight * (unit.judge - judgeMean)) / weight)
    const my = zy.reduce((sum, z) => sum + z, 0) / n
    const mf = zf.reduce((sum, z) => sum + z, 0) / n
    let yy = 0
    let yf = 0
    let ff = 0
    for (let j = 0; j < n; j++) {
      const dy = zy[j]! - my
      const df = zf[j]! - mf
      yy += dy * dy
      yf += dy * df
      ff += df * df
    }
    const scale = n / (n - 1)
    humanVariance += scale * yy
    covariance += scale * yf
    judgeVariance += scale * ff
  }
  return { weight, humanMean, judgeMean, humanVariance, covariance, judgeVariance }
}

/** The mean and the sample variance (divisor N − 1) of the judge labels of every case. */
export function populationMoments(judge: readonly number[]): { mean: number; variance: number } {
  const n = judge.length
  let sum = 0
  for (const f of judge) sum += f
  const mean = sum / n
  let squares = 0
  for (const f of judge) squares += (f - mean) ** 2
  return { mean, variance: n > 1 ? squares / (n - 1) : 0 }
}
