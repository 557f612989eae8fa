/**
 * What `sample.json` must agree with: its own recorded draws, and the fixture's cases when they are
 * the cases the draws were made from. The counts are checked against the draws and every inclusion
 * probability is recomputed from the design as the sampler computed it
 * (sample-probabilities.ts), so a hand-edited file (probabilities raised to 1, a case removed, a
 * count or a split changed) is refused rather than trusted (docs/statistics.md#drawing-a-sample-and-estimating).
 */
import { FixtureError, UsageError } from '../common/errors.js'
import { plural, SPLITS, type Split } from '../common/primitives.js'
import { idOrder } from './draw-active.js'
import { allocate, figuresText, populationFigures } from './population.js'
import { checkProbabilities, sameProbability, type SampleFail } from './sample-probabilities.js'
import { replayable, replayMismatch } from './sample-replay.js'
import type { SampleFile } from './sample-format.js'

/** What to do about a sample file that is refused. */
export const SAMPLE_FIX = 'restore sample.json from version control, or draw a new sample with `vitest-rubric sample <dir> --size <n> --seed <s> --new`.'

/** A case of the fixture as the check sees it. */
export interface SampleCheckCase {
  readonly id: string
  readonly split: Split
}

/**
 * Refuses (`SAMPLE_INVALID`, naming the JSON path) a sample that contradicts itself or, given the
 * fixture's `cases`, the cases it was drawn from: two designs, a case twice, a draw that does not
 * exist; draws that record different cases; a population or split count other than the draws (or
 * the fixture) give; a draw listing more or fewer cases than its size; a case in another split or
 * stratum than it was drawn in; an inclusion probability other than the design and the draws give.
 * The fixture is compared only when its cases are those of the last draw (`population_sha256`):
 * cases changed since are reported by the estimate, and an extension over them is refused.
 */
export function checkSample(sample: SampleFile, file: string, cases?: readonly SampleCheckCase[]): void {
  const fail: SampleFail = (path, summary, expected, found) => {
    throw new FixtureError({ code: 'SAMPLE_INVALID', file, path, summary, expected, found, hint: SAMPLE_FIX })
  }
  checkStructure(sample, fail)
  checkDrawsAgree(sample, fail)
  if (cases !== undefined) checkAgainstCases(sample, cases, fail)
  checkCounts(sample, file, fail)
  checkProbabilities(sample, fail)
  if (cases !== undefined) checkReplay(sample, cases, fail)
}

/** The cases a uniform or by-split sample lists are those its seeds draw from the fixture's cases, when they are the cases drawn from. */
function checkReplay(sample: SampleFile, cases: readonly SampleCheckCase[], fail: SampleFail): void {
  if (!replayable(sample)) return
  const last = sample.draws[sample.draws.length - 1]!
  if (populationFigures(cases.map(({ id, split }) => ({ id, split, answerSha256: null }))).population_sha256 !== last.population_sha256) return
  const mismatch = replayMismatch(sample, cases)
  if (mismatch === null) return
  const draw = sample.draws[mismatch.draw]!
  fail(
    ['cases', mismatch.index, 'id'],
    `the case "${mismatch.found}" is not the one the draw gives: draws[${mismatch.draw}] (seed ${JSON.stringify(draw.seed)}, ${draw.method === 'uniform' ? 'uniform' : 'stratified by split'}) over the fixture's ${plural(cases.length, 'case')}, in their order, draws "${mismatch.expected}" there. A sample is the draw its seed gives: cases chosen another way are no random sample, and an estimate from them is biased. If the fixture's cases were reordered since the draw, restore their order.`,
    `"${mismatch.expected}", the case the seed draws`,
    `"${mismatch.found}"`,
  )
}

function checkStructure(sample: SampleFile, fail: SampleFail): void {
  const method = sample.draws[0]!.method
  const strata = sample.draws[0]!.strata ?? 'split'
  for (const [index, draw] of sample.draws.entries()) {
    if (draw.method !== method)
      fail(['draws', index, 'method'], `the draw is ${draw.method} where the first is ${method}.`, `"${method}": a sample has one design`)
    if ((draw.strata ?? 'split') !== strata)
      fail(
        ['draws', index, 'strata'],
        `the draw is stratified by ${draw.strata ?? 'split'} where the first is by ${strata}.`,
        `"${strata}": a sample has one design`,
      )
    if (draw.size === 0 && (method !== 'active' || index === 0))
      fail(['draws', index, 'size'], 'the draw added no case.', 'a size of 1 or more (0 only for a further phase of an active design)')
    if (draw.inclusion_probabilities !== undefined && draw.inclusion_probabilities.length !== draw.population)
      fail(
        ['draws', index, 'inclusion_probabilities'],
        `${draw.inclusion_probabilities.length} probabilities for a population of ${draw.population} cases.`,
        'one probability for every case of the population, in the order of the case ids',
      )
  }
  if (method === 'stratified' && strata !== 'split' && sample.draws.length > 1)
    fail(
      ['draws', 1],
      `a sample stratified by the judge's ${strata} is drawn once (its strata rest on the labels at the draw), and this one records ${sample.draws.length} draws.`,
      'one draw',
    )
  const seen = new Map<string, number>()
  for (const [index, drawn] of sample.cases.entries()) {
    const earlier = seen.get(drawn.id)
    if (earlier !== undefined) fail(['cases', index, 'id'], `the case "${drawn.id}" is drawn twice (also cases[${earlier}]).`, 'each case at most once')
    seen.set(drawn.id, index)
    if (drawn.draw >= sample.draws.length)
      fail(['cases', index, 'draw'], `draw ${drawn.draw} does not exist.`, `an index of draws, below ${sample.draws.length}`)
    if ((drawn.stratum === null) !== (method !== 'stratified')) {
      fail(
        ['cases', index, 'stratum'],
        `the stratum does not fit the ${method} design.`,
        method !== 'stratified' ? 'null' : 'the stratum the case was drawn from',
      )
    }
  }
}

/** Every draw of a sample is made from the same cases: an extension over changed cases is refused, and `--like` copies every draw. */
function checkDrawsAgree(sample: SampleFile, fail: SampleFail): void {
  const first = sample.draws[0]!
  const same = 'every draw of a sample is made from the same cases (an extension over changed cases is refused), so each records what draw 0 does'
  for (const [index, draw] of sample.draws.entries()) {
    if (draw.population_sha256 !== first.population_sha256)
      fail(['draws', index, 'population_sha256'], `the draw records other cases than draw 0; ${same}.`, `"${first.population_sha256}", as draw 0`)
    if (draw.population !== first.population)
      fail(
        ['draws', index, 'population'],
        `the draw records a population of ${plural(draw.population, 'case')}, and draw 0 of ${first.population}; ${same}.`,
        String(first.population),
        String(draw.population),
      )
    for (const split of SPLITS) {
      const recorded = draw.splits[split] ?? 0
      const atFirst = first.splits[split] ?? 0
      if (recorded !== atFirst)
        fail(
          ['draws', index, 'splits', split],
          `the draw records ${plural(recorded, `${split} case`)}, and draw 0 ${atFirst}; ${same}.`,
          String(atFirst),
          String(recorded),
        )
    }
  }
}

/** When the fixture's cases are those of the last draw: its counts, each sampled case's split and, for an active design, each case's recorded probability. */
function checkAgainstCases(sample: SampleFile, cases: readonly SampleCheckCase[], fail: SampleFail): void {
  const lastIndex = sample.draws.length - 1
  const last = sample.draws[lastIndex]!
  const figures = populationFigures(cases.map(({ id, split }) => ({ id, split, answerSha256: null })))
  if (figures.population_sha256 !== last.population_sha256) return
  const same = 'the fixture, whose cases are those the draws were made from (their ids and splits have the fingerprint population_sha256 records),'
  for (const [index, draw] of sample.draws.entries()) {
    if (draw.population !== figures.population)
      fail(
        ['draws', index, 'population'],
        `the draw records a population of ${plural(draw.population, 'case')}, and ${same} holds ${figures.population}.`,
        `${figures.population}, the cases of the fixture`,
        String(draw.population),
      )
    for (const split of SPLITS) {
      const recorded = draw.splits[split] ?? 0
      const now = figures.splits[split] ?? 0
      if (recorded !== now)
        fail(
          ['draws', index, 'splits', split],
          `the draw records ${plural(recorded, `${split} case`)}, and ${same} holds ${now}.`,
          `${now}, the ${split} cases of the fixture`,
          String(recorded),
        )
    }
  }
  const splitOf = new Map(cases.map((entry) => [entry.id, entry.split]))
  for (const [index, drawn] of sample.cases.entries()) {
    const split = splitOf.get(drawn.id)
    if (split === undefined)
      fail(['cases', index, 'id'], `the case "${drawn.id}" is not in ${same.slice(0, -1)}.`, 'the id of a case of the fixture', `"${drawn.id}"`)
    if (split !== drawn.split)
      fail(
        ['cases', index, 'split'],
        `the case "${drawn.id}" is in ${split} in the fixture, which holds the cases the draws were made from (population_sha256), and the sample lists it in ${drawn.split}.`,
        `"${split}", the split it was drawn in`,
        `"${drawn.split}"`,
      )
  }
  const recorded = last.inclusion_probabilities
  if (recorded === undefined) return
  const position = new Map(idOrder(cases).map((caseIndex, at) => [cases[caseIndex]!.id, at]))
  for (const [index, drawn] of sample.cases.entries()) {
    const at = position.get(drawn.id)!
    const expected = recorded[at]!
    if (!sameProbability(drawn.probability, expected))
      fail(
        ['cases', index, 'probability'],
        `the case "${drawn.id}" has the inclusion probability ${drawn.probability}, and the last draw records ${expected} for it (draws[${lastIndex}] › inclusion_probabilities[${at}], every case's probability under the draws so far, in the code-point order of the ids).`,
        String(expected),
        String(drawn.probability),
      )
  }
}

/** The cases each draw lists, in each split and stratum, against the draws' sizes and counts. */
function checkCounts(sample: SampleFile, file: string, fail: SampleFail): void {
  const method = sample.draws[0]!.method
  const strata = sample.draws[0]!.strata ?? 'split'
  const lastIndex = sample.draws.length - 1
  for (const [index, draw] of sample.draws.entries()) {
    const total = SPLITS.reduce((sum, split) => sum + (draw.splits[split] ?? 0), 0)
    if (total !== draw.population)
      fail(
        ['draws', index, 'population'],
        `the draw records a population of ${plural(draw.population, 'case')}, and its splits ${figuresText(total, draw.splits)}: the population is the cases of every split.`,
        `${total}, the sum of splits (or splits that add up to the population)`,
        String(draw.population),
      )
    const listed = sample.cases.filter((drawn) => drawn.draw === index).length
    if (listed !== draw.size)
      fail(
        ['cases'],
        `${plural(listed, 'case')} of the sample name draw ${index}, which drew ${draw.size} (draws[${index}] › size): a drawn case was removed or one added, or the size changed.`,
        `${draw.size} cases with "draw": ${index}`,
        String(listed),
      )
  }
  const last = sample.draws[lastIndex]!
  for (const split of SPLITS) {
    const listed = sample.cases.filter((drawn) => drawn.split === split).length
    const recorded = last.splits[split] ?? 0
    if (listed > recorded)
      fail(
        ['draws', lastIndex, 'splits', split],
        `the draw records ${plural(recorded, `${split} case`)}, and the sample lists ${listed} drawn from ${split}.`,
        `at least ${listed}`,
        String(recorded),
      )
  }
  if (method !== 'stratified') return
  if (strata === 'split') checkSplitStrata(sample, file, fail)
  else checkJudgeStrata(sample, fail)
}

/** Stratified by split: each case in its split's stratum, and each draw's cases per split the proportional allocation the sampler made. */
function checkSplitStrata(sample: SampleFile, file: string, fail: SampleFail): void {
  for (const [index, drawn] of sample.cases.entries()) {
    if (drawn.stratum !== drawn.split)
      fail(
        ['cases', index, 'split'],
        `the case "${drawn.id}" is in ${drawn.split} and in the stratum "${drawn.stratum}": a design stratified by split draws each case in the stratum of its split.`,
        'its split and its stratum the same',
        `split "${drawn.split}", stratum "${drawn.stratum}"`,
      )
  }
  for (const [index, draw] of sample.draws.entries()) {
    const before = SPLITS.map((split) => sample.cases.filter((drawn) => drawn.draw < index && drawn.split === split).length)
    let counts: number[]
    try {
      counts = allocate(
        draw.size,
        SPLITS.map((split, h) => ({ size: draw.splits[split] ?? 0, drawn: before[h]! })),
        file,
      )
    } catch (error) {
      if (!(error instanceof UsageError)) throw error
      fail(
        ['draws', index, 'size'],
        `a draw stratified by split takes at least one case of each split with cases none of which is drawn yet, more than the ${draw.size} this draw records.`,
        `a size of at least ${SPLITS.filter((split, h) => (draw.splits[split] ?? 0) > 0 && before[h] === 0).length}`,
        String(draw.size),
      )
    }
    for (const [h, split] of SPLITS.entries()) {
      const listed = sample.cases.filter((drawn) => drawn.draw === index && drawn.split === split).length
      if (listed !== counts[h])
        fail(
          ['cases'],
          `${plural(listed, `${split} case`)} of the sample name draw ${index}, and the draw's proportional allocation of its ${draw.size} cases over ${figuresText(draw.population, draw.splits)}` +
            `${index === 0 ? '' : ` (${before.map((count, k) => `${count} ${SPLITS[k]}`).join(', ')} drawn before)`}, at least one of each split, gives ${split} ${counts[h]}.`,
          `${counts[h]} ${split} cases with "draw": ${index}`,
          String(listed),
        )
    }
  }
}

/** Stratified by the judge: each case's stratum within its split, never a stratum merged into another at the draw. */
function checkJudgeStrata(sample: SampleFile, fail: SampleFail): void {
  const merged = new Map(Object.entries(sample.draws[0]!.merged_strata ?? {}))
  for (const [index, drawn] of sample.cases.entries()) {
    const stratum = drawn.stratum ?? ''
    if (!stratum.startsWith(`${drawn.split}/`))
      fail(
        ['cases', index, 'stratum'],
        `the case "${drawn.id}" is in ${drawn.split}, and its stratum "${stratum}" is not one of that split: a design stratified by the judge draws within each split.`,
        `"${drawn.split}/…"`,
        `"${stratum}"`,
      )
    const into = merged.get(stratum)
    if (into !== undefined)
      fail(
        ['cases', index, 'stratum'],
        `the stratum "${stratum}" was merged into "${into}" at the draw (draws[0] › merged_strata), and its cases were drawn as cases of that stratum.`,
        `"${into}"`,
        `"${stratum}"`,
      )
  }
}
