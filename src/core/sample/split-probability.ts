/**
 * The inclusion probability a split's estimate weighs each of its sampled cases by
 * (docs/statistics.md#drawing-a-sample-and-estimating).
 */
import type { Split } from '../common/primitives.js'
import type { SampledCase, SampleFile } from './sample-format.js'

/**
 * A uniform draw over every case is, within a split, a simple random sample of a random size n_h:
 * given n_h, a simple random sample of n_h of the split's N_h cases, each drawn with probability
 * n_h/N_h. The split's estimate is conditional on n_h, so its variance holds 1 − n_h/N_h, not the
 * draw's 1 − n/N. Any other design is already drawn within each split (strata by split, or within
 * them) or case by case (active): its recorded probability is the one to weigh by.
 */
export function splitProbabilities(sample: SampleFile): (entry: SampledCase) => number {
  if (!sample.draws.every((draw) => draw.method === 'uniform')) return (entry) => entry.probability
  // The extensions of a uniform sample draw from the same population, which the last draw describes.
  const sizes = sample.draws[sample.draws.length - 1]!.splits
  const drawn = new Map<Split, number>()
  for (const entry of sample.cases) drawn.set(entry.split, (drawn.get(entry.split) ?? 0) + 1)
  return (entry) => {
    const size = sizes[entry.split]
    return size === undefined || size === 0 ? entry.probability : Math.min(1, drawn.get(entry.split)! / size)
  }
}
