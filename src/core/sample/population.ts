/**
 * The figures of a population that a draw records and a check of sample.json recomputes: N, N_h
 * and the fingerprint of the cases' ids and splits, and the proportional allocation of a
 * stratified draw among its strata.
 */
import { UsageError } from '../common/errors.js'
import { plural, SPLITS, type Split } from '../common/primitives.js'
import { compareCodePoints, fingerprint } from '../json/canonical-json.js'
import { randomIndex, type Random } from '../stats/random.js'
import type { PopulationCase, PopulationFigures } from './draw-types.js'

/** N, N_h and the fingerprint of the cases' ids and splits, whatever their order. */
export function populationFigures(cases: readonly PopulationCase[]): PopulationFigures {
  const splits: Partial<Record<Split, number>> = {}
  for (const entry of cases) splits[entry.split] = (splits[entry.split] ?? 0) + 1
  const pairs = cases.map((entry) => [entry.id, entry.split]).sort((a, b) => compareCodePoints(a[0]!, b[0]!))
  return { population: cases.length, splits, population_sha256: fingerprint(pairs) }
}

/** N and each N_h in words: `400 cases (development 360, held_out 40)`. */
export function figuresText(population: number, splits: Partial<Record<Split, number>>): string {
  const parts = SPLITS.filter((split) => (splits[split] ?? 0) > 0).map((split) => `${split} ${splits[split]}`)
  return `${plural(population, 'case')}${parts.length === 0 ? '' : ` (${parts.join(', ')})`}`
}

/**
 * Proportional allocation of `size` more cases among the splits, at least one in every non-empty
 * split: each split's total is brought towards its share (total drawn · N_h / N), one case at a time
 * to the split furthest below its share that has cases left.
 */
export function allocate(
  size: number,
  strata: readonly { readonly size: number; readonly drawn: number }[],
  file: string,
  least: { readonly count: number; readonly of: string } = { count: 1, of: 'splits' },
): number[] {
  const population = strata.reduce((sum, stratum) => sum + stratum.size, 0)
  const total = strata.reduce((sum, stratum) => sum + stratum.drawn, 0) + size
  const added = strata.map((stratum): number => (stratum.size > 0 && stratum.drawn === 0 ? Math.min(least.count, stratum.size) : 0))
  const floor = added.reduce((sum, count) => sum + count, 0)
  if (floor > size) {
    const strataCount = added.filter((count) => count > 0).length
    throw new UsageError({
      code: 'USAGE',
      file,
      summary: `a stratified draw takes at least ${least.count === 1 ? 'one case' : `${least.count} cases (or all)`} of each of the ${strataCount} ${least.of} with cases none of which is drawn yet, ${floor} in all, and --size is ${size}.`,
      expected: `--size ${floor} or more`,
      hint: `pass --size ${floor} or more, or draw a uniform sample (without --by).`,
    })
  }
  for (let left = size - floor; left > 0; left--) {
    let best = -1
    let deficit = Number.NEGATIVE_INFINITY
    for (const [h, stratum] of strata.entries()) {
      if (stratum.drawn + added[h]! >= stratum.size) continue
      const below = (total * stratum.size) / population - (stratum.drawn + added[h]!)
      if (below > deficit) {
        best = h
        deficit = below
      }
    }
    added[best]!++
  }
  return added
}

/** Draws `count` of `items` without replacement: a partial Fisher–Yates shuffle. */
export function drawFrom<T>(items: readonly T[], count: number, random: Random): T[] {
  const pool = [...items]
  for (let i = 0; i < count; i++) {
    const j = i + randomIndex(random, pool.length - i)
    const chosen = pool[j]!
    pool[j] = pool[i]!
    pool[i] = chosen
  }
  return pool.slice(0, count)
}
