import { createHash } from 'node:crypto'
import { formatLocation } from '../core/common/json-path.js'
import { panelAgreement, type AgreementReport } from '../core/engine/agreement.js'
import { isStale } from '../core/engine/bindings.js'
import { calibrateJudges, calibrationRatingsOf, type CalibrationReport } from '../core/engine/calibration.js'
import type { Coverage } from '../core/engine/coverage.js'
import type { Decision, RefusedDecision } from '../core/engine/decision.js'
import { decisionJson } from '../core/engine/evaluation-json.js'
import { evaluateWithStates, type EvaluateOptions } from '../core/engine/evaluate.js'
import { kindContext, type SomeFixture } from '../core/engine/fixture.js'
import { JUDGES_DIR, REVIEWS_DIR } from '../core/engine/panel.js'
import { reviewerViews } from '../core/engine/panel-rule.js'
import { caseIndex } from '../core/engine/show.js'
import { caseVersions, type CaseVersions, type SaveScope } from '../core/engine/case-versions.js'
import { valueAt } from '../core/common/primitives.js'
import { countCoverage, type CountedDecision } from '../core/engine/coverage.js'
import { isComplete, ownDecision, withReviewsOf } from './blind.js'

/** The overview of one fixture: its figures, which do not depend on a run, and a row per case. */
export interface PageFixture {
  readonly index: number
  readonly dir: string
  readonly name: string
  readonly kind: string
  readonly coverage: Coverage
  readonly agreement: AgreementReport | null
  readonly calibration: CalibrationReport | null
  /** The reviewers with independent reviews: with any, the page reviews blind. */
  readonly reviewers: readonly string[]
  /** The criteria (or dimensions) a case is judged on, in the rubric's order. */
  readonly criteria: readonly string[]
  readonly cases: readonly CaseRow[]
  /** SHA-256 over the fixture's files: the page compares it to see a fixture edited on disk. */
  readonly version: string
}

/** One case in the overview's list, with what the filters look at. */
export interface CaseRow {
  readonly id: string
  readonly split: string
  readonly status: Decision['status']
  /** As the CLI words it. */
  readonly reason: string
  /** Why a pending case waits: `no review`, `missing criteria`, `uncertain`, `reviewers disagree`, … */
  readonly waiting: string | null
  /** Some recorded hash of the case or its review no longer matches its file. */
  readonly stale: boolean
  readonly disagreement: boolean
  /** Criteria rated does_not_meet, uncertain, or not judged. */
  readonly failed: readonly string[]
  readonly uncertain: readonly string[]
  readonly missing: readonly string[]
  /** The answer's text, for search. */
  readonly text: string
}

/** One criterion of a case as the page shows it. */
export interface PageCriterion {
  readonly criterion: string
  readonly marker: number
  readonly rule: string
  readonly referenceQuote: string
  /** Where the reference quote occurs in the source, `[start, end)` in UTF-16 units; `null` when it does not. */
  readonly quoteAt: readonly [number, number] | null
  readonly rating: string | null
  readonly reason: string | null
  readonly answerSpan: string | null
  readonly spanAt: readonly [number, number] | null
}

/** A reviewer's judgements of a case, side by side with the others'. */
export interface PageReviewer {
  readonly reviewer: string
  readonly decision: string
  readonly judgements: Readonly<Record<string, { readonly rating: string; readonly reason: string; readonly answer_span: string }>>
}

/** Who looks at the page: a reviewer (blind), or an adjudicator or reader (who sees every review). */
export type Viewer = { readonly role: 'reviewer'; readonly name: string } | { readonly role: 'adjudicator'; readonly name?: string | undefined } | { readonly role: 'reader' }

export interface PageCase {
  readonly fixture: number
  readonly id: string
  readonly split: string
  readonly kind: string
  readonly question: string | null
  readonly answer: string | null
  readonly citation: string | null
  readonly source: string | null
  readonly criteria: readonly PageCriterion[]
  /** As `evaluate --json` shows it, and the refusal's message as the CLI words it. */
  readonly decision: Readonly<Record<string, unknown>>
  readonly refusal: string | null
  readonly bindings: readonly { readonly location: string; readonly stale: boolean; readonly meaning: string; readonly recorded: string | null; readonly current: string }[]
  /** Whose judgements `criteria` shows: the adopted review, or the viewing reviewer's own. */
  readonly shows: 'adopted' | 'own'
  /** The independent reviews side by side; `hidden` until a blind viewer's own review of the case is complete. */
  readonly reviewers: readonly PageReviewer[] | 'hidden'
  /** A review exists where a save would write: saving replaces it. */
  readonly existing: boolean
  /** SHA-256 of each file a save would write, as read: a save is refused when one changed since. */
  /** What a save of this case replaces, as read (see `caseVersions`): sent back with the save. */
  readonly versions: CaseVersions
}

/**
 * The overview of a loaded fixture, as `viewer` may see it. A blind reviewer sees each case they
 * have not completed a review of as their own review alone decides it (or pending with no review):
 * no other reviewer's rating, no panel reason, no adopted review, no judge's figures; agreement is
 * computed over the cases they have completed only.
 */
export async function pageFixture(fixture: SomeFixture, index: number, options: EvaluateOptions = {}, viewer: Viewer = { role: 'reader' }): Promise<PageFixture> {
  const { evaluation, assessments } = evaluateWithStates(fixture, { ...options, allStates: true })
  const definition = fixture.definition
  const criteria = criteriaOf(fixture)
  const blindReviewer = viewer.role === 'reviewer' ? viewer.name : undefined
  const completed = new Set<string>()
  const shown: Decision[] = fixture.cases.map((entry, position) => {
    const decision = assessments[position]!.decision as Decision
    if (blindReviewer === undefined) return decision
    const views = reviewerViews(definition, kindContext(fixture), entry, fixture.panel, fixture.files.cases!.display)
    if (isComplete(views.find((view) => view.reviewer === blindReviewer), criteria)) {
      completed.add(entry.id)
      return decision
    }
    return ownDecision(views, blindReviewer, entry)
  })
  const visible = blindReviewer === undefined ? fixture : withReviewsOf(fixture, completed)
  const agreement = visible.panel.reviewers.length === 0 || visible.panel.reviews.size === 0 ? null : panelAgreement(visible)
  const calibration = blindReviewer !== undefined || fixture.judges.names.length === 0 || calibrationRatingsOf(definition) === undefined ? null : calibrateJudges(evaluation)
  const disagreeing = new Set(agreement === null ? [] : Object.values(agreement.items).flatMap((item) => item.disagreements))
  const cases = fixture.cases.map((entry, position): CaseRow => {
    const assessment = assessments[position]!
    const decision = shown[position]! as Decision & Record<string, unknown>
    const own = decision !== assessment.decision
    const ratings = (decision['ratings'] ?? {}) as Record<string, string>
    return {
      id: entry.id,
      split: entry.split,
      status: decision.status,
      reason: decision.status === 'refused' ? firstLine((decision as unknown as RefusedDecision).error.message) : decision.reason,
      waiting: decision.status === 'pending' ? waiting(decision, own ? undefined : assessment.panelWait) : null,
      // The bindings checked are the adopted review's: a blind reviewer is not told of them.
      stale: !own && assessment.states.some((state) => isStale(state)),
      disagreement: disagreeing.has(entry.id),
      failed: criteria.filter((criterion) => ratings[criterion] === 'does_not_meet'),
      uncertain: criteria.filter((criterion) => ratings[criterion] === 'uncertain'),
      missing: decision.status === 'refused' ? [] : criteria.filter((criterion) => !Object.hasOwn(ratings, criterion)),
      text: textAt(entry.value, ['input', 'answer', 'text']) ?? '',
    }
  })
  return {
    index,
    dir: fixture.displayDir,
    name: fixture.name,
    kind: fixture.kind,
    coverage: blindReviewer === undefined ? evaluation.coverage : countCoverage(shown as unknown as readonly CountedDecision[]),
    agreement,
    calibration,
    reviewers: fixture.panel.reviewers,
    criteria,
    cases,
    version: await fixtureVersion(fixture),
  }
}

/** One case for the page, as `viewer` may see it. */
export function pageCase(fixture: SomeFixture, index: number, id: string, viewer: Viewer, options: EvaluateOptions = {}): PageCase {
  const position = caseIndex(fixture, id, 'open a case from the overview.')
  const definition = fixture.definition
  const context = kindContext(fixture)
  const { assessments } = evaluateWithStates(fixture, { ...options, allStates: true })
  const assessment = assessments[position]!
  const entry = fixture.cases[position]!
  const casesFile = fixture.files.cases!.display
  const views = reviewerViews(definition, context, entry, fixture.panel, casesFile)
  const blindReviewer = viewer.role === 'reviewer' ? viewer.name : undefined
  const own = blindReviewer === undefined ? undefined : fixture.panel.reviews.get(id)?.get(blindReviewer)?.['review']
  const adopted = fixture.reviews.get(id)?.['review']
  // A blind reviewer sees their own review and its decision, never the adopted one or another's.
  const shownReview = blindReviewer === undefined ? adopted : own
  const decision: Decision = blindReviewer === undefined ? (assessment.decision as Decision) : ownDecision(views, blindReviewer, entry)
  const source = fixture.kind === 'criteria' ? (context.rubric as { source: string }).source : null
  const answer = textAt(entry.value, ['input', 'answer', 'text']) ?? null
  const judgements = valueAt(shownReview?.value, ['judgements']) as Record<string, Record<string, string>> | undefined
  const criteria: PageCriterion[] =
    fixture.kind !== 'criteria'
      ? []
      : [...(context.rubric as { criteria: ReadonlyMap<string, { rule: string; reference_quote: string }> }).criteria].map(([criterion, item], at) => {
          const judgement = judgements !== undefined && Object.hasOwn(judgements, criterion) ? judgements[criterion] : undefined
          const span = typeof judgement?.['answer_span'] === 'string' ? judgement['answer_span'] : null
          const spanStart = span === null || span === '' || answer === null ? -1 : answer.indexOf(span)
          const quoteStart = source === null ? -1 : source.indexOf(item.reference_quote)
          return {
            criterion,
            marker: at + 1,
            rule: item.rule,
            referenceQuote: item.reference_quote,
            quoteAt: quoteStart === -1 ? null : [quoteStart, quoteStart + item.reference_quote.length],
            rating: typeof judgement?.['rating'] === 'string' ? judgement['rating'] : null,
            reason: typeof judgement?.['reason'] === 'string' ? judgement['reason'] : null,
            answerSpan: span,
            spanAt: spanStart === -1 ? null : [spanStart, spanStart + span!.length],
          }
        })
  const sideBySide: PageReviewer[] = views.map((view) => {
    const review = fixture.panel.reviews.get(id)?.get(view.reviewer)?.['review']
    const given = (valueAt(review?.value, ['judgements']) ?? {}) as Record<string, Record<string, string>>
    return {
      reviewer: view.reviewer,
      decision: view.decision.status === 'pending' || view.decision.status === 'rejected' ? `${view.decision.status} (${view.decision.reason})` : view.decision.status,
      judgements: Object.fromEntries(
        Object.entries(given).map(([criterion, judgement]) => [criterion, { rating: String(judgement['rating']), reason: String(judgement['reason']), answer_span: String(judgement['answer_span'] ?? '') }]),
      ),
    }
  })
  // A partial review does not unblind: the others are shown once the reviewer's own is complete.
  const hidden = blindReviewer !== undefined && !isComplete(views.find((view) => view.reviewer === blindReviewer), criteriaOf(fixture))
  const scope: SaveScope = blindReviewer !== undefined ? { reviewer: blindReviewer } : viewer.role === 'adjudicator' ? { adjudication: true } : { adopted: true }
  const versions = caseVersions(fixture, id, [definition.reviews.slots[0]!], scope)
  return {
    fixture: index,
    id,
    split: entry.split,
    kind: fixture.kind,
    question: textAt(entry.value, ['input', 'question']) ?? null,
    answer,
    citation: textAt(entry.value, ['input', 'answer', 'citation']) ?? null,
    source,
    criteria,
    decision: decisionJson(definition, decision),
    refusal: decision.status === 'refused' ? (decision as RefusedDecision).error.message : null,
    // A blind reviewer is shown no binding of the adopted review either.
    bindings:
      blindReviewer !== undefined
        ? []
        : assessment.states.map((state) => ({ location: formatLocation(state.file, state.path), stale: isStale(state), meaning: state.row.meaning, recorded: state.recorded ?? null, current: state.current })),
    shows: blindReviewer === undefined ? 'adopted' : 'own',
    reviewers: hidden ? 'hidden' : sideBySide,
    existing: shownReview !== undefined,
    versions,
  }
}

/** SHA-256 over the fixture's files (reviewers' and judges' included): what changes when any of them is edited. */
export async function fixtureVersion(fixture: SomeFixture): Promise<string> {
  const hash = createHash('sha256')
  for (const file of Object.values(fixture.files)) hash.update(`${file.name}\u0000${file.sha256}\n`)
  for (const [name, file] of Object.entries(fixture.panel.files)) hash.update(`${REVIEWS_DIR}/${name}\u0000${file.sha256}\n`)
  for (const [name, file] of Object.entries(fixture.judges.files)) hash.update(`${JUDGES_DIR}/${name}\u0000${file.sha256}\n`)
  if (fixture.panel.adjudications !== undefined) hash.update(`adjudications\u0000${fixture.panel.adjudications.sha256}\n`)
  return hash.digest('hex')
}

function criteriaOf(fixture: SomeFixture): string[] {
  const rubric = kindContext(fixture).rubric as { criteria?: ReadonlyMap<string, unknown>; rules?: { dimensions?: readonly string[] } }
  if (rubric.criteria !== undefined) return [...rubric.criteria.keys()]
  return [...(rubric.rules?.dimensions ?? [])]
}

function waiting(decision: Decision & Record<string, unknown>, wait: string | undefined): string {
  if (wait === 'disagreement') return 'reviewers disagree'
  if (wait === 'not-adopted') return 'not adopted yet'
  if (wait === 'too-few-reviews') return 'too few reviews'
  if (wait === 'uncertain') return 'uncertain'
  if (decision['reviewed'] === false || decision.reason === 'no review') return 'no review'
  if (Array.isArray(decision['uncertain']) && decision['uncertain'].length > 0) return 'uncertain'
  if (Array.isArray(decision['missing']) && decision['missing'].length > 0) return 'missing criteria'
  return decision.reason.startsWith('manual review') ? 'manual review' : 'other'
}

function textAt(value: unknown, path: readonly string[]): string | undefined {
  const found = valueAt(value, path)
  return typeof found === 'string' ? found : undefined
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? ''
}
