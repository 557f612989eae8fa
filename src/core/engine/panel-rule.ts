import { dirname } from 'node:path'
import { BindingError, CanonicalJsonError, type SerializedRubricError } from '../common/errors.js'
import { formatLocation } from '../common/json-path.js'
import { fingerprint } from '../json/canonical-json.js'
import { shortSha as shortHash, plural, own } from '../common/primitives.js'
import { assessEntry, type AssessSite, type CaseAssessment, type PanelWait } from './assess.js'

export type { PanelWait } from './assess.js'
import { shellWord } from './bindings.js'
import type { Decision } from '../contract/decision.js'
import type { CaseEntry, ReviewEntry } from './entries.js'
import { slotOptionOf } from './slot-option.js'
import type { KindContext, KindDefinition, PanelItem, SomeKindDefinition } from '../contract/kind.js'
import { ADJUDICATIONS_FILE, type Panel } from './panel.js'

/** What the several-reviewer rule asks of every case. */
export interface PanelPolicy {
  /** Independent reviews a case needs before it can be decided; 0 for no minimum. */
  readonly minReviews: number
}

export const NO_PANEL_POLICY: PanelPolicy = { minReviews: 0 }

/** One reviewer's independent review of a case: the decision it alone gives, and what it says of each item. */
export interface ReviewerView<D extends Decision = Decision> {
  readonly reviewer: string
  readonly decision: D
  readonly items: Readonly<Record<string, PanelItem>>
}

/** Each reviewer's independent review of a case, checked like any review: bound to the case's answer, source and rubric. */
export function reviewerViews<R, C, V, D extends Decision, S>(
  definition: KindDefinition<R, C, V, D, S>,
  context: KindContext<R>,
  entry: CaseEntry,
  panel: Pick<Panel, 'reviews' | 'files'>,
  casesFile: string,
): ReviewerView<D>[] {
  const byReviewer = panel.reviews.get(entry.id)
  if (byReviewer === undefined) return []
  return [...byReviewer].map(([reviewer, reviews]) => {
    const site: AssessSite = { casesFile, annotationsFile: own(panel.files, reviewer)!.display }
    const decision = assessEntry(definition, context, entry, reviews, site, undefined, { reviewRowsOnly: true }).decision
    return { reviewer, decision, items: definition.panel.items(context, decision) }
  })
}

/**
 * The decision of a case under several reviewers. Once a case has independent reviews, only an
 * adopted review recorded as an adoption (in `adjudications.json`) decides it; independent reviews
 * never do by themselves, and neither does a review written to `annotations.json` directly. A
 * refused independent review refuses the case, as any stale or malformed review does. An adoption
 * stands for the reviews it resolved: a review added or changed since reopens the case (pending,
 * naming the review), and an adopted review changed by hand or a resolved review withdrawn refuses
 * it (`ADOPTION_STALE`). While the case is reopened or not adjudicated, the adopted review and the
 * case's own file hashes wait for the adjudication that re-makes them: only a defect of the case
 * itself refuses it then. A case with too few independent reviews is pending too; every reason
 * says why: the reviewers disagree (and how), are uncertain, or agree and wait for adoption.
 */
export function decideWithPanel<R, C, V, D extends Decision, S>(
  definition: KindDefinition<R, C, V, D, S>,
  context: KindContext<R>,
  entry: CaseEntry,
  adopted: CaseAssessment<D>,
  adoptedReviews: Readonly<Record<string, ReviewEntry>> | undefined,
  panel: Panel,
  site: AssessSite,
  policy: PanelPolicy,
): { readonly decision: D; readonly views: readonly ReviewerView<D>[]; readonly wait?: PanelWait } {
  const views = reviewerViews(definition, context, entry, panel, site.casesFile)
  const count = views.length
  const { minReviews } = policy
  const hasAdopted = adoptedReviews !== undefined && Object.keys(adoptedReviews).length > 0
  const adoptions = panel.adoptions.get(entry.id)
  if (count === 0 && adoptions === undefined) {
    if (!hasAdopted || count >= minReviews || adopted.decision.status === 'refused') return { decision: adopted.decision, views }
    return {
      decision: definition.panel.pending(context, adopted.decision, `${count} of ${plural(minReviews, 'required review')}`, {}),
      views,
      wait: 'too-few-reviews',
    }
  }
  const state = adoptionState(definition, entry, adoptedReviews, panel, site)
  // Slots with independent reviews whose adoption is missing or reopened: the adjudication to come re-makes their adopted review.
  const open = state.unadjudicated.length > 0 || state.reopened.length > 0
  const bindingCodes = new Set(definition.bindings.map((row) => row.code))
  const caseDefect = adopted.caseProblems.some((problem) => !bindingCodes.has(problem.code))
  if (adopted.decision.status === 'refused' && (!open || caseDefect)) return { decision: adopted.decision, views }
  const refusedView = views.find((view) => view.decision.status === 'refused')
  if (refusedView !== undefined) return { decision: refusedView.decision, views }
  if (state.refusal !== undefined) return { decision: definition.panel.refuse(context, adopted.decision, state.refusal), views }

  if (!open && hasAdopted) {
    // A review that judges nothing counts as none toward the minimum.
    const judging = views.filter((view) => !judgesNothing(view)).length
    if (judging >= minReviews) return { decision: adopted.decision, views }
    return {
      decision: definition.panel.pending(context, adopted.decision, `${judging} of ${plural(minReviews, 'required review')}`, {}),
      views,
      wait: 'too-few-reviews',
    }
  }
  if (count === 0) return { decision: adopted.decision, views }
  const { reason, agreed, wait } = panelReason(views, minReviews)
  const { slots } = definition.reviews
  const command = (slot: string) =>
    `\`vitest-rubric adjudicate ${shellWord(context.dir)} --case ${shellWord(entry.id)}${slots.length === 1 ? '' : ` --${slotOptionOf(definition)} ${slot}`} --adjudicator <name>\``
  // The reviewers' views compare the deciding slot's reviews: a reason about another slot says only what that slot waits for.
  const direct = state.unadjudicated.find((slot) => adoptedReviews?.[slot] !== undefined)
  const why =
    state.reopened.length > 0
      ? `${state.reopened.join(', ')}; adjudicate again (${command(state.reopenedSlot ?? slots[0])}): ${reason}`
      : direct !== undefined
        ? `${definition.reviews.slotName(direct).replace(/^an? /, 'the ')} in ${site.annotationsFile} was not adopted by an adjudication, and an adoption decides a case with independent reviews: run ${command(direct)}${direct === slots[0] ? `; ${reason}` : ''}`
        : reason
  return { decision: definition.panel.pending(context, adopted.decision, why, agreed), views, wait }
}

/** Why a case with independent reviews and no adopted review is pending, and what its reviewers agree on. */
export function panelReason(views: readonly ReviewerView[], minReviews: number): { reason: string; agreed: Record<string, PanelItem>; wait: PanelWait } {
  // A review that judges nothing (recorded before such a review was refused, or edited by hand) is read, and named, but counts as none.
  const empty = views.filter(judgesNothing)
  if (empty.length > 0) {
    const note = `${empty.length === 1 ? 'the review judges' : 'the reviews judge'} nothing (${empty.map((view) => view.reviewer).join(', ')}), so ${empty.length === 1 ? 'it counts' : 'they count'} as no review: review the case again as ${empty.length === 1 ? 'that reviewer' : 'each of them'} (--reviewer <name> --replace)`
    const judging = views.filter((view) => !judgesNothing(view))
    if (judging.length === 0)
      return { reason: minReviews > 0 ? `0 of ${plural(minReviews, 'required review')}; ${note}` : note, agreed: {}, wait: 'too-few-reviews' }
    const rest = panelReason(judging, minReviews)
    return { ...rest, reason: `${rest.reason}; ${note}` }
  }
  const { agreed, disagreements, unsettled } = compareViews(views)
  if (views.length < minReviews) return { reason: `${views.length} of ${plural(minReviews, 'required review')}`, agreed, wait: 'too-few-reviews' }
  if (disagreements.length > 0) {
    return {
      reason: `reviewers disagree on ${disagreements.map(({ item, shown }) => `${item} (${shown.map(([reviewer, value]) => `${reviewer}: ${value}`).join(', ')})`).join('; ')}`,
      agreed,
      wait: 'disagreement',
    }
  }
  if (unsettled.length > 0)
    return { reason: `uncertain on ${unsettled.join(', ')} (${views.map((view) => view.reviewer).join(', ')})`, agreed, wait: 'uncertain' }
  // One review agrees with nothing: `adjudicate --consensus` adopts two or more, so it waits for a person's adoption or a second review.
  if (views.length === 1) return { reason: '1 review, not adopted yet', agreed, wait: 'one-review' }
  return { reason: `${views.length} reviews agree, not adopted yet`, agreed, wait: 'not-adopted' }
}

/** Whether an independent review, not refused, judges no item at all: an empty review, which counts as none. */
export function judgesNothing(view: ReviewerView): boolean {
  return view.decision.status !== 'refused' && Object.keys(view.items).length === 0
}

/** The items (criteria, dimensions) the reviewers of a case judged differently, in the order of their reviews: names only, never the ratings. */
export function disagreeingItems(views: readonly ReviewerView[]): string[] {
  // A review that judges nothing counts as none: it disagrees with nobody.
  return compareViews(views.filter((view) => !judgesNothing(view))).disagreements.map(({ item }) => item)
}

/** Whether every reviewer judged every item alike, at least one item, and none is unsettled: a case `adjudicate --consensus` may adopt. */
export function isConsensus(views: readonly ReviewerView[]): boolean {
  const { agreed, disagreements, unsettled } = compareViews(views)
  return (
    views.length >= 2 &&
    Object.keys(agreed).length > 0 &&
    disagreements.length === 0 &&
    unsettled.length === 0 &&
    views.every((view) => view.decision.status !== 'refused')
  )
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

/** Where a case's adoptions stand against its independent reviews and its adopted review. */
interface AdoptionState {
  /** The refusal of an adoption whose adopted review changed by hand, or whose resolved review was withdrawn. */
  readonly refusal?: { readonly reason: string; readonly error: SerializedRubricError }
  /** What reopened an adoption: `carol reviewed after the adoption`, `bob's review changed after the adoption`. */
  readonly reopened: readonly string[]
  /** The slot of the first adoption reopened. */
  readonly reopenedSlot?: string
  /** The slots with independent reviews and no adoption. */
  readonly unadjudicated: readonly string[]
}

/** How a case's adoptions stand: current, reopened by a review added or changed since, or refused. */
function adoptionState(
  definition: SomeKindDefinition,
  entry: CaseEntry,
  adoptedReviews: Readonly<Record<string, ReviewEntry>> | undefined,
  panel: Panel,
  site: AssessSite,
): AdoptionState {
  const byReviewer = panel.reviews.get(entry.id)
  const adoptions = panel.adoptions.get(entry.id) ?? {}
  const reviewedSlots = definition.reviews.slots.filter((slot) => [...(byReviewer?.values() ?? [])].some((reviews) => reviews[slot] !== undefined))
  const unadjudicated = reviewedSlots.filter((slot) => adoptions[slot] === undefined)
  const reopened: string[] = []
  let reopenedSlot: string | undefined
  const file = panel.adjudications?.display ?? ADJUDICATIONS_FILE
  for (const adoption of Object.values(adoptions)) {
    const problems: { summary: string; path: (string | number)[]; expected?: string; found?: string }[] = []
    const adopted = adoptedReviews?.[adoption.slot]
    const now = adopted === undefined ? undefined : fingerprintOrNull(adopted.value)
    if (now !== adoption.reviewSha256) {
      problems.push({
        summary:
          adopted === undefined
            ? `the adopted review is no longer in ${site.annotationsFile}.`
            : `the adopted review changed since ${adoption.adjudicator} adjudicated it.`,
        path: [...adoption.path, 'review_sha256'],
        expected: now ?? 'nothing (no review now)',
        found: adoption.reviewSha256,
      })
    }
    for (const [reviewer, recorded] of Object.entries(adoption.resolved)) {
      const review = byReviewer?.get(reviewer)?.[adoption.slot]
      if (review !== undefined) {
        if (fingerprintOrNull(review.value) !== recorded) reopened.push(`${reviewer}'s review changed after the adoption`)
        continue
      }
      problems.push({
        summary: `the adoption resolved ${reviewer}'s review ${shortHash(recorded)}, which no longer exists.`,
        path: [...adoption.path, 'resolved', reviewer],
        found: recorded,
      })
    }
    for (const [reviewer, reviews] of byReviewer ?? []) {
      if (reviews[adoption.slot] !== undefined && !Object.hasOwn(adoption.resolved, reviewer)) reopened.push(`${reviewer} reviewed after the adoption`)
    }
    if (reopened.length > 0) reopenedSlot ??= adoption.slot
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
      hint: `adjudicate the case again (vitest-rubric adjudicate ${shellWord(dirname(file))} --case ${shellWord(entry.id)}${definition.reviews.slots.length === 1 ? '' : ` --${slotOptionOf(definition)} ${adoption.slot}`} --adjudicator <name>): an adoption stands only for the reviews it resolved.`,
      also: rest.map((problem) => `${formatLocation(file, problem.path)}: ${problem.summary}`),
    })
    return { refusal: { reason: error.summary, error: error.toJSON() }, reopened, unadjudicated }
  }
  return reopenedSlot === undefined ? { reopened, unadjudicated } : { reopened, reopenedSlot, unadjudicated }
}

function fingerprintOrNull(value: unknown): string | undefined {
  try {
    return fingerprint(value)
  } catch (error) {
    if (error instanceof CanonicalJsonError) return undefined
    throw error
  }
}
