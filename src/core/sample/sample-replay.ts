/**
 * A uniform draw, or one stratified by split, is fixed by its seed and the cases it was made from,
 * in their order: replaying the draws of `sample.json` over the fixture's cases gives the cases
 * the file must list (docs/statistics.md#what-the-sample-file-must-agree-with).
 */
import { SPLITS, type Split } from '../common/primitives.js'
import { createRandom } from '../stats/random.js'
import { allocate, drawFrom } from './population.js'
import type { SampleFile } from './sample-format.js'

/** A case of the fixture as the replay sees it: its id and split, in the fixture's order. */
interface ReplayCase {
  readonly id: string
  readonly split: Split
}

/** The first case the file lists where the replayed draw gives another, or `null` when every case agrees. */
export interface ReplayMismatch {
  /** Its index in `sample.cases`. */
  readonly index: number
  readonly draw: number
  readonly found: string
  readonly expected: string
}

/**
 * Whether the draws can be replayed: uniform or stratified by split, none copied from another
 * fixture's sample (`--like`, whose cases are that sample's). A design drawn by the judge's labels
 * rests on the labels at the draw, which the fixture need not hold any longer.
 */
export function replayable(sample: SampleFile): boolean {
  return sample.draws.every(
    (draw) => draw.like === undefined && (draw.method === 'uniform' || (draw.method === 'stratified' && (draw.strata ?? 'split') === 'split')),
  )
}

/** Replays each draw from its seed over `cases` (the fixture's, in its order) and the cases drawn before it, as `sample` drew them. */
export function replayMismatch(sample: SampleFile, cases: readonly ReplayCase[]): ReplayMismatch | null {
  const taken = new Set<string>()
  let offset = 0
  for (const [index, draw] of sample.draws.entries()) {
    const random = createRandom(draw.seed)
    const undrawn = cases.filter((entry) => !taken.has(entry.id))
    let chosen: ReplayCase[]
    if (draw.method === 'uniform') chosen = drawFrom(undrawn, draw.size, random)
    else {
      const strata = SPLITS.map((split) => ({
        size: draw.splits[split] ?? 0,
        drawn: cases.filter((entry) => entry.split === split && taken.has(entry.id)).length,
        undrawn: undrawn.filter((entry) => entry.split === split),
      }))
      const counts = allocate(draw.size, strata, '')
      chosen = strata.flatMap((stratum, h) => drawFrom(stratum.undrawn, counts[h]!, random))
    }
    for (const [at, entry] of chosen.entries()) {
      const listed = sample.cases[offset + at]
      if (listed?.id !== entry.id) return { index: offset + at, draw: index, found: listed?.id ?? '', expected: entry.id }
      taken.add(entry.id)
    }
    offset += chosen.length
  }
  return null
}
