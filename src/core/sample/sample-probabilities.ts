/**
 * Each sampled case's inclusion probability, recomputed from the recorded draws as the sampler
 * computed it (draw.ts, draw-judge.ts, draw-active.ts): n/N for a uniform design, n_h/N_h for a
 * stratified one, and for an active one the probabilities its draws record for every case, which
 * add up to each draw's expected size and never fall below the floor.
 */
import type { PathSegment } from '../common/json-path.js'
import { plural, SPLITS } from '../common/primitives.js'
import { MIN_STRATUM_CASES } from './draw-judge.js'
import type { SampleDraw, SampleFile } from './sample-format.js'

/** Refuses the sample file at a JSON path: what is wrong, what the draws imply there, and what the file holds. */
export type SampleFail = (path: readonly PathSegment[], summary: string, expected: string, found?: string) => never

/** Relative difference below which two probabilities are one: the file holds the doubles the sampler computed, which JSON keeps exactly. */
const RELATIVE_TOLERANCE = 1e-12

/** Whether two inclusion probabilities are the same, up to the last digits of a double. */
export function sameProbability(a: number, b: number): boolean {
  return Math.abs(a - b) <= RELATIVE_TOLERANCE * Math.max(Math.abs(a), Math.abs(b))
}

/** Refuses a case whose probability is not the one its design and the draws give. */
export function checkProbabilities(sample: SampleFile, fail: SampleFail): void {
  const first = sample.draws[0]!
  if (first.method === 'uniform') checkUniform(sample, fail)
  else if (first.method === 'active') checkActive(sample, fail)
  else if ((first.strata ?? 'split') === 'split') checkBySplit(sample, fail)
  else checkByJudge(sample, fail)
}

function refuseCase(fail: SampleFail, sample: SampleFile, index: number, expected: number, because: string): never {
  const found = sample.cases[index]!.probability
  return fail(
    ['cases', index, 'probability'],
    `the inclusion probability is ${found}, and the draws give ${expected}: ${because}.`,
    `${expected}, as the recorded draws give it`,
    String(found),
  )
}

/** Uniform: every case n/N, n the cases of all the draws together. */
function checkUniform(sample: SampleFile, fail: SampleFail): void {
  const last = sample.draws[sample.draws.length - 1]!
  const drawn = sample.cases.length
  const expected = drawn / last.population
  for (const [index, entry] of sample.cases.entries()) {
    if (!sameProbability(entry.probability, expected))
      refuseCase(
        fail,
        sample,
        index,
        expected,
        `${drawn} of ${plural(last.population, 'case')} drawn uniformly without replacement (n/N = ${drawn}/${last.population})`,
      )
  }
}

/** Stratified by split: each case n_h/N_h of its split, n_h the split's cases of all the draws together. */
function checkBySplit(sample: SampleFile, fail: SampleFail): void {
  const last = sample.draws[sample.draws.length - 1]!
  for (const split of SPLITS) {
    const drawn = sample.cases.filter((entry) => entry.split === split).length
    const cases = last.splits[split] ?? 0
    const expected = drawn / cases
    for (const [index, entry] of sample.cases.entries()) {
      if (entry.split === split && !sameProbability(entry.probability, expected))
        refuseCase(fail, sample, index, expected, `${drawn} of the ${cases} ${split} cases drawn, stratified by split (n_h/N_h = ${drawn}/${cases})`)
    }
  }
}

/**
 * Stratified by the judge: N_h is not recorded, but every stratum of a split has drawn cases (at
 * least two, or all of a smaller one), so the cases of a stratum share one probability n_h/N_h,
 * N_h = n_h/π is a whole number, and the N_h of a split's strata add up to its recorded cases.
 */
function checkByJudge(sample: SampleFile, fail: SampleFail): void {
  const last = sample.draws[sample.draws.length - 1]!
  const strata = new Map<string, number[]>()
  for (const [index, entry] of sample.cases.entries()) {
    const key = entry.stratum ?? ''
    let indices = strata.get(key)
    if (indices === undefined) strata.set(key, (indices = []))
    indices.push(index)
  }
  const sizes = new Map<string, { split: string; first: number; drawn: number; size: number }>()
  for (const [stratum, indices] of strata) {
    const shared = mostCommon(indices.map((index) => sample.cases[index]!.probability))
    for (const index of indices) {
      if (!sameProbability(sample.cases[index]!.probability, shared))
        refuseCase(
          fail,
          sample,
          index,
          shared,
          `the cases of the stratum "${stratum}" share one probability, n_h/N_h, and most of its ${indices.length} drawn cases have ${shared}`,
        )
    }
    const drawn = indices.length
    const size = Math.round(drawn / shared)
    if (!(size >= drawn && Number.isFinite(size) && sameProbability(drawn / size, shared)))
      fail(
        ['cases', indices[0]!, 'probability'],
        `the ${plural(drawn, 'drawn case')} of the stratum "${stratum}" have the inclusion probability ${shared}, which is n_h/N_h = ${drawn}/N_h for no whole number N_h of cases in the stratum.`,
        `${drawn}/N_h, N_h ≥ ${drawn} the cases of the stratum at the draw`,
        String(shared),
      )
    if (drawn < Math.min(MIN_STRATUM_CASES, size))
      fail(
        ['cases', indices[0]!, 'stratum'],
        `the stratum "${stratum}" of ${size} cases has ${plural(drawn, 'drawn case')}, and a draw stratified by the judge takes at least ${MIN_STRATUM_CASES} of each stratum (or all of a smaller one).`,
        `at least ${Math.min(MIN_STRATUM_CASES, size)} cases of the stratum`,
        String(drawn),
      )
    sizes.set(stratum, { split: sample.cases[indices[0]!]!.split, first: indices[0]!, drawn, size })
  }
  for (const split of SPLITS) {
    const own = [...sizes].filter(([, stratum]) => stratum.split === split)
    const total = own.reduce((sum, [, stratum]) => sum + stratum.size, 0)
    const recorded = last.splits[split] ?? 0
    if (total === recorded) continue
    const parts = own.map(([key, stratum]) => `${key}: ${stratum.drawn}/${sample.cases[stratum.first]!.probability} = ${stratum.size}`).join(', ')
    fail(
      own.length === 0 ? ['draws', sample.draws.length - 1, 'splits', split] : ['cases', own[0]![1].first, 'probability'],
      `the inclusion probabilities of the ${split} strata put ${plural(total, 'case')} in them (N_h = n_h/π${parts === '' ? '' : `; ${parts}`}), and the draw records ${recorded} ${split} cases, each in one stratum with drawn cases.`,
      `probabilities n_h/N_h whose N_h add up to ${recorded}, the ${split} cases at the draw`,
      parts === '' ? 'no stratum' : parts,
    )
  }
}

/** The value most of `values` hold (the first of the most common on a tie). */
function mostCommon(values: readonly number[]): number {
  const counts = new Map<number, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  let best = values[0]!
  for (const [value, count] of counts) if (count > counts.get(best)!) best = value
  return best
}

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0)

/** What an active draw records, without which its probabilities cannot be checked. */
const ACTIVE_FIELDS = ['judge', 'floor', 'expected_size', 'inclusion_probabilities'] as const

/**
 * Active: each draw records its judge, floor, expected size and every case's probability (in the
 * order of the ids); those add up to its expected size (a further phase: add that much to the draws
 * before, never lowering a probability), and the first's are at least the floor τ·n/N; each sampled
 * case's probability is one the last draw records, and every case of probability 1 is sampled.
 */
function checkActive(sample: SampleFile, fail: SampleFail): void {
  let previous: readonly number[] | undefined
  for (const [index, draw] of sample.draws.entries()) {
    const missing = ACTIVE_FIELDS.find((field) => draw[field] === undefined)
    if (missing !== undefined)
      fail(
        ['draws', index, missing],
        `the draw is active and records no ${missing}: an active draw records its judge, its floor, its expected size and every case's inclusion probability, without which the probabilities of its cases cannot be checked.`,
        `"${missing}", as \`vitest-rubric sample --method active\` writes it`,
      )
    const recorded = draw.inclusion_probabilities!
    const path = ['draws', index, 'inclusion_probabilities']
    if (index === 0) {
      const least = floorOf(draw)
      const below = recorded.findIndex((probability) => probability < least * (1 - 1e-9))
      if (below >= 0)
        fail(
          [...path, below],
          `the probability ${recorded[below]} is below the floor of the draw, τ·n/N = ${draw.floor}·${draw.expected_size}/${draw.population} = ${least}: an active draw spreads a share τ of its expected size evenly over every case.`,
          `at least ${least}`,
          String(recorded[below]),
        )
    }
    if (previous !== undefined) {
      const lowered = recorded.findIndex((probability, at) => probability < previous![at]! * (1 - RELATIVE_TOLERANCE))
      if (lowered >= 0)
        fail(
          [...path, lowered],
          `the probability ${recorded[lowered]} is below ${previous[lowered]}, the case's probability under the draws before: a further phase brings every probability to 1 − (1 − π)(1 − π2), never lower.`,
          `at least ${previous[lowered]}`,
          String(recorded[lowered]),
        )
    }
    const total = sum(recorded)
    const before = previous === undefined ? 0 : sum(previous)
    const expected = draw.expected_size!
    // The sums of N doubles in [0, 1] are exact to N·ε of their size; an extension's size may fall short of what the earlier draws leave by 1e-9.
    const tolerance = 1e-9 + 4 * recorded.length * Number.EPSILON * Math.max(total, expected)
    if (Math.abs(total - before - expected) > tolerance)
      fail(
        path,
        index === 0
          ? `the probabilities add up to ${total}, and the draw's expected size is ${expected}: an active draw scales every case's probability so that they add up to it.`
          : `the probabilities add up to ${total}, ${total - before} more than draw ${index - 1}'s, and the draw's expected size is ${expected}: a further phase adds that many cases in expectation, Σ(1 − π)·π2.`,
        `probabilities that add up to ${before + expected}`,
        String(total),
      )
    previous = recorded
  }
  const lastIndex = sample.draws.length - 1
  const recorded = sample.draws[lastIndex]!.inclusion_probabilities!
  // A case of probability 1 is drawn whatever the seed: a sample that lacks one has lost it, or claims a certainty no draw gave.
  const certain = recorded.filter((probability) => sameProbability(probability, 1)).length
  const sampledCertain = sample.cases.filter((entry) => sameProbability(entry.probability, 1)).length
  if (certain > sampledCertain)
    fail(
      ['cases'],
      `${plural(certain, 'case')} of the population ${certain === 1 ? 'has' : 'have'} the inclusion probability 1 under the draws (draws[${lastIndex}] › inclusion_probabilities), and the sample holds ${sampledCertain} of probability 1: a case of probability 1 is drawn whatever the seed.`,
      `every case of probability 1 among the cases, ${certain}`,
      String(sampledCertain),
    )
  const sorted = [...recorded].sort((a, b) => a - b)
  for (const [index, entry] of sample.cases.entries()) {
    if (!holds(sorted, entry.probability))
      fail(
        ['cases', index, 'probability'],
        `the inclusion probability ${entry.probability} is none of those the last draw records for the cases of the population (draws[${lastIndex}] › inclusion_probabilities).`,
        `one of draws[${lastIndex}] › inclusion_probabilities: the case's probability under the draws so far`,
        String(entry.probability),
      )
  }
}

/** An active draw's floor τ·n/N (0 when the draw does not record τ or n). */
function floorOf(draw: SampleDraw): number {
  if (draw.floor === undefined || draw.expected_size === undefined || draw.population === 0) return 0
  return (draw.floor * draw.expected_size) / draw.population
}

/** Whether the ascending `sorted` holds `value`, up to the last digits of a double. */
function holds(sorted: readonly number[], value: number): boolean {
  let low = 0
  let high = sorted.length
  const from = value * (1 - RELATIVE_TOLERANCE)
  while (low < high) {
    const middle = (low + high) >> 1
    if (sorted[middle]! < from) low = middle + 1
    else high = middle
  }
  return low < sorted.length && sameProbability(sorted[low]!, value)
}
