/**
 * `vitest-rubric estimate`: the judge-assisted (PPI++) estimate of each split's acceptance rate,
 * from the judge's decision on every case and the human decisions of the drawn sample
 * (docs/statistics.md#drawing-a-sample-and-estimating).
 */
import { SPLITS, type Split } from '../common/primitives.js'
import { FixtureError } from '../common/errors.js'
import { judgeFile, judgeView } from '../engine/calibration.js'
import type { Decision } from '../contract/decision.js'
import type { SomeEvaluation } from '../engine/evaluate.js'
import { kindContext } from '../engine/fixture.js'
import { ppiMean, type PpiResult } from '../stats/ppi.js'
import type { PpiInput, PpiSampledCase } from '../stats/ppi-input.js'
import { criterionEstimates, type CriterionEstimate } from './criterion-estimate.js'
import { situatedRefusal } from './refusal-text.js'
import { populationFigures } from './draw.js'
import { answerBindings, samplePlace } from './sample.js'
import { readSampleFile, SAMPLE_FILE, type SampleFile, type SampleMethod } from './sample-file.js'
import { splitProbabilities } from './split-probability.js'

/** A human or judge decision as a label: accepted 1, rejected 0, anything else none. */
export function decisionLabel(decision: Decision | undefined): 0 | 1 | null {
  if (decision?.status === 'accepted') return 1
  if (decision?.status === 'rejected') return 0
  return null
}

/** A sampled case with no human decision yet, and why: `pending`, or `refused` (its review is stale or malformed). */
export interface PendingSampledCase {
  readonly id: string
  readonly status: 'pending' | 'refused'
  /** The decision's reason: why it waits, or why it is refused. */
  readonly reason: string
}

/** The estimate of one split, with what it left out and why. */
export interface SplitEstimate {
  readonly split: Split
  /** N: the cases of the split now. */
  readonly cases: number
  readonly sampled: number
  /** Sampled cases without a human decision: the estimate treats them as missing, the worst case bounds them. */
  readonly pending: readonly PendingSampledCase[]
  /** Cases with a human decision that were not drawn: not a random sample, so left out of the estimate. */
  readonly outsideReviews: number
  /** Cases without a current decision of the judge (unlabelled, stale, or undecided labels), by id. */
  readonly judgeMissing: readonly string[]
  /** ppiMean's estimate, or its refusal with the reason. */
  readonly result: PpiResult
  /**
   * Each criterion's meets rate, in the rubric's order: ppiMean's result with the judge's rating of
   * the criterion (meets 1, does_not_meet 0) and the adopted review's, and how many cases the judge
   * left without a label of it. `null` for a scored fixture, whose judges' labels are not ratings.
   */
  readonly criteria: Readonly<Record<string, CriterionEstimate>> | null
}

/** Every split's estimate, and what changed since the draw. */
export interface EstimateReport {
  readonly dir: string
  readonly name: string
  readonly judge: string
  /** The judge's file as shown. */
  readonly judgeFile: string
  readonly sample: {
    readonly file: string
    readonly method: SampleMethod
    readonly draws: number
    readonly cases: number
  }
  readonly splits: readonly SplitEstimate[]
  /** Sampled cases whose answer changed since the draw (their review binds the new answer, or is stale). */
  readonly changedAnswers: readonly { readonly id: string; readonly split: Split }[]
  /** Sampled cases no longer in the fixture: left out. */
  readonly missingCases: readonly string[]
  /** The cases at the last draw and now, when they differ: the inclusion probabilities describe the cases as they were. */
  readonly populationChanged: { readonly atDraw: number; readonly now: number } | null
}

/** The inputs of ppiMean for one split, with the counts the report gives beside it. */
export interface SplitInput {
  readonly split: Split
  readonly input: PpiInput
  /** The id of each case of `input.judge`, in order. */
  readonly ids: readonly string[]
  readonly pending: readonly PendingSampledCase[]
  readonly outsideReviews: number
}

export interface EstimateOptions {
  readonly judge: string
  /** Only this split; every split with cases when left out. */
  readonly split?: Split | undefined
  /** The sample file as shown. */
  readonly sampleFile: string
  /** Estimate each criterion's meets rate too (`criteria` `null` without). @default true */
  readonly criteria?: boolean
}

/**
 * The inputs of ppiMean for each split (or the one named): the judge's decision of every case of
 * the split (1 accepted, 0 rejected, `null` none) and the sampled cases of the split with their
 * inclusion probabilities, strata and human decisions.
 */
export function estimateInputs(evaluation: SomeEvaluation, sample: SampleFile, options: EstimateOptions): SplitInput[] {
  const { fixture } = evaluation
  judgeFile(fixture, options.judge)
  const context = kindContext(fixture)
  const drawn = new Map(sample.cases.map((entry) => [entry.id, entry]))
  const probabilityOf = splitProbabilities(sample)
  const splits = options.split === undefined ? SPLITS.filter((split) => fixture.cases.some((entry) => entry.split === split)) : [options.split]
  return splits.map((split) => {
    const judge: (0 | 1 | null)[] = []
    const ids: string[] = []
    const sampled: PpiSampledCase[] = []
    const pending: PendingSampledCase[] = []
    let outsideReviews = 0
    fixture.cases.forEach((entry, index) => {
      if (entry.split !== split) return
      const human = evaluation.decisions[index]!
      const position = judge.length
      judge.push(decisionLabel(judgeView(fixture, context, entry, options.judge)?.decision))
      ids.push(entry.id)
      const drawnCase = drawn.get(entry.id)
      const label = decisionLabel(human)
      if (drawnCase === undefined) {
        if (label !== null) outsideReviews++
        return
      }
      if (label === null) pending.push({ id: entry.id, status: human.status === 'refused' ? 'refused' : 'pending', reason: human.reason })
      sampled.push({
        index: position,
        probability: probabilityOf(drawnCase),
        human: label,
        ...(drawnCase.stratum === null ? {} : { stratum: drawnCase.stratum }),
      })
    })
    return { split, input: { judge, sample: sampled }, ids, pending, outsideReviews }
  })
}

/** The judge-assisted estimate of each split's acceptance rate, beside the human-only and judge-only figures. */
export function estimateFromSample(evaluation: SomeEvaluation, sample: SampleFile, options: EstimateOptions): EstimateReport {
  const { fixture } = evaluation
  const file = judgeFile(fixture, options.judge)
  if (sample.cases.length === 0) {
    throw new FixtureError({
      code: 'SAMPLE_INVALID',
      file: options.sampleFile,
      path: ['cases'],
      summary: 'the sample holds no case.',
      expected: 'the cases drawn for review',
      hint: 'draw a sample with `vitest-rubric sample <dir> --size <n> --seed <s> --new`.',
    })
  }
  const inputs = estimateInputs(evaluation, sample, options)
  const criteria =
    options.criteria === false
      ? inputs.map(() => null)
      : criterionEstimates(
          evaluation,
          options.judge,
          inputs.map(({ ids, input }) => ({ ids, sample: input.sample })),
        )
  const splits = inputs.map(({ split, input, ids, pending, outsideReviews }, position): SplitEstimate => {
    const judgeMissing = ids.filter((_, index) => input.judge[index] === null)
    const result = ppiMean(input)
    return {
      split,
      cases: input.judge.length,
      sampled: input.sample.length,
      pending,
      outsideReviews,
      judgeMissing,
      // The statistic knows its cases by position; a person knows them by id.
      result: situatedRefusal(
        result.status === 'unsupported' && result.reason === 'judge-missing'
          ? { ...result, message: result.message.replace(/\(the first is case \d+\)/, `(the first is ${JSON.stringify(judgeMissing[0])})`) }
          : result,
        input.sample.map((drawn) => drawn.human),
      ),
      criteria: criteria[position]!,
    }
  })
  const bindings = answerBindings(fixture)
  const present = new Map(fixture.cases.map((entry) => [entry.id, entry.split]))
  const changedAnswers = sample.cases
    .filter((entry) => present.has(entry.id) && bindings.get(entry.id) !== entry.answer_sha256)
    .map((entry) => ({ id: entry.id, split: present.get(entry.id)! }))
  const last = sample.draws[sample.draws.length - 1]!
  const now = populationFigures(fixture.cases.map((entry) => ({ id: entry.id, split: entry.split, answerSha256: null })))
  return {
    dir: fixture.displayDir,
    name: fixture.name,
    judge: options.judge,
    judgeFile: file.display,
    sample: { file: options.sampleFile, method: sample.draws[0]!.method, draws: sample.draws.length, cases: sample.cases.length },
    splits,
    changedAnswers,
    missingCases: sample.cases.filter((entry) => !present.has(entry.id)).map((entry) => entry.id),
    populationChanged: now.population_sha256 === last.population_sha256 ? null : { atDraw: last.population, now: now.population },
  }
}

/**
 * Reads the fixture's `sample.json` and estimates from it; a fixture without one is a
 * `SAMPLE_MISSING` error telling to draw a sample first.
 */
export async function estimateFixture(
  evaluation: SomeEvaluation,
  options: Omit<EstimateOptions, 'sampleFile'> & { readonly cwd: string },
): Promise<EstimateReport> {
  const place = samplePlace(evaluation.fixture, options.cwd)
  const sampleFile = `${place.displayDir}/${SAMPLE_FILE}`
  const { sample } = await readSampleFile(place, { cases: evaluation.fixture.cases })
  if (sample === undefined) {
    throw new FixtureError({
      code: 'SAMPLE_MISSING',
      file: sampleFile,
      summary: 'the fixture has no sample: an estimate needs the cases drawn for review at random, with their inclusion probabilities.',
      expected: `${SAMPLE_FILE}, written by \`vitest-rubric sample\``,
      hint: `draw one with \`vitest-rubric sample ${place.displayDir} --size <n> --seed <s>\`, review the cases it names, then estimate again.`,
    })
  }
  return estimateFromSample(evaluation, sample, {
    judge: options.judge,
    split: options.split,
    sampleFile,
    ...(options.criteria === undefined ? {} : { criteria: options.criteria }),
  })
}
