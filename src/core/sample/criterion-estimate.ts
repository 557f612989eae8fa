/**
 * The judge-assisted estimate of each criterion's meets rate over every case of a split: the same
 * estimator as the acceptance rate (ppiMean), with the judge's rating of the criterion on every case
 * and the sampled cases' adopted reviews' rating of it (docs/statistics.md#per-criterion-estimates).
 */
import { adoptedItems, calibrationRatingsOf, judgeView } from '../engine/calibration.js'
import type { SomeEvaluation } from '../engine/evaluate.js'
import { kindContext } from '../engine/fixture.js'
import type { CalibrationRatings, PanelItem } from '../contract/kind.js'
import { ppiMean, type PpiResult } from '../stats/ppi.js'
import type { PpiInput } from '../stats/ppi-input.js'
import { situatedRefusal } from './refusal-text.js'

/** Why the judge has no label of a criterion on some cases, counted over the split. */
export interface CriterionJudgeGaps {
  /** The judge rated the criterion `uncertain`. */
  readonly judgeUncertain: number
  /** The judge has not labelled the case, or its labels leave the criterion out. */
  readonly judgeMissing: number
  /** The judge's labels of the case are stale (answer, source or rubric changed since) or refused. */
  readonly judgeStale: number
}

/** ppiMean's result for one criterion's meets rate, with how many cases the judge left without a label of it. */
export type CriterionEstimate = PpiResult & CriterionJudgeGaps

/** A split's cases and its sample as the acceptance-rate estimate reads them: the ids in order, and the sampled positions. */
export interface SplitCases {
  readonly ids: readonly string[]
  readonly sample: PpiInput['sample']
}

/** A rating as a label: the kind's pass rating 1, its fail rating 0, anything else (uncertain, absent) none. */
function ratingLabel(ratings: CalibrationRatings, item: PanelItem | undefined): 0 | 1 | null {
  if (item === undefined || item.value === null) return null
  if (item.shown === ratings.pass) return 1
  if (item.shown === ratings.fail) return 0
  return null
}

/**
 * Each criterion's estimate for each split, in the rubric's order; `null` for a kind whose judges'
 * labels are not ratings (a scored fixture), whose criteria have no meets rate.
 */
export function criterionEstimates(
  evaluation: SomeEvaluation,
  judge: string,
  splits: readonly SplitCases[],
): (Readonly<Record<string, CriterionEstimate>> | null)[] {
  const { fixture } = evaluation
  const ratings = calibrationRatingsOf(fixture.definition)
  if (ratings === undefined) return splits.map(() => null)
  const context = kindContext(fixture)
  const criteria = fixture.definition.panel.order(context)
  const human = adoptedItems(evaluation)
  const entries = new Map(fixture.cases.map((entry) => [entry.id, entry]))
  return splits.map(({ ids, sample }) => {
    const views = ids.map((id) => judgeView(fixture, context, entries.get(id)!, judge))
    const result: Record<string, CriterionEstimate> = {}
    for (const criterion of criteria) {
      const gaps = { judgeUncertain: 0, judgeMissing: 0, judgeStale: 0 }
      const labels = views.map((view) => {
        if (view === undefined) {
          gaps.judgeMissing++
          return null
        }
        if (view.decision.status === 'refused') {
          gaps.judgeStale++
          return null
        }
        const item = Object.hasOwn(view.items, criterion) ? view.items[criterion] : undefined
        if (item === undefined) gaps.judgeMissing++
        const label = ratingLabel(ratings, item)
        if (item !== undefined && label === null) gaps.judgeUncertain++
        return label
      })
      const drawn = sample.map((entry) => {
        const items = human.get(ids[entry.index]!)
        return { ...entry, human: ratingLabel(ratings, items !== undefined && Object.hasOwn(items, criterion) ? items[criterion] : undefined) }
      })
      result[criterion] = {
        ...situatedRefusal(
          ppiMean({ judge: labels, sample: drawn }),
          drawn.map((entry) => entry.human),
        ),
        ...gaps,
      }
    }
    return result
  })
}
