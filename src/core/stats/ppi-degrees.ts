/**
 * The degrees of freedom of the prediction-powered interval (docs/statistics.md, "Interval"): how
 * much the sample knows about its own design variance. The variance estimate is a sum of one
 * term per sampled case; when a few cases carry most of it (the rare cases where the judge and
 * people disagree, weighted up by a draw that favoured the judge's doubts), it is as unsure as a
 * variance from a few cases, and the interval takes Student's t with Satterthwaite's (1946)
 * degrees of freedom ν = 2v² / var(v) in place of the normal quantile.
 */
import { strataOf, type WeightedUnit } from './ppi-design.js'

/**
 * Satterthwaite's degrees of freedom of v = s + Σ_h Σ_{j∈h} aⱼ, the design variance of the human
 * labels' Hájek mean (aⱼ = n_h/(n_h − 1)·(1 − πⱼ)(zⱼ − z̄_h)², as in {@link designMoments}) plus
 * `spread` (s²_Y/N for the system's estimand, 0 for the split's): ν = 2v² / var̂(v), with
 * var̂(v) = Σ_h n_h/(n_h − 1)·Σ_{j∈h} (aⱼ − ā_h)², the terms of one stratum taken as independent draws,
 * plus 2s²/(n − 1), a sample variance's under normality. Infinite when var̂(v) is 0 (every term
 * alike): the normal quantile.
 */
export function varianceDegrees(units: readonly WeightedUnit[], spread: number): number {
  let weight = 0
  let humanSum = 0
  for (const { probability, human } of units) {
    weight += 1 / probability
    humanSum += human / probability
  }
  const humanMean = humanSum / weight
  let variance = spread
  let varianceOfVariance = units.length > 1 ? (2 * spread * spread) / (units.length - 1) : 0
  for (const stratum of strataOf(units)) {
    const n = stratum.length
    const scale = n / (n - 1)
    const z = stratum.map((unit) => (unit.human - humanMean) / unit.probability / weight)
    const zMean = z.reduce((sum, value) => sum + value, 0) / n
    const terms = stratum.map((unit, j) => scale * (1 - unit.probability) * (z[j]! - zMean) ** 2)
    const termMean = terms.reduce((sum, term) => sum + term, 0) / n
    variance += termMean * n
    varianceOfVariance += scale * terms.reduce((sum, term) => sum + (term - termMean) ** 2, 0)
  }
  return varianceOfVariance > 0 ? (2 * variance * variance) / varianceOfVariance : Number.POSITIVE_INFINITY
}

/**
 * A lower bound on those degrees of freedom over the labels the pending cases can still get, from
 * bounds on each term: ν ≥ 2(Σ aⱼ,low)² / (Σ_h n_h/(n_h − 1)·Σ aⱼ,high² + 2s²_high/(n − 1)), since
 * Σ (aⱼ − ā_h)² ≤ Σ aⱼ². 0 when no term is bounded away from 0.
 */
export function varianceDegreesBound(terms: readonly { readonly low: number; readonly high: number; readonly scale: number }[], spreadHigh: number): number {
  let low = 0
  let squares = terms.length > 1 ? (2 * spreadHigh * spreadHigh) / (terms.length - 1) : 0
  for (const term of terms) {
    low += term.low
    squares += term.scale * term.high * term.high
  }
  return squares > 0 ? (2 * low * low) / squares : Number.POSITIVE_INFINITY
}
