import { categoryAt, indexCategories, presentValues, type Rating, type ReliabilityData } from './reliability-data.js'

/** Observed percent agreement, or `null` with the reason it is undefined. */
export type PercentAgreementResult = {
  /** Units with at least two ratings: the only ones with a pair. */
  readonly units: number
  /** Pairs of ratings within units: Σ_i r_i(r_i − 1)/2. */
  readonly pairs: number
} & ({ readonly agreement: number; readonly reason: null } | { readonly agreement: null; readonly reason: string })

/** Gwet's AC1 with its two components, or `null` with the reason it is undefined. */
export type Ac1Result = {
  /** Units with at least two ratings: those p_a averages over. */
  readonly units: number
  /** Units with at least one rating: those π_k averages over. */
  readonly rated: number
  /** q, the number of categories of the scale. */
  readonly categories: number
} & (
  | { readonly ac1: number; readonly pa: number; readonly pe: number; readonly reason: null }
  | { readonly ac1: null; readonly pa: null; readonly pe: null; readonly reason: string }
)

function counts(ratings: readonly Rating[]): Map<Rating, number> {
  const tally = new Map<Rating, number>()
  for (const rating of ratings) tally.set(rating, (tally.get(rating) ?? 0) + 1)
  return tally
}

/**
 * Observed percent agreement over nominal ratings: of all pairs of ratings given to the same unit
 * (by two different coders, Σ_i r_i(r_i − 1)/2 over units with r_i ≥ 2 ratings), the share that
 * agree (Σ_i Σ_k r_ik(r_ik − 1)/2). Pairs are pooled, so a unit with more raters weighs more;
 * with two raters and no missing value this is the share of units on which they agree.
 * `null` when no unit has two ratings.
 */
export function percentAgreement(units: ReliabilityData): PercentAgreementResult {
  let pairs = 0
  let agreeing = 0
  let paired = 0
  for (const ratings of presentValues(units, 'percentAgreement')) {
    if (ratings.length < 2) continue
    paired++
    pairs += (ratings.length * (ratings.length - 1)) / 2
    for (const count of counts(ratings).values()) agreeing += (count * (count - 1)) / 2
  }
  if (pairs === 0) return { units: 0, pairs: 0, agreement: null, reason: 'no unit has ratings from two coders' }
  return { units: paired, pairs, agreement: agreeing / pairs, reason: null }
}

/**
 * Gwet's AC1 (Gwet 2008, "Computing inter-rater reliability and its variance in the presence of
 * high agreement") for any number of raters and nominal categories, with missing ratings, as in
 * Gwet's handbook and the irrCAC package:
 *
 * - p_a = mean over the units with r_i ≥ 2 ratings of Σ_k r_ik(r_ik − 1) / (r_i(r_i − 1));
 * - π_k = mean over the units with r_i ≥ 1 rating of r_ik / r_i;
 * - p_e = (1/(q − 1)) Σ_k π_k(1 − π_k), with q the number of `categories` of the scale, whether
 *   observed or not;
 * - AC1 = (p_a − p_e) / (1 − p_e).
 *
 * Every rating must be one of `categories`. `null` when no unit has two ratings or the scale has
 * fewer than two categories. Unlike kappa and alpha, AC1 stays defined (and is 1) when every
 * rating is the same category.
 */
export function gwetAc1(units: ReliabilityData, categories: readonly Rating[]): Ac1Result {
  const caller = 'gwetAc1'
  const index = indexCategories(categories, caller, 'categories')
  const present = presentValues(units, caller)
  for (const [unitIndex, unit] of units.entries()) {
    for (const [coder, value] of unit.entries()) {
      if (value !== null) categoryAt(index, value, caller, `units[${unitIndex}][${coder}]`, 'categories')
    }
  }
  const q = index.size
  const pi = new Float64Array(q)
  let rated = 0
  let paired = 0
  let agreementSum = 0
  for (const ratings of present) {
    const r = ratings.length
    if (r === 0) continue
    rated++
    const tally = counts(ratings)
    for (const [category, count] of tally) pi[index.get(category)!]! += count / r
    if (r < 2) continue
    paired++
    let agreeing = 0
    for (const count of tally.values()) agreeing += count * (count - 1)
    agreementSum += agreeing / (r * (r - 1))
  }
  const base = { units: paired, rated, categories: q }
  if (q < 2) {
    return { ...base, ac1: null, pa: null, pe: null, reason: `AC1 needs a scale of at least two categories; found ${q}` }
  }
  if (paired === 0) return { ...base, ac1: null, pa: null, pe: null, reason: 'no unit has ratings from two coders' }
  const pa = agreementSum / paired
  let chance = 0
  for (const total of pi) chance += (total / rated) * (1 - total / rated)
  // p_e ≤ (1 − 1/q)/(q − 1) = 1/q ≤ 1/2, so the denominator is never 0.
  const pe = chance / (q - 1)
  return { ...base, ac1: (pa - pe) / (1 - pe), pa, pe, reason: null }
}
