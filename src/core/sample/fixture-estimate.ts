/**
 * A fixture's judge-assisted estimate as the places people look show it (the reporter, the JSON
 * report, `evaluate`, the page): each split's PPI++ acceptance rate beside the human-only and
 * judge-only figures, without the lists of case ids that `vitest-rubric estimate` prints
 * (docs/statistics.md#where-the-estimate-is-shown).
 */
import { access } from 'node:fs/promises'
import { join } from 'node:path'
import type { Split } from '../common/primitives.js'
import type { SomeEvaluation } from '../engine/evaluate.js'
import type { PpiResult } from '../stats/ppi.js'
import { estimateFromSample, type EstimateReport } from './estimate.js'
import { samplePlace } from './sample.js'
import { readSampleFile, SAMPLE_FILE, type SampleMethod } from './sample-file.js'

/**
 * How the judge of a fixture's estimate was chosen: `named` by the caller (an estimate gate that
 * checks the fixture, `evaluate --judge`); `only`, the fixture's one judge; `first`, the first by
 * name of several, none named.
 */
export type EstimateJudgeChoice = 'named' | 'only' | 'first'

/** One split's estimate, with its counts. */
export interface SplitEstimateFigures {
  readonly split: Split
  /** N: the cases of the split. */
  readonly cases: number
  readonly sampled: number
  /** Sampled cases without a human decision (pending, or a refused review). */
  readonly pending: number
  /** Reviewed cases outside the sample, left out of the estimate. */
  readonly outsideReviews: number
  /** Cases without a current decision of the judge: any refuses the estimate. */
  readonly judgeMissing: number
  /** ppiMean's estimate beside the human-only and judge-only figures, or its refusal with the reason. */
  readonly result: PpiResult
}

/** A fixture's estimate: the judge, the sample, and each split's figures. */
export interface FixtureEstimate {
  readonly judge: string
  readonly judgeChosen: EstimateJudgeChoice
  /** Every judge with labels in the fixture, by name. */
  readonly judges: readonly string[]
  /** The sample file as shown, its design, how many draws made it and how many cases it holds. */
  readonly sample: { readonly file: string; readonly method: SampleMethod; readonly draws: number; readonly cases: number }
  readonly splits: readonly SplitEstimateFigures[]
  /** Sampled cases whose answer changed since the draw: they wait for review again. */
  readonly changedAnswers: number
  /** The cases at the last draw and now, when they differ. */
  readonly populationChanged: { readonly atDraw: number; readonly now: number } | null
}

/**
 * The judge an estimate uses: the one named, when the fixture has its labels; else the fixture's
 * only judge; else the first by name. `undefined` for a fixture without judges, or without the
 * named judge's labels.
 */
export function chooseEstimateJudge(judges: readonly string[], named?: string): { readonly judge: string; readonly chosen: EstimateJudgeChoice } | undefined {
  if (named !== undefined) return judges.includes(named) ? { judge: named, chosen: 'named' } : undefined
  const sorted = [...judges].sort()
  if (sorted.length === 0) return undefined
  return { judge: sorted[0]!, chosen: sorted.length === 1 ? 'only' : 'first' }
}

/** The report of `estimate` as shown beside the coverage figures: counts in place of lists of ids. */
export function estimateFigures(report: EstimateReport, chosen: EstimateJudgeChoice, judges: readonly string[]): FixtureEstimate {
  return {
    judge: report.judge,
    judgeChosen: chosen,
    judges: [...judges].sort(),
    sample: report.sample,
    splits: report.splits.map((item) => ({
      split: item.split,
      cases: item.cases,
      sampled: item.sampled,
      pending: item.pending.length,
      outsideReviews: item.outsideReviews,
      judgeMissing: item.judgeMissing.length,
      result: item.result,
    })),
    changedAnswers: report.changedAnswers.length,
    populationChanged: report.populationChanged,
  }
}

/** Whether the fixture directory holds a sample file. */
export async function hasSampleFile(dir: string): Promise<boolean> {
  return access(join(dir, SAMPLE_FILE)).then(
    () => true,
    () => false,
  )
}

/**
 * The fixture's estimate when it has a sample (`sample.json`) and a judge, with the judge chosen by
 * {@link chooseEstimateJudge}; `null` otherwise. A malformed sample file throws its `SAMPLE_INVALID`
 * error, as `estimate` does.
 */
export async function fixtureEstimate(
  evaluation: SomeEvaluation,
  options: { readonly cwd: string; readonly judge?: string | undefined },
): Promise<FixtureEstimate | null> {
  const { fixture } = evaluation
  const chosen = chooseEstimateJudge(fixture.judges.names, options.judge)
  if (chosen === undefined) return null
  const place = samplePlace(fixture, options.cwd)
  const { sample } = await readSampleFile(place, { cases: fixture.cases })
  if (sample === undefined) return null
  // The meets rate of each criterion is `estimate`'s to give: not computed here.
  const report = estimateFromSample(evaluation, sample, { judge: chosen.judge, sampleFile: `${place.displayDir}/${SAMPLE_FILE}`, criteria: false })
  return estimateFigures(report, chosen.chosen, fixture.judges.names)
}
