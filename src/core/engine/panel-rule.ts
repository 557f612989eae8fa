import { dirname } from 'node:path'
import { BindingError, CanonicalJsonError } from '../common/errors.js'
import { formatLocation } from '../common/json-path.js'
import { fingerprint } from '../json/canonical-json.js'
import { shortSha as shortHash } from '../common/primitives.js'
import { assessEntry, type AssessSite, type CaseAssessment } from './assess.js'
import type { Decision, RefusedDecision } from './decision.js'
import type { CaseEntry, ReviewEntry } from './fixture.js'
import type { AnyKindDefinition, KindContext, PanelItem } from './kind.js'
import type { Panel } from './panel.js'

/** What the several-reviewer rule asks of every case. */
export interface PanelPolicy {
  /** Independent reviews a case needs before it can be decided; 0 for no minimum. */
  readonly minReviews: number
}

export const NO_PANEL_POLICY: PanelPolicy = { minReviews: 0 }

/** Why the several-reviewer rule keeps a case pending: what `status` groups it by. */
export type PanelWait = 'too-few-reviews' | 'disagreement' | 'uncertain' | 'not-adopted'

/** One reviewer's independent review of a case: the decision it alone gives, and what it says of each item. */
export interface ReviewerView {
  readonly reviewer: string
  readonly decision: Decision
  readonly items: Readonly<Record<string, PanelItem>>
}

/** Each reviewer's independent review of a case, checked like any review: bound to the case's answer, source and rubric. */
export function reviewerViews(
  definition: AnyKindDefinition,
  context: KindContext<unknown>,
  entry: CaseEntry,
  panel: Pick<Panel, 'reviews' | 'files'>,
  casesFile: string,
): ReviewerView[] {
  const byReviewer = panel.reviews.get(entry.id)
  if (byReviewer === undefined) return []
  return [...byReviewer].map(([reviewer, reviews]) => {
    const site: AssessSite = { casesFile, annotationsFile: panel.files[reviewer]!.display }
    const decision = assessEntry<Decision>(definition, context, entry, reviews, site, undefined, { reviewRowsOnly: true }).decision
    return { reviewer, decision, items: definition.panel.items(context, decision) }
  })
}

/**
 * The decision of a case under several reviewers. Only an adopted review (in `annotations.json`)
 * decides a case; independent reviews never do by themselves. A refused independent review refuses
 * the case, as any stale or malformed review does; an adoption whose resolved reviews (or adopted
 * review) changed since is stale and refused. A case with too few independent reviews, or with
 * independent reviews and no adopted one, is pending, and its reason says why: the reviewers
 * disagree (and how), are uncertain, or agree and wait for adoption.
 */
export function decideWithPanel(
  definition: AnyKindDefinition,
  context: KindContext<unknown>,
  entry: CaseEntry,
  adopted: CaseAssessment<Decision>,
  adoptedReviews: Readonly<Record<string, ReviewEntry>> | undefined,
  panel: Panel,
  site: AssessSite,
  policy: PanelPolicy,
): { readonly decision: Decision; readonly views: readonly ReviewerView[]; readonly wait?: PanelWait } {
  const views = reviewerViews(definition, context, entry, panel, site.casesFile)
  if (adopted.decision.status === 'refused') return { decision: adopted.decision, views }
  const refusedView = views.find((view) => view.decision.status === 'refused')
  if (refusedView !== undefined) return { decision: refusedView.decision, views }
  const stale = staleAdoption(entry, adoptedReviews, panel, site)
  if (stale !== undefined) return { decision: stale, views }

  const count = views.length
  const { minReviews } = policy
  const hasAdopted = adoptedReviews !== undefined && Object.keys(adoptedReviews).length > 0
  if (hasAdopted) {
    if (count >= minReviews) return { decision: adopted.decision, views }
    return { decision: definition.panel.pending(context, adopted.decision, `${count} of ${minReviews} required reviews`, {}), views, wait: 'too-few-reviews' }
  }
  if (count === 0) return { decision: adopted.decision, views }
  const { reason, agreed, wait } = panelReason(views, minReviews)
  return { decision: definition.panel.pending(context, adopted.decision, reason, agreed), views, wait }
}

/** Why a case with independent reviews and no adopted review is pending, and what its reviewers agree on. */
export function panelReason(views: readonly ReviewerView[], minReviews: number): { reason: string; agreed: Record<string, PanelItem>; wait: PanelWait } {
  const { agreed, disagreements, unsettled } = compareViews(views)
  if (views.length < minReviews) return { reason: `${views.length} of ${minReviews} required reviews`, agreed, wait: 'too-few-reviews' }
  if (disagreements.length > 0) {
    return {
      reason: `reviewers disagree on ${disagreements.map(({ item, shown }) => `${item} (${shown.map(([reviewer, value]) => `${reviewer}: ${value}`).join(', ')})`).join('; ')}`,
      agreed,
      wait: 'disagreement',
    }
  }
  if (unsettled.length > 0) return { reason: `uncertain on ${unsettled.join(', ')} (${views.map((view) => view.reviewer).join(', ')})`, agreed, wait: 'uncertain' }
  return { reason: views.length === 1 ? '1 review, not adopted yet' : `${views.length} reviews agree, not adopted yet`, agreed, wait: 'not-adopted' }
}

/** Whether every reviewer judged every item alike and none is unsettled: a case `adjudicate --consensus` may adopt. */
export function isConsensus(views: readonly ReviewerView[]): boolean {
  const { disagreements, unsettled } = compareViews(views)
  return views.length >= 2 && disagreements.length === 0 && unsettled.length === 0 && views.every((view) => view.decision.status !== 'refused')
}

function compareViews(views: readonly ReviewerView[]): {
  agreed: Record<string, PanelItem>
  disagreements: { item: string; shown: [string, string][] }[]
  unsettled: string[]
} {
  const items: string[] = []
  for (const view of views) for (const item of Object.keys(view.items)) if (!items.includes(item)) items.push(item)
  const agreed: Record<string, PanelItem> = {}
  const disagreements: { item: string; shown: [string, string][] }[] = []
  const unsettled: string[] = []
  for (const item of items) {
    const shown = views.map((view): [string, string] => [view.reviewer, Object.hasOwn(view.items, item) ? view.items[item]!.shown : 'not judged'])
    if (new Set(shown.map(([, value]) => value)).size > 1) {
      disagreements.push({ item, shown })
      continue
    }
    const first = views[0]!.items[item]!
    agreed[item] = first
    if (!views.every((view) => view.items[item]!.settled)) unsettled.push(item)
  }
  return { agreed, disagreements, unsettled }
}

/** The refusal of a case whose adoption no longer matches the reviews it resolved, or the review it adopted. */
function staleAdoption(entry: CaseEntry, adoptedReviews: Readonly<Record<string, ReviewEntry>> | undefined, panel: Panel, site: AssessSite): RefusedDecision | undefined {
  const adoptions = panel.adoptions.get(entry.id)
  if (adoptions === undefined) return undefined
  const file = panel.adjudications!.display
  for (const adoption of Object.values(adoptions)) {
    const problems: { summary: string; path: (string | number)[]; expected?: string; found?: string }[] = []
    const adopted = adoptedReviews?.[adoption.slot]
    const now = adopted === undefined ? undefined : fingerprintOrNull(adopted.value)
    if (now !== adoption.reviewSha256) {
      problems.push({
        summary: adopted === undefined ? `the adopted review is no longer in ${site.annotationsFile}.` : `the adopted review changed since ${adoption.adjudicator} adjudicated it.`,
        path: [...adoption.path, 'review_sha256'],
        expected: now ?? 'nothing (no review now)',
        found: adoption.reviewSha256,
      })
    }
    for (const [reviewer, recorded] of Object.entries(adoption.resolved)) {
      const review = panel.reviews.get(entry.id)?.get(reviewer)?.[adoption.slot]
      const current = review === undefined ? undefined : fingerprintOrNull(review.value)
      if (current === recorded) continue
      problems.push({
        summary:
          review === undefined
            ? `the adoption resolved ${reviewer}'s review ${shortHash(recorded)}, which no longer exists.`
            : `the adoption resolved ${reviewer}'s review ${shortHash(recorded)}, which changed since (now ${current === undefined ? 'unreadable' : shortHash(current)}).`,
        path: [...adoption.path, 'resolved', reviewer],
        found: recorded,
      })
    }
    const [first, ...rest] = problems
    if (first === undefined) continue
    const error = new BindingError({
      code: 'ADOPTION_STALE',
      file,
      path: first.path,
      caseId: entry.id,
      summary: first.summary,
      expected: first.expected,
      found: first.found,
      hint: `adjudicate the case again (vitest-rubric adjudicate ${dirname(file)} --case ${entry.id}): an adoption stands only for the reviews it resolved.`,
      also: rest.map((problem) => `${formatLocation(file, problem.path)}: ${problem.summary}`),
    })
    return { status: 'refused', id: entry.id, split: entry.split, reason: error.summary, error: error.toJSON() }
  }
  return undefined
}

function fingerprintOrNull(value: unknown): string | undefined {
  try {
    return fingerprint(value)
  } catch (error) {
    if (error instanceof CanonicalJsonError) return undefined
    throw error
  }
}
