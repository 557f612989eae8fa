import { bootstrapCases, bootstrapSettings, type BootstrapInterval, type BootstrapOptions } from './bootstrap.js'
import { StatisticsInputError } from './errors.js'
import { categoryAt, describeRating, indexCategories, presentValues, type Rating } from './reliability-data.js'

/** The labels two coders gave one unit: [first coder's, second coder's]. */
export type RatingPair = readonly [Rating, Rating]

/** Cohen's kappa with its two components, or `null` with the reason it is undefined. */
export type KappaResult = {
  /** Pairs rated. */
  readonly n: number
} & (
  | { readonly kappa: number; readonly po: number; readonly pe: number; readonly reason: null }
  | { readonly kappa: null; readonly po: number | null; readonly pe: number | null; readonly reason: string }
)

/** Pairs reduced to category positions: `first[i]`, `second[i]` index `labels`. */
interface CodedPairs {
  readonly labels: readonly Rating[]
  readonly first: Uint32Array
  readonly second: Uint32Array
}

function codePairs(pairs: readonly RatingPair[], categories: readonly Rating[] | undefined, caller: string): CodedPairs {
  const present = presentValues(pairs, caller, 'pairs')
  for (const [position, values] of present.entries()) {
    if (values.length !== 2 || pairs[position]?.length !== 2) {
      throw new StatisticsInputError(`${caller}: pairs[${position}] must hold exactly two labels, [first coder, second coder], and no null`)
    }
  }
  const index = categories === undefined ? new Map<Rating, number>() : indexCategories(categories, caller, 'categories')
  const code = (value: Rating, at: string): number => {
    if (categories !== undefined) return categoryAt(index, value, caller, at, 'categories')
    let position = index.get(value)
    if (position === undefined) index.set(value, (position = index.size))
    return position
  }
  const first = new Uint32Array(present.length)
  const second = new Uint32Array(present.length)
  // Pair by pair, so that the first label outside the scale in reading order is the one reported.
  for (const [i, values] of present.entries()) {
    first[i] = code(values[0]!, `pairs[${i}][0]`)
    second[i] = code(values[1]!, `pairs[${i}][1]`)
  }
  return { labels: [...index.keys()], first, second }
}

/**
 * κ from counts over the pairs drawn `weights[i]` times each, exactly in integers until the last
 * division: κ = (N·agreeing − Σ_k a_k b_k) / (N² − Σ_k a_k b_k), which is (p_o − p_e)/(1 − p_e).
 */
function kappaOf(coded: CodedPairs, weights: ArrayLike<number>, rows: Float64Array, columns: Float64Array) {
  rows.fill(0)
  columns.fill(0)
  let n = 0
  let agreeing = 0
  for (let i = 0; i < weights.length; i++) {
    const weight = weights[i]!
    const row = coded.first[i]!
    const column = coded.second[i]!
    n += weight
    rows[row]! += weight
    columns[column]! += weight
    if (row === column) agreeing += weight
  }
  let chance = 0
  for (let k = 0; k < rows.length; k++) chance += rows[k]! * columns[k]!
  return { n, agreeing, chance, kappa: chance === n * n ? null : (n * agreeing - chance) / (n * n - chance) }
}

/**
 * Cohen's kappa (Cohen 1960) for two coders' labels of the same units:
 * κ = (p_o − p_e) / (1 − p_e), with p_o the share of units they label alike and
 * p_e = Σ_k p_first,k · p_second,k from each coder's own label shares.
 *
 * `categories`, when given, lists the admissible labels (each pair is checked against it; labels no
 * one used do not change κ); otherwise the labels seen are used. `null` with a reason when there
 * are no pairs, or when p_e = 1 (both coders gave every unit the same label, so agreement cannot be
 * told from chance).
 */
export function cohenKappa(pairs: readonly RatingPair[], categories?: readonly Rating[]): KappaResult {
  const coded = codePairs(pairs, categories, 'cohenKappa')
  const n = coded.first.length
  if (n === 0) return { n, kappa: null, po: null, pe: null, reason: 'no pairs of ratings' }
  const q = coded.labels.length
  const { agreeing, chance, kappa } = kappaOf(coded, new Float64Array(n).fill(1), new Float64Array(q), new Float64Array(q))
  const po = agreeing / n
  const pe = chance / (n * n)
  if (kappa === null) {
    const only = coded.labels[coded.first[0]!]!
    return { n, kappa: null, po, pe, reason: `no variation: both coders labelled every unit ${describeRating(only)}` }
  }
  return { n, kappa, po, pe, reason: null }
}

/**
 * A percentile bootstrap interval for Cohen's kappa that resamples the pairs (units) with
 * replacement; replicates with p_e = 1 are skipped and counted. `null` when κ itself is `null`.
 */
export function kappaBootstrap(pairs: readonly RatingPair[], options: BootstrapOptions): BootstrapInterval | null {
  bootstrapSettings(options)
  const coded = codePairs(pairs, undefined, 'kappaBootstrap')
  const n = coded.first.length
  const q = coded.labels.length
  const weights = new Float64Array(n).fill(1)
  const rows = new Float64Array(q)
  const columns = new Float64Array(q)
  if (n === 0 || kappaOf(coded, weights, rows, columns).kappa === null) return null
  return bootstrapCases(n, options, (draws) => {
    weights.fill(0)
    for (const i of draws) weights[i]! += 1
    return kappaOf(coded, weights, rows, columns).kappa
  })
}

/**
 * Counts of the pairs by [first label][second label], with a cell (0 included) for every row and
 * column category, keyed by `String(category)`. Every label must be in its list.
 */
export function confusionMatrix(
  pairs: readonly RatingPair[],
  rowCategories: readonly Rating[],
  columnCategories: readonly Rating[],
): Record<string, Record<string, number>> {
  const caller = 'confusionMatrix'
  const rows = indexCategories(rowCategories, caller, 'rowCategories')
  const columns = indexCategories(columnCategories, caller, 'columnCategories')
  const cells = rowCategories.map(() => new Array<number>(columnCategories.length).fill(0))
  for (const [i, values] of presentValues(pairs, caller, 'pairs').entries()) {
    if (values.length !== 2 || pairs[i]?.length !== 2) {
      throw new StatisticsInputError(`${caller}: pairs[${i}] must hold exactly two labels, [row, column], and no null`)
    }
    const row = categoryAt(rows, values[0]!, caller, `pairs[${i}][0]`, 'rowCategories')
    const column = categoryAt(columns, values[1]!, caller, `pairs[${i}][1]`, 'columnCategories')
    cells[row]![column]! += 1
  }
  // fromEntries defines own properties, so even a category named "__proto__" is an ordinary key.
  return Object.fromEntries(
    rowCategories.map((row, r) => [String(row), Object.fromEntries(columnCategories.map((column, c) => [String(column), cells[r]?.[c] ?? 0]))]),
  )
}
