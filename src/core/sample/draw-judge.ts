/**
 * Designs drawn by the judge (docs/statistics.md#designs-drawn-by-the-judge): an active (Poisson)
 * draw whose inclusion probabilities grow with the judge's uncertainty, and a stratified draw whose
 * strata are, within each split, the judge's decision or the criterion it is least sure of.
 */
import { UsageError } from '../common/errors.js'
import { plural } from '../common/primitives.js'
import type { Random } from '../stats/random.js'
import type { JudgeCaseDesign } from './judge-design.js'
import type { SampleStrata } from './sample-format.js'

/**
 * τ, the active design's floor: this share of the expected size is spread evenly over every case,
 * the rest by the judge's uncertainty, so that every case keeps π ≥ τ·n/N (its weight at most
 * N/(τ·n)) however sure the judge is of it.
 */
export const ACTIVE_FLOOR = 0.2

/**
 * The active design's inclusion probabilities: πᵢ = min(1, s·(τ/N + (1 − τ)·uᵢ/Σu)), uᵢ the
 * judge's uncertainty of case i and s ≥ n the scale at which Σπ = n (s = n when no πᵢ reaches 1;
 * the cases it caps at 1 are drawn for certain and the rest of n is spread over the others). With
 * Σu = 0 (the judge is sure of every case) the draw is uniform, πᵢ = n/N.
 */
export function activeProbabilities(uncertainties: readonly number[], size: number, floor: number = ACTIVE_FLOOR): number[] {
  const n = uncertainties.length
  const total = uncertainties.reduce((sum, u) => sum + u, 0)
  const shares = uncertainties.map((u) => (total > 0 ? floor / n + ((1 - floor) * u) / total : 1 / n))
  const capped = new Set<number>()
  for (;;) {
    const rest = shares.reduce((sum, share, i) => sum + (capped.has(i) ? 0 : share), 0)
    const scale = (size - capped.size) / rest
    let grew = false
    for (const [i, share] of shares.entries()) {
      if (!capped.has(i) && scale * share >= 1) {
        capped.add(i)
        grew = true
      }
    }
    if (!grew) return shares.map((share, i) => (capped.has(i) ? 1 : Math.min(1, scale * share)))
  }
}

/** Draws each case on its own with its probability (Poisson sampling): the indices drawn, in order. */
export function poissonDraw(probabilities: readonly number[], random: Random): number[] {
  const drawn: number[] = []
  for (const [i, probability] of probabilities.entries()) if (random() < probability) drawn.push(i)
  return drawn
}

/** The stratum of a case in a design stratified by the judge: its split, then the judge's decision or least-sure criterion. */
export function judgeStratum(split: string, design: JudgeCaseDesign, strata: Exclude<SampleStrata, 'split'>): string {
  if (strata === 'decision') return `${split}/${design.decision}`
  return `${split}/${design.leastSure.criterion ?? '(unlabelled)'}`
}

/** The fewest cases of a stratum whose variance the estimate can compute: two reviewed cases. */
export const MIN_STRATUM_CASES = 2

/**
 * Merges each stratum of fewer than {@link MIN_STRATUM_CASES} cases into the largest stratum of its
 * split (the first of the largest on a tie), so that every stratum of a split with two cases or more
 * can give a variance. The merge depends on the judge's labels only, never on the draw, so the
 * merged strata are a stratification like any other. `groups` maps a stratum (`<split>/…`) to its
 * cases, in order of first appearance; `merged` names each stratum merged and the one it went into.
 */
export function mergeSmallStrata<T extends { readonly split: string }>(
  groups: ReadonlyMap<string, readonly T[]>,
): { groups: Map<string, T[]>; merged: Record<string, string> } {
  const result = new Map<string, T[]>([...groups].map(([key, group]) => [key, [...group]]))
  const merged: Record<string, string> = {}
  const splits = new Map<string, string[]>()
  for (const [key, group] of groups) {
    const split = group[0]!.split
    splits.set(split, [...(splits.get(split) ?? []), key])
  }
  for (const keys of splits.values()) {
    const small = keys.filter((key) => groups.get(key)!.length < MIN_STRATUM_CASES)
    if (small.length === 0 || keys.length === 1) continue
    const into = keys.reduce((largest, key) => (groups.get(key)!.length > groups.get(largest)!.length ? key : largest))
    for (const key of small) {
      if (key === into) continue
      result.get(into)!.push(...result.get(key)!)
      result.delete(key)
      merged[key] = into
    }
  }
  return { groups: result, merged }
}

/** A design drawn by the judge is drawn once: its probabilities rest on the labels as they were at the draw. */
export function refuseExtension(design: string, file: string): never {
  throw new UsageError({
    code: 'USAGE',
    file,
    summary: `the sample was drawn ${design}, by the judge's labels as they were at the draw; it cannot be extended, as more draws would need the probabilities the first gave every case under the labels as they are now.`,
    expected: '--new, to draw a new sample in its place',
    hint: 'draw a new, larger sample with --new (the reviews made stay valid as reviews, and count when their cases are drawn again).',
  })
}

/** Refuses an active draw that drew no case: an estimate needs some. */
export function refuseEmptyDraw(expected: number, file: string): never {
  throw new UsageError({
    code: 'USAGE',
    file,
    summary: `the active draw, of expected size ${expected}, drew no case (each case is drawn on its own, so the size varies).`,
    expected: `a --size that draws some cases`,
    hint: `draw again with another --seed, or a larger --size than ${plural(expected, 'case')}.`,
  })
}

/** Refuses to extend a sample that copies another's design: extended alone, it would no longer be one draw with the other. */
export function refuseCopyExtension(copied: string, file: string): never {
  throw new UsageError({
    code: 'USAGE',
    file,
    summary: `the sample copies the design of ${copied} (\`sample --like\`); extended alone, the two would no longer be one draw of the tasks.`,
    expected: `an extension of ${copied}, copied again`,
    hint: `extend ${copied} (\`vitest-rubric sample <its dir> --size <n> --seed <s>\`), then copy it again with \`--like <its dir> --new\`.`,
  })
}
