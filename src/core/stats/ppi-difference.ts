/**
 * Prediction-powered inference of a paired difference of two rates, B − A, over every task of a
 * split (docs/statistics.md#judge-assisted-paired-comparison): the judge's labels of both systems'
 * answers on all N tasks, corrected by the human labels of both answers on a sample of tasks drawn
 * with known inclusion probabilities. Each task's outcome is Y_B − Y_A ∈ {−1, 0, 1} (humans) and
 * f_B − f_A ∈ [−1, 1] (the judge); the estimator, its design variance, λ and the worst case are the
 * rate's ({@link rectifiedEstimate}).
 */
import { StatisticsInputError } from './errors.js'
import { checkLevel } from './normal-quantile.js'
import { degenerateRefusal, estimatedFigures, MIN_PPI_REVIEWS, type PpiCounts, type PpiRefused, type PpiStanding } from './ppi.js'
import { smallStratumRefusal, type WeightedUnit } from './ppi-design.js'
import type { PpiOptions } from './ppi-input.js'
import { rectifiedEstimate, type RateInterval } from './ppi-rectified.js'

/** Below this many decided sampled pairs whose human labels differ (discordant pairs) the estimate is refused. */
export const MIN_PPI_DISCORDANT = 10

/** One task drawn into the human sample: both systems' answers to it are reviewed. */
export interface PpiPairedCase {
  /** Its position in {@link PpiDifferenceInput.judge}'s lists. */
  readonly index: number
  /** π, the probability that the design drew this task, in (0, 1]. */
  readonly probability: number
  /** The decided human label of A's answer, 1 or 0; `null` while pending. */
  readonly a: 0 | 1 | null
  /** The decided human label of B's answer, 1 or 0; `null` while pending. */
  readonly b: 0 | 1 | null
  /** The stratum the design drew it from, if the design was stratified. */
  readonly stratum?: string
}

/** What a prediction-powered estimate of B − A is computed from: every task of a split, a sample of them reviewed in both systems. */
export interface PpiDifferenceInput {
  /** The judge's label ∈ [0, 1] of each system's answer to every task (N of them, in the same order); `null` where it gave none. */
  readonly judge: { readonly a: readonly (number | null)[]; readonly b: readonly (number | null)[] }
  /** The tasks drawn for human review, each at most once. */
  readonly sample: readonly PpiPairedCase[]
}

/** A prediction-powered estimate of B − A, beside the figures it improves on; a pair is pending while a side of it is not decided. */
export interface PpiDifferenceEstimate extends PpiCounts, RateInterval, PpiStanding {
  readonly status: 'estimate'
  readonly level: number
  readonly estimand: 'split' | 'system'
  readonly lambda: number
  /** The human-only estimate of B − A on the same decided pairs, with the same weights. */
  readonly classical: RateInterval
  /** The judge's rates over all N tasks and their difference: biased by the judge's errors. */
  readonly judgeOnly: { readonly a: number; readonly b: number; readonly difference: number; readonly biased: true }
  /** Decided sampled pairs whose human labels differ: the pairs that carry the difference. */
  readonly discordant: number
}

/** Why an estimate of B − A was refused. */
export type PpiDifferenceRefusalReason = 'judge-missing' | 'too-few-reviews' | 'too-few-discordant' | 'stratum-too-small' | 'degenerate-variance'

/** A refused estimate of B − A. */
export type PpiDifferenceUnsupported = PpiRefused<PpiDifferenceRefusalReason>

/** A prediction-powered estimate of B − A, or its refusal with the reason. */
export type PpiDifferenceResult = PpiDifferenceEstimate | PpiDifferenceUnsupported

function fail(message: string): never {
  throw new StatisticsInputError(`ppiDifference: ${message}`)
}

function checkInput(input: PpiDifferenceInput, options: PpiOptions): void {
  checkLevel(options.level ?? 0.95)
  const lambda = options.lambda ?? 'tuned'
  if (lambda !== 'tuned' && !(typeof lambda === 'number' && lambda >= 0 && lambda <= 1)) {
    fail(`options.lambda must be 'tuned' or a number in [0, 1]; found ${String(lambda)}`)
  }
  const estimand = options.estimand ?? 'split'
  if (estimand !== 'split' && estimand !== 'system') fail(`options.estimand must be 'split' or 'system'; found ${String(estimand)}`)
  const judge = input?.judge
  if (typeof input !== 'object' || input === null || !Array.isArray(judge?.a) || !Array.isArray(judge.b) || !Array.isArray(input.sample)) {
    fail('expected { judge: { a: (number | null)[], b: (number | null)[] }, sample: { index, probability, a, b }[] }')
  }
  if (judge.a.length !== judge.b.length) fail(`judge.a and judge.b must label the same tasks; found ${judge.a.length} and ${judge.b.length} labels`)
  for (const side of ['a', 'b'] as const) {
    for (const [i, f] of judge[side].entries()) {
      if (f !== null && !(typeof f === 'number' && f >= 0 && f <= 1)) fail(`judge.${side}[${i}] must be a number in [0, 1] or null; found ${String(f)}`)
    }
  }
  const seen = new Set<number>()
  for (const [j, drawn] of input.sample.entries()) {
    if (typeof drawn !== 'object' || drawn === null) fail(`sample[${j}] must be { index, probability, a, b }; found ${String(drawn)}`)
    const { index, probability, stratum } = drawn
    if (!Number.isInteger(index) || index < 0 || index >= judge.a.length) {
      fail(`sample[${j}].index must be a whole number from 0 to ${judge.a.length - 1} (a task of judge); found ${String(index)}`)
    }
    if (seen.has(index)) fail(`sample[${j}].index ${index} is drawn twice: a task is in the sample once, with its inclusion probability`)
    seen.add(index)
    if (!(typeof probability === 'number' && probability > 0 && probability <= 1)) {
      fail(`sample[${j}].probability must be an inclusion probability in (0, 1]; found ${String(probability)}`)
    }
    for (const side of ['a', 'b'] as const) {
      const human = drawn[side]
      if (human !== 0 && human !== 1 && human !== null) fail(`sample[${j}].${side} must be 1, 0 or null (pending); found ${String(human)}`)
    }
    if (stratum !== undefined && typeof stratum !== 'string') fail(`sample[${j}].stratum must be a string when given; found ${String(stratum)}`)
    if ((stratum === undefined) !== (input.sample[0]?.stratum === undefined)) {
      fail(`sample[${j}].stratum is ${stratum === undefined ? 'missing' : 'given'} where sample[0]'s is not: a design is stratified for every task or none`)
    }
  }
}

function refusalOf(
  input: PpiDifferenceInput,
  decided: readonly PpiPairedCase[],
  counts: PpiCounts,
): { reason: PpiDifferenceRefusalReason; message: string } | null {
  for (const side of ['a', 'b'] as const) {
    const labels = input.judge[side]
    const missing = labels.reduce<number>((sum, f) => sum + (f === null ? 1 : 0), 0)
    if (missing > 0) {
      return {
        reason: 'judge-missing',
        message: `${missing} of ${counts.cases} tasks have no judge label of ${side.toUpperCase()}'s answer (the first is task ${labels.indexOf(null)}): the judge's difference would not be over every task; run the judge on them`,
      }
    }
  }
  if (counts.decided < MIN_PPI_REVIEWS) {
    return {
      reason: 'too-few-reviews',
      message: `${counts.decided} sampled tasks are decided in both systems (${counts.pending} pending); an estimate needs at least ${MIN_PPI_REVIEWS}: review more of the sample, in both`,
    }
  }
  const discordant = decided.filter((pair) => pair.a !== pair.b).length
  if (discordant < MIN_PPI_DISCORDANT) {
    return {
      reason: 'too-few-discordant',
      message: `${discordant} of the ${counts.decided} decided sampled tasks are decided differently in A and in B; an estimate needs at least ${MIN_PPI_DISCORDANT} such pairs, or the normal approximation fails (the difference rests on them alone): review more of the sample`,
    }
  }
  return smallStratumRefusal(input.sample, (drawn) => drawn.a !== null && drawn.b !== null, 'task')
}

function mean(values: readonly number[]): number {
  let sum = 0
  for (const value of values) sum += value
  return sum / values.length
}

/**
 * The prediction-powered estimate of B − A over all N tasks of a split: with dⱼ = Y_B − Y_A on the
 * decided sampled tasks and gᵢ = f_B − f_A on every task, θ̂ = λ·ḡ_N + Σ wⱼ(dⱼ − λgⱼ) / Σ wⱼ and
 * θ̂ ± t_ν·√v, clipped to [−1, 1]. A task counts as decided when both of its answers are; one with a
 * side pending is pending, and the worst case bounds it over the labels its pending sides can get.
 * Refused, with the reason, where it cannot be trusted. Throws a `StatisticsInputError` on malformed input.
 */
export function ppiDifference(input: PpiDifferenceInput, options: PpiOptions = {}): PpiDifferenceResult {
  checkInput(input, options)
  const decided = input.sample.filter((pair) => pair.a !== null && pair.b !== null)
  const pending = input.sample.filter((pair) => pair.a === null || pair.b === null)
  const counts: PpiCounts = { cases: input.judge.a.length, sampled: input.sample.length, decided: decided.length, pending: pending.length }
  const refusal = refusalOf(input, decided, counts)
  if (refusal !== null) return { status: 'unsupported', ...refusal, ...counts }
  // Cast: refusalOf refused a task without a judge label of either answer ('judge-missing'), so every label is a number.
  const judgeA = input.judge.a as readonly number[]
  // Cast: as judgeA.
  const judgeB = input.judge.b as readonly number[]
  const unitOf = (pair: PpiPairedCase): WeightedUnit => ({
    probability: pair.probability,
    human: (pair.b ?? 0) - (pair.a ?? 0),
    judge: judgeB[pair.index]! - judgeA[pair.index]!,
    stratum: pair.stratum ?? '',
  })
  const rateA = mean(judgeA)
  const rateB = mean(judgeB)
  const level = options.level ?? 0.95
  const estimand = options.estimand ?? 'split'
  const result = rectifiedEstimate({
    decided: decided.map(unitOf),
    // A pending side is still 0 or 1: B − A ranges from (B's least) − (A's greatest) to the reverse.
    pending: pending.map((pair) => ({ ...unitOf(pair), low: (pair.b ?? 0) - (pair.a ?? 1), high: (pair.b ?? 1) - (pair.a ?? 0) })),
    judgeMean: rateB - rateA,
    cases: counts.cases,
    level,
    lambda: options.lambda ?? 'tuned',
    estimand,
    worstCase: options.worstCase ?? true,
    range: [-1, 1],
  })
  if (result.status === 'degenerate')
    return degenerateRefusal(
      counts,
      result.constant === 'human'
        ? 'B − A of the human labels does not vary within any stratum, so the normal interval would have no width: review more of the sample'
        : `the judge's B − A agrees with every decided pair (human − λ·judge is constant within every stratum, λ = ${result.lambda}), so the sample cannot tell how often it errs and the interval would have no width: review more of the sample, or read the human-only interval`,
    )
  return {
    status: 'estimate',
    level,
    estimand,
    ...estimatedFigures(result, counts, {
      judgeOnly: { a: rateA, b: rateB, difference: rateB - rateA, biased: true } as const,
      discordant: decided.filter((pair) => pair.a !== pair.b).length,
    }),
  }
}
