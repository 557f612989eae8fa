/**
 * The design-weighted moments of a sample that prediction-powered inference needs: Hájek means
 * (weights 1/π) and the with-replacement variance of those means, computed within strata.
 */

/** One reviewed case: its inclusion probability π (its design weight is 1/π), human label y, judge label f and stratum. */
export interface WeightedUnit {
  readonly probability: number
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
  /** s²_Y = n/(n − 1) · Σ wⱼ(yⱼ − Ȳ_w)² / W: the spread of the human labels among all N cases, estimated. */
  readonly humanSpread: number
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
 * The refusal of a sample with a stratum of fewer than two decided units, whose design variance
 * cannot be computed (an unstratified sample is one stratum); `null` when every stratum has two.
 * `unit` names a unit in the message: `case`, `task`.
 */
export function smallStratumRefusal<T extends { readonly stratum?: string | undefined }>(
  sample: readonly T[],
  isDecided: (unit: T) => boolean,
  unit: 'case' | 'task',
): { reason: 'stratum-too-small'; message: string } | null {
  const decidedPerStratum = new Map<string, number>()
  for (const drawn of sample) {
    const key = drawn.stratum ?? ''
    decidedPerStratum.set(key, (decidedPerStratum.get(key) ?? 0) + (isDecided(drawn) ? 1 : 0))
  }
  for (const [stratum, decided] of decidedPerStratum) {
    if (decided < 2) {
      return {
        reason: 'stratum-too-small',
        message: `stratum ${JSON.stringify(stratum)} has ${decided} decided sampled ${unit}${decided === 1 ? '' : 's'}; each stratum needs 2 for its variance: review more of it`,
      }
    }
  }
  return null
}

/**
 * Hájek means and the linearised variance of each under the design (Särndal, Swensson & Wretman
 * 1992: the weighted mean as a ratio of two π-estimators): with zⱼ = wⱼ(aⱼ − ā_w)/W,
 * v(ā_w, b̄_w) = Σ_h n_h/(n_h − 1) · Σ_{j∈h} (1 − πⱼ)(zᵃⱼ − z̄ᵃ_h)(zᵇⱼ − z̄ᵇ_h).
 * Under simple random sampling without replacement it is the textbook (1 − n/N)·s²_a/n, under
 * stratified sampling Σ_h (N_h/N)²(1 − n_h/N_h)·s²_{a,h}/n_h, under Poisson sampling n/(n − 1) times
 * the Poisson-design estimator Σ (1 − πⱼ)·zⱼ². Every stratum needs two units (the caller refuses otherwise: {@link smallStratumRefusal}).
 */
export function designMoments(units: readonly WeightedUnit[]): DesignMoments {
  let weight = 0
  let humanSum = 0
  let judgeSum = 0
  for (const { probability, human, judge } of units) {
    weight += 1 / probability
    humanSum += human / probability
    judgeSum += judge / probability
  }
  const humanMean = humanSum / weight
  const judgeMean = judgeSum / weight
  let humanVariance = 0
  let covariance = 0
  let judgeVariance = 0
  let squares = 0
  for (const stratum of strataOf(units)) {
    const n = stratum.length
    const zy = stratum.map((unit) => (unit.human - humanMean) / unit.probability / weight)
    const zf = stratum.map((unit) => (unit.judge - judgeMean) / unit.probability / weight)
    const my = zy.reduce((sum, z) => sum + z, 0) / n
    const mf = zf.reduce((sum, z) => sum + z, 0) / n
    let yy = 0
    let yf = 0
    let ff = 0
    for (let j = 0; j < n; j++) {
      const kept = 1 - stratum[j]!.probability
      const dy = zy[j]! - my
      const df = zf[j]! - mf
      yy += kept * dy * dy
      yf += kept * dy * df
      ff += kept * df * df
      squares += (stratum[j]!.human - humanMean) ** 2 / stratum[j]!.probability
    }
    const scale = n / (n - 1)
    humanVariance += scale * yy
    covariance += scale * yf
    judgeVariance += scale * ff
  }
  const n = units.length
  return { weight, humanMean, judgeMean, humanVariance, covariance, judgeVariance, humanSpread: ((n / (n - 1)) * squares) / weight }
}

/** The mean of the judge labels of every case. */
export function judgeRate(judge: readonly number[]): number {
  let sum = 0
  for (const f of judge) sum += f
  return sum / judge.length
}
