import { plural } from '../common/primitives.js'
import { bootstrapCases, bootstrapSettings, type BootstrapInterval, type BootstrapOptions } from './bootstrap.js'
import { StatisticsInputError } from './errors.js'
import { describeRating, presentValues, type Rating, type ReliabilityData } from './reliability-data.js'

/** The level of measurement, which fixes the difference function δ² of Krippendorff's alpha. */
export type AlphaMetric = 'nominal' | 'interval'

interface MetricDefinition {
  /** What the values must be, for the error message. */
  readonly expects: string
  readonly accepts: (value: Rating) => boolean
  /**
   * The values as δ² and the expected sum see them. Interval values are divided by a power of two
   * at least their largest magnitude (exact, barring subnormals), so that squared differences of
   * values near 1e-200 do not underflow to 0, nor of values near 1e200 overflow to Infinity:
   * interval alpha is unchanged by a change of scale.
   */
  readonly scale: (values: readonly Rating[]) => (value: Rating) => Rating
  /** δ²(c, k) between two values. */
  readonly distance: (c: Rating, k: Rating) => number
  /** Σ_c Σ_k n_c·n_k·δ²(c, k) from the totals n_c of the distinct values: O(q), not O(q²). */
  readonly expectedSum: (values: readonly Rating[], totals: ArrayLike<number>) => number
}

// δ² depends on the two values only. An ordinal or ratio entry would be one more row; ordinal's
// δ² also depends on the totals n_c, so its bootstrap would have to recompute each unit's
// disagreement per replicate rather than reuse it.
const METRICS: Record<AlphaMetric, MetricDefinition> = {
  nominal: {
    expects: 'strings or numbers',
    accepts: () => true,
    scale: () => (value) => value,
    distance: (c, k) => (c === k ? 0 : 1),
    // Σ_c Σ_k n_c n_k [c ≠ k] = n² − Σ n_c²
    expectedSum: (_values, totals) => {
      let n = 0
      let squares = 0
      for (let c = 0; c < totals.length; c++) {
        const total = totals[c]!
        n += total
        squares += total * total
      }
      return n * n - squares
    },
  },
  interval: {
    expects: 'finite numbers',
    accepts: (value) => typeof value === 'number',
    scale: (values) => {
      let largest = 0
      for (const value of values) largest = Math.max(largest, Math.abs(Number(value)))
      if (largest === 0) return (value) => value
      // 2^e ≥ largest, e capped so that 2^e stays finite (largest < 2^1024).
      const divisor = 2 ** Math.min(1023, Math.ceil(Math.log2(largest)))
      return (value) => Number(value) / divisor
    },
    distance: (c, k) => (Number(c) - Number(k)) ** 2,
    // Σ_c Σ_k n_c n_k (v_c − v_k)² = 2n Σ n_c (v_c − v̄)², centred so that large values keep their precision.
    expectedSum: (values, totals) => {
      let n = 0
      let sum = 0
      for (let c = 0; c < totals.length; c++) {
        n += totals[c]!
        sum += totals[c]! * Number(values[c])
      }
      const mean = sum / n
      let squares = 0
      for (let c = 0; c < totals.length; c++) squares += totals[c]! * (Number(values[c]) - mean) ** 2
      return 2 * n * squares
    },
  },
}

/** What alpha was computed over: the pairable units, their values and the distinct values among them. */
export interface AlphaCounts {
  /** Pairable units: units with at least two values. */
  readonly units: number
  /** n: the values in pairable units. */
  readonly pairable: number
  /** Distinct values among the pairable values. */
  readonly categories: number
}

/** Krippendorff's alpha, or `null` with the reason it is undefined. */
export type AlphaResult = AlphaCounts & ({ readonly alpha: number; readonly reason: null } | { readonly alpha: null; readonly reason: string })

/** The data of the pairable units, reduced once to what alpha and each bootstrap replicate need. */
interface Coincidences {
  readonly metric: MetricDefinition
  /** The distinct pairable values, indexed as in the entries below, as given. */
  readonly given: readonly Rating[]
  /** The same values as the metric computes with them (rescaled for the interval metric). */
  readonly values: readonly Rating[]
  /** Per pairable unit u: its index in the data. */
  readonly positions: Uint32Array
  /** Per pairable unit u: m_u, its number of values. */
  readonly sizes: Float64Array
  /** Per pairable unit u: Σ_c Σ_k o_uck δ²(c, k), its share of the observed disagreement. */
  readonly disagreements: Float64Array
  /** Unit u's value counts n_uc are entries start[u] … start[u + 1] − 1 of `entryValue`/`entryCount`. */
  readonly start: Uint32Array
  readonly entryValue: Uint32Array
  readonly entryCount: Float64Array
}

function coincidences(units: ReliabilityData, metricName: AlphaMetric, caller: string): Coincidences {
  if (!Object.hasOwn(METRICS, metricName)) {
    throw new StatisticsInputError(`${caller}: metric must be one of ${Object.keys(METRICS).join(', ')}; found ${String(metricName)}`)
  }
  const metric = METRICS[metricName]
  const present = presentValues(units, caller)
  for (const [unitIndex, unit] of units.entries()) {
    for (const [coder, value] of unit.entries()) {
      if (value !== null && !metric.accepts(value)) {
        throw new StatisticsInputError(`${caller}: the ${metricName} metric needs ${metric.expects}; units[${unitIndex}][${coder}] is ${describeRating(value)}`)
      }
    }
  }
  const positions: number[] = []
  const pairable: Rating[][] = []
  for (const [position, values] of present.entries()) {
    if (values.length < 2) continue
    positions.push(position)
    pairable.push(values)
  }
  const scaled = metric.scale(pairable.flat())
  const index = new Map<Rating, number>()
  const given: Rating[] = []
  const values: Rating[] = []
  const sizes = new Float64Array(pairable.length)
  const disagreements = new Float64Array(pairable.length)
  const start = new Uint32Array(pairable.length + 1)
  const entryValue: number[] = []
  const entryCount: number[] = []
  for (const [u, unitValues] of pairable.entries()) {
    const counts = new Map<Rating, number>()
    for (const value of unitValues) counts.set(value, (counts.get(value) ?? 0) + 1)
    const distinct = [...counts]
    // o_uck = n_uc·(n_uk − [c = k]) / (m_u − 1); δ²(c, c) is 0 for every metric, so only c ≠ k adds.
    let disagreement = 0
    for (const [c, countC] of distinct) {
      for (const [k, countK] of distinct) if (c !== k) disagreement += countC * countK * metric.distance(scaled(c), scaled(k))
    }
    sizes[u] = unitValues.length
    disagreements[u] = disagreement / (unitValues.length - 1)
    start[u] = entryValue.length
    for (const [value, count] of distinct) {
      let at = index.get(value)
      if (at === undefined) {
        at = values.length
        index.set(value, at)
        given.push(value)
        values.push(scaled(value))
      }
      entryValue.push(at)
      entryCount.push(count)
    }
  }
  start[pairable.length] = entryValue.length
  return {
    metric,
    given,
    values,
    positions: Uint32Array.from(positions),
    sizes,
    disagreements,
    start,
    entryValue: Uint32Array.from(entryValue),
    entryCount: Float64Array.from(entryCount),
  }
}

/** Adds up units (each `weights[u]` times) into the totals n_c, and returns α, or `null` without variation. */
function alphaOf(data: Coincidences, weights: ArrayLike<number>, totals: Float64Array): number | null {
  totals.fill(0)
  let n = 0
  let observed = 0
  for (let u = 0; u < weights.length; u++) {
    const weight = weights[u]!
    if (weight === 0) continue
    n += weight * data.sizes[u]!
    observed += weight * data.disagreements[u]!
    for (let entry = data.start[u]!; entry < data.start[u + 1]!; entry++) {
      totals[data.entryValue[entry]!]! += weight * data.entryCount[entry]!
    }
  }
  let present = 0
  for (const total of totals) if (total > 0) present++
  // Variation is judged on the counts, not on the expected sum, which rounding could leave a hair above 0.
  if (present < 2) return null
  return 1 - ((n - 1) * observed) / data.metric.expectedSum(data.values, totals)
}

/**
 * Krippendorff's alpha for any number of coders and values, with missing values, by the
 * coincidence-matrix method of Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability":
 * only units with at least two values are pairable; n is the number of pairable values;
 * α = 1 − D_o/D_e = 1 − (n − 1)·Σ_c Σ_k o_ck δ²_ck / Σ_c Σ_k n_c n_k δ²_ck.
 *
 * `nominal` compares values by equality (strings or numbers); `interval` uses δ² = (c − k)² and
 * needs numbers. Alpha is `null`, with a reason, when no unit has two values or when every
 * pairable value is the same (D_e = 0): agreement cannot be told from chance there, and 1 or 0
 * would both mislead.
 */
export function krippendorffAlpha(units: ReliabilityData, metric: AlphaMetric): AlphaResult {
  const data = coincidences(units, metric, 'krippendorffAlpha')
  const counts: AlphaCounts = { units: data.sizes.length, pairable: data.sizes.reduce((sum, size) => sum + size, 0), categories: data.values.length }
  if (counts.units === 0) return { ...counts, alpha: null, reason: 'fewer than two coders judged any unit' }
  const alpha = alphaOf(data, new Float64Array(counts.units).fill(1), new Float64Array(counts.categories))
  if (alpha === null) {
    return { ...counts, alpha: null, reason: `no variation: every pairable value is ${describeRating(data.given[0]!)}` }
  }
  // Rescaling keeps D_o and D_e finite and positive; should the arithmetic still fail, there is no figure, never NaN.
  if (!Number.isFinite(alpha))
    return { ...counts, alpha: null, reason: 'the differences between the values are too small or too large to compute in double precision' }
  return { ...counts, alpha, reason: null }
}

/** Options of {@link alphaBootstrap}. */
export interface AlphaBootstrapOptions extends BootstrapOptions {
  /**
   * The cluster of each unit (e.g. the case an answer-against-a-criterion unit belongs to), one
   * label per unit of the data. When given, clusters are resampled with replacement, each bringing
   * all its units, rather than units one by one: units of one cluster are not independent draws.
   * @default every unit its own cluster
   */
  readonly clusters?: readonly (string | number)[]
}

/**
 * A percentile bootstrap interval for Krippendorff's alpha that resamples pairable units, or with
 * `clusters` the clusters that hold a pairable unit, with replacement (see {@link bootstrapCases}
 * for the draw order). Replicates without a defined alpha (no variation) are skipped and counted.
 * `null` when the point estimate is `null` (or, improbably, every replicate is skipped).
 *
 * Each unit's share of the coincidences is computed once, so a replicate costs one pass over its
 * draws plus O(q): 10,000 units × 2,000 replicates take a fraction of a second.
 */
export function alphaBootstrap(units: ReliabilityData, metric: AlphaMetric, options: AlphaBootstrapOptions): BootstrapInterval | null {
  bootstrapSettings(options)
  const data = coincidences(units, metric, 'alphaBootstrap')
  const members = clusterMembers(data, units.length, options.clusters)
  const weights = new Float64Array(data.sizes.length).fill(1)
  const totals = new Float64Array(data.values.length)
  const point = data.sizes.length === 0 ? null : alphaOf(data, weights, totals)
  if (point === null || !Number.isFinite(point)) return null
  return bootstrapCases(members.length, options, (draws) => {
    weights.fill(0)
    for (const cluster of draws) for (const u of members[cluster]!) weights[u]! += 1
    const alpha = alphaOf(data, weights, totals)
    return alpha === null || !Number.isFinite(alpha) ? null : alpha
  })
}

/** The pairable units of each cluster that holds one, clusters in order of first appearance. */
function clusterMembers(data: Coincidences, length: number, clusters: AlphaBootstrapOptions['clusters']): number[][] {
  if (clusters === undefined) return Array.from(data.positions, (_position, u) => [u])
  if (!Array.isArray(clusters) || clusters.length !== length) {
    throw new StatisticsInputError(
      `alphaBootstrap: clusters must hold one label per unit (${length}); found ${Array.isArray(clusters) ? plural(clusters.length, 'label') : typeof clusters}`,
    )
  }
  const byLabel = new Map<string | number, number[]>()
  data.positions.forEach((position, u) => {
    const label = clusters[position]!
    if (typeof label !== 'string' && !(typeof label === 'number' && Number.isFinite(label))) {
      throw new StatisticsInputError(`alphaBootstrap: clusters[${position}] must be a string or a finite number; found ${String(label)}`)
    }
    const members = byLabel.get(label) ?? []
    byLabel.set(label, members)
    members.push(u)
  })
  return [...byLabel.values()]
}
