/**
 * The estimate gate, `rubric({ estimate: { judge, split, min } })`: the lower bound of a split's
 * judge-assisted (PPI++) acceptance rate must be at least `min` (docs/statistics.md#the-estimate-gate).
 */
import { RubricError } from '../common/errors.js'
import { plural, type Split } from '../common/primitives.js'
import { DEVELOPMENT_LABEL } from '../compare/compare-figures.js'
import { judgeFile } from '../engine/calibration.js'
import type { SomeEvaluation } from '../engine/evaluate.js'
import type { PlannedCheck } from '../contract/results.js'
import type { PpiEstimate, PpiRefusalReason } from '../stats/ppi.js'
import { estimateFixture } from './estimate.js'
import { estimateFigures, type FixtureEstimate, type SplitEstimateFigures } from './fixture-estimate.js'

/** One estimate gate: the split's acceptance rate, estimated with `judge`'s decisions, is at least `min`. */
export interface EstimateGate {
  readonly judge: string
  readonly split: Split
  /** The least acceptance rate, as a proportion from 0 to 1. */
  readonly min: number
}

/**
 * Past this share of the split's sampled cases still pending (no human decision yet), the gate is
 * todo whatever the figures: the estimate would treat too many of them as missing at random.
 */
export const MAX_PENDING_SHARE = 0.1

/**
 * The refusals of the estimate that more reviews of the sample resolve: the gate waits on them
 * (todo). Any other refusal (a case without a current judge decision) fails: reviews cannot fix it.
 */
const WAITING_ON_REVIEWS: ReadonlySet<PpiRefusalReason> = new Set(['too-few-reviews', 'too-few-per-label', 'stratum-too-small', 'degenerate-variance'])

/** The gate's check of one fixture, and the figures it read (`null` when there are none: no sample, no labels). */
export interface EstimateGateReport {
  readonly check: PlannedCheck
  readonly estimate: FixtureEstimate | null
}

/** The name of the gate's check: `acceptance rate on held-out cases (PPI++ with judge ix) is at least 0.7`. */
export function estimateGateName(gate: EstimateGate): string {
  return `acceptance rate on ${splitWords(gate.split)} cases (PPI++ with judge ${gate.judge}) is at least ${gate.min}`
}

/**
 * Checks the fixture of `evaluation` against the gate, from its `sample.json` and the judge's labels.
 * A fixture without the judge's labels, without a sample, or with a malformed one fails with the
 * error (what to do is in it); any other error is thrown.
 */
export async function estimateGateCheck(evaluation: SomeEvaluation, gate: EstimateGate, cwd: string): Promise<EstimateGateReport> {
  const name = estimateGateName(gate)
  if (!evaluation.fixture.cases.some((entry) => entry.split === gate.split)) return { check: { name, ...estimateVerdict(undefined, gate) }, estimate: null }
  let estimate: FixtureEstimate
  try {
    judgeFile(evaluation.fixture, gate.judge)
    const report = await estimateFixture(evaluation, { judge: gate.judge, split: gate.split, cwd, criteria: false })
    estimate = estimateFigures(report, 'named', evaluation.fixture.judges.names)
  } catch (error) {
    if (!(error instanceof RubricError)) throw error
    return { check: { name, ok: false, message: error.message }, estimate: null }
  }
  const split = estimate.splits.find((item) => item.split === gate.split)
  return { check: { name, ...estimateVerdict(split, gate) }, estimate }
}

/**
 * What the gate decides on a split's figures: todo while the estimate waits on reviews of the
 * sample (too few, or more than {@link MAX_PENDING_SHARE} of it pending) and on development cases,
 * which are no result; passed when the 95% interval's lower bound is at least `min`; failed below
 * it, or when the estimate is refused for a reason reviews cannot fix. Bounds are compared as computed.
 */
export function estimateVerdict(split: SplitEstimateFigures | undefined, gate: EstimateGate): Omit<PlannedCheck, 'name'> {
  if (split === undefined || split.cases === 0) {
    return {
      ok: false,
      message: `the fixture has no ${splitWords(gate.split)} case: there is no rate to estimate; name the fixtures the gate checks with its fixtures globs`,
    }
  }
  const { result } = split
  const counts = `${split.sampled} of ${plural(split.cases, 'case')} sampled, ${result.decided} decided, ${result.pending} pending`
  if (result.status === 'unsupported') {
    const message = `no estimate: ${result.message} (${counts})`
    return WAITING_ON_REVIEWS.has(result.reason) ? { ok: false, todo: true, message } : { ok: false, message }
  }
  const figures = figuresText(result)
  if (gate.split === 'development') return { ok: false, todo: true, message: `${DEVELOPMENT_LABEL}: ${figures}; ${counts}` }
  const share = split.sampled === 0 ? 0 : result.pending / split.sampled
  if (share > MAX_PENDING_SHARE) {
    return {
      ok: false,
      todo: true,
      message: `the sample is incomplete: ${result.pending} of ${split.sampled} sampled cases pending (${percent(share)}, more than the ${percent(MAX_PENDING_SHARE)} the gate allows); review them; ${figures}`,
    }
  }
  const [bound, least] = boundAndMin(result.low, gate.min)
  const worst =
    result.worstCase === null
      ? ''
      : `; worst case over the ${plural(result.pending, 'pending sampled case')} [${rate(result.worstCase.low)}, ${rate(result.worstCase.high)}]`
  if (result.low >= gate.min) {
    return { ok: true, message: `${figures}: the lower bound ${bound} is at least ${least}; ${counts}${worst}` }
  }
  return {
    ok: false,
    message: [
      `${figures}: the lower bound ${bound} is below ${least}, so the acceptance rate on ${splitWords(gate.split)} cases may be below ${gate.min}; ${counts}${worst}`,
      `human-only on the same sample ${rate(result.classical.estimate)} [${rate(result.classical.low)}, ${rate(result.classical.high)}]; judge-only ${rate(result.judgeOnly.rate)} (biased by the judge's errors); effective reviews ${result.effectiveReviews.toFixed(1)}`,
    ].join('\n'),
  }
}

/** `PPI++ 0.812, 95% interval [0.745, 0.879]`. */
function figuresText(result: PpiEstimate): string {
  return `PPI++ ${rate(result.estimate)}, 95% interval [${rate(result.low)}, ${rate(result.high)}]`
}

/** The bound and the minimum with the digits that tell them apart: rounding keeps their order, but can make them equal. */
export function boundAndMin(bound: number, min: number): readonly [string, string] {
  let digits = 3
  while (digits < 9 && bound !== min && bound.toFixed(digits) === min.toFixed(digits)) digits++
  return [bound.toFixed(digits), min.toFixed(digits)]
}

const rate = (value: number) => value.toFixed(3)
const percent = (share: number) => `${Number((100 * share).toFixed(1))}%`
const splitWords = (split: Split) => (split === 'held_out' ? 'held-out' : 'development')

/** The estimate gate's requirement, in words, for the static report's list of gates. */
export function estimateGateRequirement(gate: EstimateGate & { readonly fixtures: readonly string[] | undefined }): string {
  const where = gate.fixtures === undefined ? `the fixtures holding judge ${gate.judge}'s labels` : `the fixtures ${gate.fixtures.join(', ')}`
  return `estimate: in ${where}, the lower bound of the 95% interval of the judge-assisted (PPI++, judge ${gate.judge}) acceptance rate on ${splitWords(gate.split)} cases is at least ${gate.min}; todo while more than ${percent(MAX_PENDING_SHARE)} of the sampled cases are pending or too few are reviewed`
}
