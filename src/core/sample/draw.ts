/**
 * Drawing cases for human review with a known design: a simple random sample without replacement,
 * or one stratified by split with proportional allocation; and extending a sample by drawing more
 * of the cases not drawn yet, which keeps it a sample of the same design (docs/statistics.md#drawing-a-sample-and-estimating).
 */
import { RevisionError, UsageError } from '../common/errors.js'
import { plural, SPLITS, type Split } from '../common/primitives.js'
import { createRandom } from '../stats/random.js'
import {
  ACTIVE_FLOOR,
  activeProbabilities,
  judgeStratum,
  mergeSmallStrata,
  poissonDraw,
  refuseCopyExtension,
  refuseEmptyDraw,
  refuseExtension,
} from './draw-judge.js'
import { extendActive, extensionBase, inIdOrder } from './draw-active.js'
import { allocate, drawFrom, figuresText, populationFigures } from './population.js'
export { allocate, populationFigures } from './population.js'
export type { DrawRequest, DrawResult, Population, PopulationCase } from './draw-types.js'
import type { DrawRequest, DrawResult, Population, PopulationCase } from './draw-types.js'
import { SAMPLE_FORMAT, type SampledCase, type SampleDraw, type SampleFile, type SampleMethod, type SampleStrata } from './sample-file.js'

/** Refuses to extend a sample drawn from other cases: its inclusion probabilities would not hold. */
function checkSamePopulation(previous: SampleFile, figures: ReturnType<typeof populationFigures>, present: ReadonlySet<string>, file: string): void {
  const last = previous.draws[previous.draws.length - 1]!
  if (last.population_sha256 === figures.population_sha256) return
  const gone = previous.cases.filter((drawn) => !present.has(drawn.id)).map((drawn) => drawn.id)
  const difference = figures.population - last.population
  const change =
    difference === 0
      ? 'as many cases, but not the same ones (a case was renamed, replaced or moved to another split)'
      : `${plural(Math.abs(difference), 'case')} ${difference > 0 ? 'more' : 'fewer'}`
  throw new RevisionError({
    code: 'SAMPLE_POPULATION_CHANGED',
    file,
    path: ['draws', previous.draws.length - 1, 'population_sha256'],
    summary:
      `the cases changed since the sample was drawn: ${figuresText(last.population, last.splits)} then, ${figuresText(figures.population, figures.splits)} now, ${change}` +
      `${gone.length === 0 ? '' : `; ${plural(gone.length, 'drawn case')} no longer in the fixture (${gone.slice(0, 10).join(', ')}${gone.length > 10 ? ', …' : ''})`}. ` +
      'Extending the sample would give inclusion probabilities that hold for neither set of cases.',
    expected: 'the same cases, in the same splits, as at the last draw',
    hint: 'start a new sample with `vitest-rubric sample <dir> --size <n> --seed <s> --new` (it replaces sample.json), or restore the cases.',
  })
}

/**
 * The sample after drawing `request.size` more cases of `population`: a new sample when there is
 * none (or `request.fresh`), otherwise the given one extended from the cases it does not hold, with
 * every inclusion probability brought to the design of all draws together (n/N, or n_h/N_h by split;
 * for an active design, a further Poisson phase and 1 − (1 − π)(1 − π2)).
 * Deterministic for a seed, given the same cases in the same order and the same earlier sample.
 */
export function drawSample(previous: SampleFile | undefined, population: Population, request: DrawRequest): DrawResult {
  const figures = populationFigures(population.cases)
  const earlier = request.fresh ? undefined : previous
  const strata = request.method === 'stratified' ? (request.strata ?? 'split') : undefined
  let recorded: readonly number[] | undefined
  if (earlier !== undefined) {
    const first = earlier.draws[0]!
    const design = designOf(first.method, first.strata)
    // Strata by the judge's labels are fixed at the draw; an active design extends by a further Poisson phase.
    if (design.byJudge && first.method !== 'active') refuseExtension(design.words, request.file)
    if (first.method === 'active') recorded = extensionBase(earlier, request, request.file)
    const like = earlier.draws.find((draw) => draw.like !== undefined)?.like
    if (like !== undefined) refuseCopyExtension(like.file, request.file)
    if (first.method !== request.method || (first.strata ?? 'split') !== (strata ?? 'split')) {
      const options = `${design.options}${first.judge === undefined ? '' : ` --judge ${first.judge}`}`
      throw new UsageError({
        code: 'USAGE',
        file: request.file,
        summary: `the sample was drawn ${design.words}, and an extension keeps its design.`,
        expected: options,
        hint: `extend it with ${options}, or start a new sample with --new.`,
      })
    }
    checkSamePopulation(earlier, figures, new Set(population.cases.map((entry) => entry.id)), request.file)
    if (recorded !== undefined) return extendActive(earlier, recorded, population, request, figures)
  }
  const kept = earlier?.cases ?? []
  const taken = new Set(kept.map((drawn) => drawn.id))
  const undrawn = population.cases.filter((entry) => !taken.has(entry.id))
  if (!Number.isInteger(request.size) || request.size < 1 || request.size > undrawn.length) {
    throw new UsageError({
      code: 'USAGE',
      file: request.file,
      summary: `--size must be a whole number from 1 to the ${plural(undrawn.length, 'case')} not drawn yet; found ${String(request.size)}.`,
      expected: `--size between 1 and ${undrawn.length}`,
      hint: undrawn.length === 0 ? 'every case is drawn: review them, or start a new sample with --new.' : `pass a --size of at most ${undrawn.length}.`,
    })
  }
  if (request.method === 'active' || (strata !== undefined && strata !== 'split')) return drawByJudge(population, request, figures, strata)
  const random = createRandom(request.seed)
  const drawIndex = earlier?.draws.length ?? 0
  let chosen: PopulationCase[]
  if (request.method === 'uniform') chosen = drawFrom(undrawn, request.size, random)
  else {
    const strata = SPLITS.map((split) => ({
      split,
      size: figures.splits[split] ?? 0,
      drawn: kept.filter((drawn) => drawn.split === split).length,
      undrawn: undrawn.filter((entry) => entry.split === split),
    }))
    const counts = allocate(request.size, strata, request.file)
    chosen = strata.flatMap((stratum, h) => drawFrom(stratum.undrawn, counts[h]!, random))
  }
  const draw: SampleDraw = {
    seed: request.seed,
    method: request.method,
    size: request.size,
    drawn_at: request.now.toISOString(),
    ...figures,
    case_set_sha256: population.caseSetSha256,
  }
  const drawn: SampledCase[] = chosen.map((entry) => ({
    id: entry.id,
    draw: drawIndex,
    probability: 0,
    stratum: request.method === 'uniform' ? null : entry.split,
    split: entry.split,
    answer_sha256: entry.answerSha256,
  }))
  const all = [...kept, ...drawn]
  const perSplit = new Map<Split, number>()
  for (const entry of all) perSplit.set(entry.split, (perSplit.get(entry.split) ?? 0) + 1)
  const probabilityOf = (entry: SampledCase) =>
    request.method === 'uniform' ? all.length / figures.population : perSplit.get(entry.split)! / figures.splits[entry.split]!
  const cases = all.map((entry) => ({ ...entry, probability: probabilityOf(entry) }))
  return {
    sample: { format: SAMPLE_FORMAT, version: 1, draws: [...(earlier?.draws ?? []), draw], cases },
    drawn: cases.slice(kept.length),
  }
}

/** A design in words, the options that draw it, and whether the judge's labels define it. */
export function designOf(method: SampleMethod, strata: SampleStrata | undefined): { words: string; options: string; byJudge: boolean } {
  if (method === 'uniform') return { words: 'uniformly', options: 'no --by or --method', byJudge: false }
  if (method === 'active') return { words: "actively (by the judge's uncertainty)", options: '--method active', byJudge: true }
  const by = strata ?? 'split'
  const words =
    by === 'split' ? 'stratified by split' : `stratified by the judge's ${by === 'decision' ? 'decision' : 'least-sure criterion'} within each split`
  return { words, options: `--by ${by}`, byJudge: by !== 'split' }
}

/** The recorded design of a draw made by the judge: an active (Poisson) draw, or a stratified one with the judge's strata. */
function drawByJudge(
  population: Population,
  request: DrawRequest,
  figures: ReturnType<typeof populationFigures>,
  strata: SampleStrata | undefined,
): DrawResult {
  const cases = population.cases
  if (request.judge === undefined || cases.some((entry) => entry.judge === undefined))
    throw new Error('a design drawn by the judge needs its design of every case')
  const random = createRandom(request.seed)
  let chosen: { entry: PopulationCase; probability: number; stratum: string | null }[]
  let mergedStrata: Record<string, string> | undefined
  let everyCase: number[] = []
  if (request.method === 'active') {
    const probabilities = activeProbabilities(
      cases.map((entry) => entry.judge!.uncertainty),
      request.size,
    )
    chosen = poissonDraw(probabilities, random).map((i) => ({ entry: cases[i]!, probability: probabilities[i]!, stratum: null }))
    if (chosen.length === 0) refuseEmptyDraw(request.size, request.file)
    everyCase = inIdOrder(cases, probabilities)
  } else {
    if (strata === undefined || strata === 'split') throw new Error('a stratified draw by the judge needs strata by decision or by criterion')
    const by = strata
    const byJudge = new Map<string, PopulationCase[]>()
    for (const entry of cases) {
      const key = judgeStratum(entry.split, entry.judge!, by)
      let group = byJudge.get(key)
      if (group === undefined) byJudge.set(key, (group = []))
      group.push(entry)
    }
    // A stratum of one case would be drawn whole and give no variance: it joins its split's largest.
    const { groups, merged } = mergeSmallStrata(byJudge)
    if (Object.keys(merged).length > 0) mergedStrata = merged
    const keys = [...groups.keys()]
    // Two a stratum: its variance needs two reviewed cases.
    const counts = allocate(
      request.size,
      keys.map((key) => ({ size: groups.get(key)!.length, drawn: 0 })),
      request.file,
      { count: 2, of: 'strata' },
    )
    chosen = keys.flatMap((key, h) => {
      const group = groups.get(key)!
      return drawFrom(group, counts[h]!, random).map((entry) => ({ entry, probability: counts[h]! / group.length, stratum: key }))
    })
  }
  const draw: SampleDraw = {
    seed: request.seed,
    method: request.method,
    size: chosen.length,
    drawn_at: request.now.toISOString(),
    ...figures,
    case_set_sha256: population.caseSetSha256,
    ...(strata === undefined ? {} : { strata }),
    ...(mergedStrata === undefined ? {} : { merged_strata: mergedStrata }),
    judge: request.judge,
    ...(request.method === 'active' ? { floor: ACTIVE_FLOOR, expected_size: request.size, inclusion_probabilities: everyCase } : {}),
  }
  const drawn: SampledCase[] = chosen.map(({ entry, probability, stratum }) => ({
    id: entry.id,
    draw: 0,
    probability,
    stratum,
    split: entry.split,
    answer_sha256: entry.answerSha256,
    ...(request.method === 'active' || strata === 'criterion' ? { least_sure: { ...entry.judge!.leastSure } } : {}),
  }))
  return { sample: { format: SAMPLE_FORMAT, version: 1, draws: [draw], cases: drawn }, drawn }
}
