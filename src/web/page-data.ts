import { isOriginPlaceholder } from '../core/common/origin.js'
import { createHash } from 'node:crypto'
import { sha256Hex } from '../core/json/canonical-json.js'
import { RECORDS_DIR } from '../core/store/records.js'
import { recordStoreOf } from '../core/engine/records-view.js'
import { formatLocation } from '../core/common/json-path.js'
import { panelAgreement } from '../core/engine/agreement.js'
import { isStale } from '../core/engine/bindings.js'
import { disputeOf } from '../core/engine/adjudicate.js'
import { independentReviewersOf } from '../core/engine/authoring/refusals.js'
import { calibrateJudges, calibrationRatingsOf } from '../core/engine/calibration.js'
import type { Decision } from '../core/contract/decision.js'
import { decisionJson } from '../core/engine/evaluation-json.js'
import { type Evaluation, evaluateWithStates, type EvaluateOptions } from '../core/engine/evaluate.js'
import { kindContext, type CaseEntry, type KindFixture, type SomeFixture } from '../core/engine/fixture.js'
import type { KindContext, SomeKindDefinition } from '../core/contract/kind.js'
import { JUDGES_DIR, REVIEWS_DIR } from '../core/engine/panel.js'
import { reviewerViews } from '../core/engine/panel-rule.js'
import type { CaseAssessment } from '../core/engine/assess.js'
import { caseIndex } from '../core/engine/case-index.js'
import { caseVersions, type SaveScope } from '../core/engine/case-versions.js'
import { countCoverage } from '../core/engine/coverage.js'
import { carriedOver, fixtureHistory, NO_HISTORY, type FixtureHistory } from '../core/engine/fixture-history.js'
import { isComplete, withReviewsOf } from './blind.js'
import { pageEstimate, type EstimateJudge } from './page-estimate.js'
import { keptCasesOf, ownDecision, type KeptCase, type PageRows } from './page-rows.js'
import { sampleProgress } from './sample-progress.js'
import type { Viewer } from './viewer.js'
import type { CaseRow, Coverage, KindView, PageCase, PageCriterionCard, PageFixture, PageJudgeHint, PageReviewer } from './protocol.js'
import type { SavedFixture } from './save-protocol.js'
import { own } from '../core/common/primitives.js'

/**
 * The overview of a loaded fixture, as `viewer` may see it. A blind reviewer sees each case they
 * have not completed a review of as their own review alone decides it (or pending with no review):
 * no other reviewer's rating, no panel reason, no adopted review, no judge's figures; agreement is
 * computed over the cases they have completed only. `decided` is the fixture's evaluation with every
 * binding state, when the caller has it. `estimateJudge` names the judge of the estimate ({@link pageEstimate}).
 */
export async function pageFixture<R, C, V, D extends Decision, S>(
  fixture: KindFixture<R, C, V, D, S>,
  index: number,
  options: EvaluateOptions = {},
  viewer: Viewer = { role: 'reader' },
  decided?: { readonly evaluation: Evaluation<R, C, V, D, S>; readonly assessments: readonly CaseAssessment<D>[] },
  estimateJudge?: EstimateJudge,
  rows?: PageRows,
): Promise<PageFixture> {
  const { evaluation, assessments } = decided ?? evaluateWithStates(fixture, { ...options, allStates: true })
  const definition = fixture.definition
  const context = kindContext(fixture)
  const criteria = definition.panel.order(context)
  const blindReviewer = viewer.role === 'reviewer' ? viewer.name : undefined
  // What an earlier overview made of a case whose assessment has not changed since (see PageRows).
  const kept = rows?.of<D>(blindReviewer ?? 'all') ?? new WeakMap<CaseAssessment<D>, KeptCase<D>>()
  const keptCases = keptCasesOf(fixture, casesFileOf(fixture), (position) => assessment(assessments, position), blindReviewer, kept)
  const shown = keptCases.map((each) => each.shown)
  const visible =
    blindReviewer === undefined ? fixture : withReviewsOf(fixture, new Set(fixture.cases.filter((_, at) => keptCases[at]?.completed).map(({ id }) => id)))
  const { agreement, calibration, disagreeing } = figuresOf(visible, evaluation, blindReviewer !== undefined)
  const cases = keptCases.map((known, position): CaseRow => {
    const entry = fixture.cases[position]!
    const disagreement = disagreeing.has(entry.id)
    if (known.row?.disagreement === disagreement) return known.row.value
    const value = rowOf(definition, context, entry, assessment(assessments, position), known.shown, disagreeing)
    known.row = { disagreement, value }
    return value
  })
  return {
    index,
    dir: fixture.displayDir,
    name: fixture.name,
    kind: fixture.kind,
    origin: isOriginPlaceholder(fixture.origin) ? null : fixture.origin,
    page: kindView(definition),
    coverage: pageCoverage(blindReviewer === undefined ? evaluation.coverage : countCoverage(shown)),
    agreement,
    calibration,
    // The human decisions of the sample are in it: a blind reviewer sees none, as no judge's figures.
    estimate: blindReviewer === undefined ? await pageEstimate(evaluation, estimateJudge) : null,
    sample: await sampleProgress(evaluation, viewer),
    reviewers: fixture.panel.reviewers,
    criteria,
    cases,
    version: await fixtureVersion(fixture),
  }
}

/** Each case's decision as `viewer` is shown it, in order: a blind reviewer's own where their review is not complete, as their overview shows. */
export function shownDecisions<R, C, V, D extends Decision, S>(
  fixture: KindFixture<R, C, V, D, S>,
  viewer: Viewer,
  decided: { readonly assessments: readonly CaseAssessment<D>[] },
  rows: PageRows,
): readonly D[] {
  const blindReviewer = viewer.role === 'reviewer' ? viewer.name : undefined
  const kept = keptCasesOf(
    fixture,
    casesFileOf(fixture),
    (position) => assessment(decided.assessments, position),
    blindReviewer,
    rows.of<D>(blindReviewer ?? 'all'),
  )
  return kept.map((each) => each.shown)
}

/** The figures of a fixture a page answer holds beside the coverage, and the cases whose reviewers disagree. */
function figuresOf<R, C, V, D extends Decision, S>(
  visible: KindFixture<R, C, V, D, S>,
  evaluation: Evaluation<R, C, V, D, S>,
  blind: boolean,
  calibrate = true,
): Pick<PageFixture, 'agreement' | 'calibration'> & { readonly disagreeing: ReadonlySet<string> } {
  const agreement = visible.panel.reviewers.length === 0 || visible.panel.reviews.size === 0 ? null : panelAgreement(visible)
  // Calibration is a pass over every case with each judge's labels: a save makes it only when asked.
  const calibration =
    !calibrate || blind || visible.judges.names.length === 0 || calibrationRatingsOf(visible.definition) === undefined ? null : calibrateJudges(evaluation)
  const disagreeing = new Set(agreement === null ? [] : Object.values(agreement.items).flatMap((item) => item.disagreements))
  return { agreement, calibration, disagreeing }
}

/** A case's row of the overview, `decision` being what the viewer is shown (a blind reviewer's own, where it is not the fixture's). */
function rowOf<R, C, V, D extends Decision, S>(
  definition: KindFixture<R, C, V, D, S>['definition'],
  context: KindContext<R>,
  entry: CaseEntry,
  assessed: CaseAssessment<D>,
  decision: D,
  disagreeing: ReadonlySet<string>,
): CaseRow {
  const own = decision !== assessed.decision
  const facts = definition.page.row(context, entry.value, decision)
  return {
    id: entry.id,
    split: entry.split,
    status: decision.status,
    reason: decision.status === 'refused' ? firstLine(decision.error.message) : decision.reason,
    waiting: decision.status === 'pending' ? (panelWaiting(own ? undefined : assessed.panelWait) ?? definition.page.waiting(decision)) : null,
    // The bindings checked are the adopted review's, which a blind reviewer is not told of; for them, their own review's, refused as stale.
    stale: own ? decision.status === 'refused' && decision.error.code.endsWith('_STALE') : assessed.states.some((state) => isStale(state)),
    disagreement: disagreeing.has(entry.id),
    failed: facts.failed,
    flagged: [...new Set([...facts.failed, ...facts.uncertain, ...facts.missing])],
    text: facts.text,
  }
}

/**
 * What a save answers of its fixture to a viewer who sees every review (a reader or an
 * adjudicator): the overview's figures and the saved case's row, as {@link pageFixture} makes them,
 * without the rows of every other case; the calibration and the estimate when the save asks for them. A blind reviewer's figures are counted over what they may
 * see, case by case: theirs are the overview's.
 */
export async function savedCaseFigures<R, C, V, D extends Decision, S>(
  fixture: KindFixture<R, C, V, D, S>,
  decided: {
    readonly evaluation: Evaluation<R, C, V, D, S>
    readonly assessmentAt: (position: number) => CaseAssessment<D>
    readonly positionOf?: (id: string) => number | undefined
  },
  saved: { readonly id: string; readonly estimate?: boolean | undefined; readonly calibration?: boolean | undefined },
  estimateJudge?: EstimateJudge,
): Promise<Omit<SavedFixture, 'index'>> {
  const caseId = saved.id
  const { agreement, calibration, disagreeing } = figuresOf(fixture, decided.evaluation, false, saved.calibration === true)
  const position = knownPosition(fixture, decided, caseId) ?? fixture.cases.findIndex((entry) => entry.id === caseId)
  const entry = fixture.cases[position]
  let row: CaseRow | null = null
  if (entry !== undefined) {
    const assessed = decided.assessmentAt(position)
    row = rowOf(fixture.definition, kindContext(fixture), entry, assessed, assessed.decision, disagreeing)
  }
  // The estimate is made again when the save asks for it, and only with a sample, which the progress reads first.
  const sample = await sampleProgress(decided.evaluation, { role: 'reader' })
  const estimate = saved.estimate !== true ? {} : { estimate: sample === null ? null : await pageEstimate(decided.evaluation, estimateJudge) }
  const calibrated = saved.calibration === true ? { calibration } : {}
  return { coverage: pageCoverage(decided.evaluation.coverage), agreement, ...calibrated, sample, ...estimate, version: await fixtureVersion(fixture), row }
}

/**
 * What {@link pageCase} is given of the fixture's evaluation, when the caller has it: every case's
 * assessment with every binding state (the static report), or a way to assess one case with them.
 */
export type CaseDecided<D extends Decision> =
  | { readonly assessments: readonly CaseAssessment<D>[] }
  | { readonly assess: (position: number) => CaseAssessment<D>; readonly positionOf?: (id: string) => number | undefined }

/** How {@link pageCase} is read: a caller going through every case knows each one's position; a read-only view saves nothing. */
export interface CaseReading {
  /** The case's position in `cases.json`, when the caller knows it. */
  readonly position?: number
  /** Leave `versions` empty: nothing will be saved from this view (the static report). */
  readonly readOnly?: boolean
  /** The git history of the shown review's earlier files (see {@link servedCase}): what it left unchanged is carried over. */
  readonly history?: FixtureHistory
}

/**
 * Which case the page shows and to whom: the fixture and its index in the page, the case's id, the
 * viewer, how it is evaluated, and the fixture's evaluation when the caller holds it already.
 */
export type CaseOfFixture<R, C, V, D extends Decision, S> = [
  fixture: KindFixture<R, C, V, D, S>,
  index: number,
  id: string,
  viewer: Viewer,
  options?: EvaluateOptions,
  decided?: CaseDecided<D>,
]

/**
 * One case for the page, as `viewer` may see it. `decided` is the fixture's evaluation with every
 * binding state, when the caller has it already: the static report shows every case, and deciding
 * the whole fixture again for each of them made it quadratic.
 */
export function pageCase<R, C, V, D extends Decision, S>(
  ...[fixture, index, id, viewer, options = {}, decided, reading = {}]: [...CaseOfFixture<R, C, V, D, S>, reading?: CaseReading]
): PageCase {
  const position = reading.position ?? knownPosition(fixture, decided, id) ?? caseIndex(fixture, id, { hint: 'open a case from the overview.' })
  const definition = fixture.definition
  const context = kindContext(fixture)
  // The case's every binding state: decided alone when the caller keeps the fixture decided, else read from the whole evaluation.
  const assessed =
    decided !== undefined && 'assess' in decided
      ? decided.assess(position)
      : assessment((decided ?? evaluateWithStates(fixture, { ...options, allStates: true })).assessments, position)
  const entry = fixture.cases[position]
  if (entry === undefined) throw new RangeError(`no case at ${position}`)
  const views = reviewerViews(definition, context, entry, fixture.panel, casesFileOf(fixture))
  const blindReviewer = viewer.role === 'reviewer' ? viewer.name : undefined
  const theirs = blindReviewer === undefined ? undefined : fixture.panel.reviews.get(id)?.get(blindReviewer)?.['review']
  const adopted = fixture.reviews.get(id)?.['review']
  // A blind reviewer sees their own review and its decision, never the adopted one or another's.
  const shownReview = blindReviewer === undefined ? adopted : theirs
  const decision = blindReviewer === undefined ? assessed.decision : ownDecision(fixture, views, blindReviewer, entry)
  const shownCase = definition.page.caseView(context, entry.value, shownReview?.value)
  const shownFile = blindReviewer === undefined ? fixture.files.annotations.display : (own(fixture.panel.files, blindReviewer)?.display ?? '')
  // The adopted review's bindings are checked already: only a stale one (or a reviewer's own review) is looked at again.
  const adoptedCurrent = blindReviewer === undefined && !assessed.states.some((state) => state.row.in === 'review' && isStale(state))
  const carried =
    shownReview === undefined || adoptedCurrent ? undefined : carriedOver(fixture, entry, { ...shownReview, file: shownFile }, reading.history ?? NO_HISTORY)
  const sideBySide: PageReviewer[] = views.map((view) => ({
    reviewer: view.reviewer,
    decision: shownDecision(view.decision),
    judgements: definition.page.judgements(fixture.panel.reviews.get(id)?.get(view.reviewer)?.['review']?.value),
  }))
  const undecided = calibrationRatingsOf(definition)?.undecided ?? 'uncertain'
  const criteria = shownCase.criteria.map((item): PageCriterionCard => {
    const judged = item.rating !== null && (carried?.stale !== true || carried.items.includes(item.criterion))
    const prefill = judged ? { rating: item.rating!, reason: item.reason ?? '', answerSpan: item.answerSpan ?? '', carried: carried?.stale === true } : null
    const dispute =
      blindReviewer !== undefined || sideBySide.length === 0
        ? null
        : (disputeOf(
            sideBySide.map((review) => review.judgements[item.criterion]?.rating),
            undecided,
          ) ?? null)
    return { ...item, prefill, dispute }
  })
  // A judge's label is checked as a review is: only a current one is shown with its judgements.
  const judges: PageJudgeHint[] =
    blindReviewer !== undefined || reading.readOnly === true
      ? []
      : reviewerViews(definition, context, entry, fixture.judges, casesFileOf(fixture)).map((view) => {
          const origin = own(fixture.judges.files, view.reviewer)?.origin ?? ''
          if (view.decision.status === 'refused') return { judge: view.reviewer, origin, current: false, reason: view.decision.reason }
          const judgements = definition.page.judgements(fixture.judges.reviews.get(id)?.get(view.reviewer)?.['review']?.value)
          return { judge: view.reviewer, origin, current: true, prediction: shownDecision(view.decision), judgements }
        })
  // A partial review does not unblind: the others are shown once the reviewer's own is complete.
  const hidden =
    blindReviewer !== undefined &&
    !isComplete(
      views.find((view) => view.reviewer === blindReviewer),
      definition.panel.order(context),
    )
  const scope: SaveScope =
    blindReviewer !== undefined ? { reviewer: blindReviewer } : viewer.role === 'adjudicator' ? { adjudication: true } : { adopted: true }
  const versions = reading.readOnly === true ? {} : caseVersions(fixture, id, [definition.reviews.slots[0]], scope, entry)
  return {
    fixture: index,
    id,
    split: entry.split,
    kind: fixture.kind,
    question: shownCase.question,
    answer: shownCase.answer,
    citation: shownCase.citation,
    source: shownCase.source,
    criteria,
    table: definition.page.table(decision),
    decision: decisionJson(definition, decision),
    refusal: decision.status === 'refused' ? decision.error.message : null,
    // A blind reviewer is shown no binding of the adopted review either.
    bindings:
      blindReviewer !== undefined
        ? []
        : assessed.states.map((state) => ({
            location: formatLocation(state.file, state.path),
            stale: isStale(state),
            meaning: state.row.meaning,
            recorded: state.recorded ?? null,
            current: state.current,
          })),
    shows: blindReviewer === undefined ? 'adopted' : 'own',
    reviewers: hidden ? 'hidden' : sideBySide,
    judges,
    existing: shownReview !== undefined,
    revisable: blindReviewer !== undefined && carried?.stale === true,
    adjudicationOnly: viewer.role === 'reader' && independentReviewersOf(fixture, id, definition.reviews.slots[0]).length > 0,
    versions,
  }
}

/** What the page needs of a kind to draw its cases: its view, its ratings and the words for its items, from its definition. */
export function kindView(definition: SomeKindDefinition): KindView {
  const passing = calibrationRatingsOf(definition)?.pass ?? null
  const { item, items } = definition.panel.words
  return {
    view: definition.page.view,
    ratings: definition.page.ratings,
    passing,
    item,
    items,
    noReason: passing === null ? '' : `every ${item} ${passing}`,
  }
}

/** A decision as the side-by-side view names it: its status, and why for a pending or rejected one. */
function shownDecision(decision: Decision): string {
  return decision.status === 'pending' || decision.status === 'rejected' ? `${decision.status} (${decision.reason})` : decision.status
}

/**
 * {@link pageCase} as the server sends it: a review shown that is bound to an earlier rubric is
 * looked up in git history first, so the criteria it left unchanged are offered as carried over.
 * `decided` is the fixture's evaluation with every binding state, when the server holds it already.
 */
export async function servedCase<R, C, V, D extends Decision, S>(
  ...[fixture, index, id, viewer, options, decided]: CaseOfFixture<R, C, V, D, S>
): Promise<PageCase> {
  const reviewer = viewer.role === 'reviewer' ? viewer.name : undefined
  const shown = reviewer === undefined ? fixture.reviews.get(id)?.['review'] : fixture.panel.reviews.get(id)?.get(reviewer)?.['review']
  const history = shown === undefined ? NO_HISTORY : await fixtureHistory(fixture, [shown])
  return pageCase(fixture, index, id, viewer, options, decided, { history })
}

/** SHA-256 over the fixture's files (reviewers' and judges' included): what changes when any of them is edited. */
export async function fixtureVersion(fixture: SomeFixture): Promise<string> {
  const hash = createHash('sha256')
  // In the records layout the record files are what changes: the documents they make would cost their whole text to hash.
  const store = recordStoreOf(fixture)
  if (store !== undefined) {
    for (const role of ['rubric', 'source'] as const) {
      const file = fixture.files[role]
      if (file !== undefined) hash.update(`${file.name}\u0000${file.sha256}\n`)
    }
    for (const [name, file] of store.recordFiles()) hash.update(`${RECORDS_DIR}/${name}\u0000${file.sha256 ?? sha256Hex(file.bytes)}\n`)
    return hash.digest('hex')
  }
  for (const file of Object.values(fixture.files)) hash.update(`${file.name}\u0000${file.sha256}\n`)
  for (const [name, file] of Object.entries(fixture.panel.files)) hash.update(`${REVIEWS_DIR}/${name}\u0000${file.sha256}\n`)
  for (const [name, file] of Object.entries(fixture.judges.files)) hash.update(`${JUDGES_DIR}/${name}\u0000${file.sha256}\n`)
  if (fixture.panel.adjudications !== undefined) hash.update(`adjudications\u0000${fixture.panel.adjudications.sha256}\n`)
  return hash.digest('hex')
}

/** A fixture's coverage as the page shows it: its counts, all and by split, without the lists of pending and refused cases (the page reads the rows). */
function pageCoverage({ pendingCases: _pending, refusedCases: _refused, ...counts }: Evaluation['coverage']): Coverage {
  return counts
}

/** What the several-reviewer rule says a pending case waits for; `undefined` when it says nothing. */
function panelWaiting(wait: string | undefined): string | undefined {
  if (wait === 'disagreement') return 'reviewers disagree'
  if (wait === 'not-adopted' || wait === 'one-review') return 'not adopted yet'
  if (wait === 'too-few-reviews') return 'too few reviews'
  if (wait === 'uncertain') return 'uncertain'
  return undefined
}

/** Where case `id` is, as the caller's evaluation knows it and the fixture confirms, without a pass over every case; `undefined` when it does not know. */
function knownPosition(fixture: SomeFixture, decided: object | undefined, id: string): number | undefined {
  const position = decided !== undefined && 'positionOf' in decided && typeof decided.positionOf === 'function' ? decided.positionOf(id) : undefined
  return typeof position === 'number' && fixture.cases[position]?.id === id ? position : undefined
}

function assessment<D extends Decision>(assessments: readonly CaseAssessment<D>[], position: number): CaseAssessment<D> {
  const found = assessments[position]
  // evaluateWithStates keeps every case's assessment, in the order of the cases.
  if (found === undefined) throw new RangeError(`no assessment of the case at ${position}`)
  return found
}

function casesFileOf(fixture: SomeFixture): string {
  return fixture.files.cases?.display ?? fixture.definition.files.cases
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? ''
}
