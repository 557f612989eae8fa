import { UsageError } from '../common/errors.js'
import { cohenKappa, confusionMatrix, kappaBootstrap, reportInterval, type IntervalReport, type RatingPair } from '../stats/index.js'
import { assessEntry } from './assess.js'
import type { SomeEvaluation } from './evaluate.js'
import { kindContext, type CaseEntry, type SomeFixture } from './fixture.js'
import type { Decision } from '../contract/decision.js'
import type { CalibrationRatings, KindContext, PanelItem, SomeKindDefinition } from '../contract/kind.js'
import { JUDGES_DIR } from './panel.js'
import { reviewerViews, type ReviewerView } from './panel-rule.js'
import { DEFAULT_AGREEMENT_SEED } from './agreement.js'
import { own } from '../common/primitives.js'

/** The judge's ratings, as the columns of a confusion matrix: its undecided rating is a column of its own. */
export function judgeRatings(ratings: CalibrationRatings): readonly string[] {
  return [ratings.pass, ratings.fail, ratings.undecided]
}
/** The reviewers' ratings, as its rows: a judgement the reviewers left undecided is no reference. */
export function reviewerRatings(ratings: CalibrationRatings): readonly string[] {
  return [ratings.pass, ratings.fail]
}

/** How a kind's judges' labels are calibrated; `undefined` for a kind whose labels are not. */
export function calibrationRatingsOf(definition: SomeKindDefinition): CalibrationRatings | undefined {
  const { calibration } = definition.panel
  return 'uncalibrated' in calibration ? undefined : calibration
}

/** How one judge's labels of one criterion compare with the adopted reviews. */
export interface CriterionCalibration {
  /** Judgements with a reviewers' rating (meets or does_not_meet) and a judge's rating, current both. */
  readonly n: number
  /** Reviewers' rating × judge's rating, every cell present, in the kind's order (pass, fail, undecided). */
  readonly matrix: Readonly<Record<string, Readonly<Record<string, number>>>>
  /** Of the judgements the reviewers rated `does_not_meet`, the share the judge rated so; `null` without any. */
  readonly failure_recall: number | null
  /** Of the judgements the reviewers rated `meets`, the share the judge rated so; `null` without any. */
  readonly pass_recall: number | null
  /** The share of the n judgements the judge rated as the reviewers did (its `uncertain` never agrees). */
  readonly percent_agreement: number | null
  /** Cohen's kappa, reviewers against judge, over the three ratings; `null` with `kappa_reason`. */
  readonly kappa: number | null
  /** Its seeded 95% percentile bootstrap interval, resampling cases (one pair each); `null` with `kappa_ci_reason`. */
  readonly kappa_ci: readonly [number, number] | null
  readonly kappa_reason: string | null
  /** Why there is no interval: no kappa, or fewer cases than a bootstrap needs (MIN_BOOTSTRAP_CASES). */
  readonly kappa_ci_reason: string | null
  /** What the interval resampled and how many of its replicates were skipped (no variation); `null` without an interval. */
  readonly kappa_bootstrap: IntervalReport['bootstrap']
  /** The share of the reviewers' judgements that are `meets`; `null` for n = 0. */
  readonly base_rate: number | null
  /** The cases where the judge said `meets` and the reviewers `does_not_meet`: the dangerous cell. */
  readonly false_accepts: readonly string[]
}

/** A judge's labels excluded from the figures, with why. */
export interface ExcludedLabel {
  readonly id: string
  readonly reason: string
}

/** One judge against the adopted reviews of a fixture. */
export interface JudgeCalibration {
  /** The judge's file, as shown, and its `origin` (the model, the prompt's revision). */
  readonly file: string
  readonly origin: string
  /** Cases with both a current adopted review and a current label. */
  readonly cases: number
  readonly criteria: Readonly<Record<string, CriterionCalibration>>
  /** Labels excluded because a binding is stale (the answer, the source or the rubric changed since). */
  readonly stale: number
  readonly stale_cases: readonly ExcludedLabel[]
  /** Labels excluded for another refusal (a quote that is not the rubric's, a span not in the answer). */
  readonly refused_cases: readonly ExcludedLabel[]
  /**
   * What the judge's labels, under the fixture's decision rule, predict for the cases still pending.
   * A prediction, never a decision: it is kept apart from review coverage.
   */
  readonly predictions: {
    readonly pending: number
    readonly labelled: number
    readonly accepted: number
    readonly rejected: number
    readonly undecided: number
  }
}

export interface CalibrationReport {
  readonly kind: string
  readonly dir: string
  readonly name: string
  readonly seed: number | string
  readonly judges: Readonly<Record<string, JudgeCalibration>>
}

export interface CalibrationOptions {
  /** Only this judge; every judge with a file when left out. */
  readonly judge?: string | undefined
  readonly seed?: number | string | undefined
  /** Bootstrap replicates. @default 2000 */
  readonly samples?: number | undefined
}

/**
 * How far each automated judge agrees with the reviewers, criterion by criterion, over the cases
 * that have both a current adopted review and a current label from the judge. A label is checked
 * as a review is (bound to the answer, the source and the rubric); a stale one is excluded, counted
 * and named with the reason. The program never judges text: it compares labels a judge produced
 * elsewhere. Definitions and references: docs/statistics.md.
 */
export function calibrateJudges(evaluation: SomeEvaluation, options: CalibrationOptions = {}): CalibrationReport {
  const { fixture } = evaluation
  const definition = fixture.definition
  const { calibration } = definition.panel
  if ('uncalibrated' in calibration) throw new UsageError({ code: 'USAGE', file: fixture.displayDir, ...calibration.uncalibrated })
  const ratings: CalibrationRatings = calibration
  const context = kindContext(fixture)
  const seed = options.seed ?? DEFAULT_AGREEMENT_SEED
  const names = options.judge === undefined ? fixture.judges.names : [options.judge]
  const judges: Record<string, JudgeCalibration> = {}
  const reference = adoptedItems(evaluation)

  for (const judge of names) {
    const file = judgeFile(fixture, judge)
    const pairs = new Map<string, { id: string; reviewers: string; judge: string }[]>()
    const stale: ExcludedLabel[] = []
    const refused: ExcludedLabel[] = []
    const predictions = { pending: 0, labelled: 0, accepted: 0, rejected: 0, undecided: 0 }
    let cases = 0
    fixture.cases.forEach((entry, index) => {
      const decision = evaluation.decisions[index]!
      if (decision.status === 'pending') predictions.pending++
      const view = judgeView(fixture, context, entry, judge)
      if (view === undefined) return
      if (view.decision.status === 'refused') {
        const error = view.decision.error
        if (error.code.endsWith('_STALE')) stale.push({ id: entry.id, reason: staleReason(error.code, view.decision.reason) })
        else refused.push({ id: entry.id, reason: view.decision.reason })
        return
      }
      if (decision.status === 'pending') {
        predictions.labelled++
        if (view.decision.status === 'accepted') predictions.accepted++
        else if (view.decision.status === 'rejected') predictions.rejected++
        else predictions.undecided++
      }
      const adopted = reference.get(entry.id)
      if (adopted === undefined) return
      cases++
      for (const [criterion, item] of Object.entries(adopted)) {
        const list = pairs.get(criterion) ?? []
        pairs.set(criterion, list)
        const label = Object.hasOwn(view.items, criterion) ? view.items[criterion]! : undefined
        if (item.value === null || label === undefined) continue
        list.push({ id: entry.id, reviewers: item.shown, judge: label.shown })
      }
    })
    const criteria: Record<string, CriterionCalibration> = {}
    for (const criterion of definition.panel.order(context)) criteria[criterion] = criterionFigures(ratings, pairs.get(criterion) ?? [], seed, options.samples)
    judges[judge] = { file: file.display, origin: file.origin, cases, criteria, stale: stale.length, stale_cases: stale, refused_cases: refused, predictions }
  }
  return { kind: fixture.kind, dir: fixture.displayDir, name: fixture.name, seed, judges }
}

/**
 * The reference judges are compared with: each case's adopted (or only) review, read item by item
 * (criterion by criterion), by case id; only cases whose decision and adopted review are both
 * current, and that have the independent reviews the evaluation's several-reviewer rule requires.
 */
export function adoptedItems(evaluation: SomeEvaluation): Map<string, Readonly<Record<string, PanelItem>>> {
  const { fixture } = evaluation
  const { definition } = fixture
  const context = kindContext(fixture)
  const site = { casesFile: fixture.files.cases.display, annotationsFile: fixture.files.annotations.display }
  const reference = new Map<string, Readonly<Record<string, PanelItem>>>()
  fixture.cases.forEach((entry, index) => {
    const decision = evaluation.decisions[index]!
    const adopted = fixture.reviews.get(entry.id)
    if (decision.status === 'refused' || adopted === undefined) return
    // A case with fewer independent reviews than the evaluation's rule requires stays pending, and is not compared.
    if (decision.status === 'pending' && (fixture.panel.reviews.get(entry.id)?.size ?? 0) < evaluation.panel.minReviews) return
    const own = assessEntry(definition, context, entry, adopted, site, undefined, { reviewRowsOnly: true }).decision
    if (own.status !== 'refused') reference.set(entry.id, definition.panel.items(context, own))
  })
  return reference
}

/** A judge's label file, or the `USAGE` error that names the judges there are and how to record one's labels. */
export function judgeFile(fixture: SomeFixture, judge: string): NonNullable<SomeFixture['judges']['files'][string]> {
  const file = own(fixture.judges.files, judge)
  if (file === undefined) {
    throw new UsageError({
      code: 'USAGE',
      file: `${fixture.displayDir}/${JUDGES_DIR}/${judge}.json`,
      summary: `there are no labels by the judge "${judge}".`,
      expected:
        fixture.judges.names.length === 0
          ? `a file ${JUDGES_DIR}/<judge>.json (the fixture has none yet)`
          : `one of ${fixture.judges.names.map((name) => JSON.stringify(name)).join(', ')}`,
      hint: `record its labels with \`vitest-rubric review ${fixture.displayDir} --case <id> --judge ${judge} --from <labels.json>\`.`,
    })
  }
  return file
}

/**
 * The judge's labels of a case read as a review is and decided by the fixture's rule: what the judge
 * decides of the case. `undefined` when it has not labelled the case; a `refused` decision when the
 * labels are stale (the answer, the source or the rubric changed since) or malformed.
 */
export function judgeView(fixture: SomeFixture, context: KindContext<unknown>, entry: CaseEntry, judge: string): ReviewerView<Decision> | undefined {
  return reviewerViews(fixture.definition, context, entry, fixture.judges, fixture.files.cases.display).find((each) => each.reviewer === judge)
}

/** The figures of one criterion from its pairs of reviewers' and judge's ratings. */
export function criterionFigures(
  ratings: CalibrationRatings,
  pairs: readonly { id: string; reviewers: string; judge: string }[],
  seed: number | string,
  samples?: number,
): CriterionCalibration {
  const ratingPairs: RatingPair[] = pairs.map((pair) => [pair.reviewers, pair.judge])
  const columns = judgeRatings(ratings)
  const matrix = confusionMatrix(ratingPairs, reviewerRatings(ratings), columns)
  const n = pairs.length
  const cell = (reviewers: string, judge: string) => matrix[reviewers]?.[judge] ?? 0
  const row = (rating: string) => columns.reduce((sum, judge) => sum + cell(rating, judge), 0)
  const failures = row(ratings.fail)
  const passes = row(ratings.pass)
  // Reviewers who gave one rating throughout leave kappa nothing to measure: p_o = p_e whatever the judge did (0, or 0/0), so a
  // judge that disagreed on every case would score as one that agreed by chance.
  const reference = new Set(pairs.map((pair) => pair.reviewers))
  const judged = new Set(pairs.map((pair) => pair.judge))
  const kappa =
    n === 0
      ? { kappa: null, reason: 'no case has both a current adopted review and a current label' }
      : reference.size === 1
        ? { kappa: null, reason: 'constant' }
        : cohenKappa(ratingPairs, columns)
  const only = JSON.stringify(pairs[0]?.reviewers)
  const kappaReason =
    kappa.kappa === null
      ? n === 0
        ? kappa.reason
        : judged.size === 1 && judged.has(pairs[0]!.reviewers)
          ? `no variation: the reviewers and the judge rated every case ${only}`
          : `no variation in the reference: the reviewers rated every case ${only}, so kappa, agreement beyond chance, has nothing to measure (the judge agreed on ${cell(pairs[0]!.reviewers, pairs[0]!.reviewers)} of ${n})`
      : null
  const interval: IntervalReport =
    kappa.kappa === null
      ? { ci: null, reason: kappaReason, bootstrap: null }
      : reportInterval(n, 'cases', () => kappaBootstrap(ratingPairs, { seed, ...(samples === undefined ? {} : { samples }) }))
  return {
    n,
    matrix,
    failure_recall: failures === 0 ? null : cell(ratings.fail, ratings.fail) / failures,
    pass_recall: passes === 0 ? null : cell(ratings.pass, ratings.pass) / passes,
    percent_agreement: n === 0 ? null : (cell(ratings.pass, ratings.pass) + cell(ratings.fail, ratings.fail)) / n,
    kappa: kappa.kappa,
    kappa_ci: interval.ci,
    kappa_reason: kappaReason,
    kappa_ci_reason: interval.reason,
    kappa_bootstrap: interval.bootstrap,
    base_rate: n === 0 ? null : passes / n,
    false_accepts: pairs.filter((pair) => pair.reviewers === ratings.fail && pair.judge === ratings.pass).map((pair) => pair.id),
  }
}

function staleReason(code: string, fallback: string): string {
  if (code.endsWith('RUBRIC_STALE')) return 'the rubric changed since these labels were produced: run the judge again'
  if (code.endsWith('SOURCE_STALE')) return 'the source changed since these labels were produced: run the judge again'
  if (code.endsWith('ANSWER_STALE')) return 'the answer changed since it was labelled: run the judge again on it'
  return fallback
}

/** The confusion matrix as text: reviewers' ratings down, the judge's across, each as wide as the longest rating and two more. */
export function matrixLines(item: CriterionCalibration): string[] {
  const rows = Object.keys(item.matrix)
  const columns = Object.keys(item.matrix[rows[0] ?? ''] ?? {})
  const width = Math.max(...rows.map((name) => name.length), ...columns.map((name) => name.length)) + 2
  const head = `${'reviewers \\ judge'.padEnd(width + 4)}${columns.map((name) => name.padStart(width)).join('')}`
  return [head, ...rows.map((row) => `${row.padEnd(width + 4)}${columns.map((column) => String(item.matrix[row]?.[column] ?? 0).padStart(width)).join('')}`)]
}
