/**
 * The review queue: which cases a person should look at next, in one order, each with why. It reads
 * what `status` finds for each case (its groups are the classification) and adds the sample, the
 * criteria reviewers disagree on and the reviews stale after an edit. It never shows a rating.
 */
import type { SampledCase, SampleFile } from '../sample/sample-file.js'
import { assessEntry } from './assess.js'
import { isStale } from './bindings.js'
import type { DecidedWithStates, EvaluateOptions } from './evaluate.js'
import { kindContext, type CaseEntry, type ReviewEntry, type SomeFixture } from './fixture.js'
import { disagreeingItems, judgesNothing, reviewerViews } from './panel-rule.js'
import { statusReading, type CaseFinding } from './status.js'
import { NO_HISTORY } from './fixture-history.js'
import { own } from '../common/primitives.js'

/**
 * Why a case is in the queue, in the order the queue lists them (a case is listed once, for the
 * first reason that applies):
 * 1. `sampled`: drawn for review (`sample.json`) and pending for lack of a review;
 * 2. `disagreement`: independent reviewers disagree on the named criteria;
 * 3. `adjudication`: independent reviews wait for an adoption (they agree, or agree but are uncertain);
 * 4. `stale`: a review is refused because the answer, source or rubric changed since it was made;
 * 5. `unreviewed`: pending with no review (or fewer independent reviews than required);
 * 6. `unsettled`: pending on a review that is incomplete or uncertain, or that leaves the case to a person
 *    (in the records layout, a case revised apart, until `resolve` keeps one revision).
 */
export const QUEUE_REASONS = ['sampled', 'disagreement', 'adjudication', 'stale', 'unreviewed', 'unsettled'] as const
export type QueueReason = (typeof QUEUE_REASONS)[number]

/** One case in the queue. */
export interface QueueEntry {
  readonly caseId: string
  readonly reason: QueueReason
  /** One line: what to do or what it waits for, naming no rating. */
  readonly detail: string
  /** For `disagreement`, the criteria the reviewers rated differently; empty otherwise. */
  readonly criteria: readonly string[]
  /** For `stale`, the refusal codes (`REVIEW_ANSWER_STALE`, …); empty otherwise. */
  readonly codes: readonly string[]
}

/** Whose queue it is: everyone's, one reviewer's (blind: only what they can act on) or an adjudicator's. */
export type QueueFor = { readonly reviewer: string } | { readonly adjudicator: string } | undefined

/** Options of {@link reviewQueue}. */
export interface ReviewQueueOptions {
  /** The fixture's `sample.json`, when it has one. */
  readonly sample?: SampleFile | undefined
  /** Whose queue: a reviewer's skips what they reviewed and what waits for an adjudicator. @default everyone's */
  readonly for?: QueueFor
  /** The several-reviewer rule, as `status --min-reviews` takes it. */
  readonly panel?: EvaluateOptions['panel']
  /** The fixture's evaluation under `panel`, when the caller holds it: the queue then decides no case again. */
  readonly decided?: DecidedWithStates | undefined
}

export interface ReviewQueue {
  readonly fixture: string
  readonly name: string
  /** Every entry, in queue order. */
  readonly entries: readonly QueueEntry[]
  /** How many entries have each reason. */
  readonly counts: Readonly<Record<QueueReason, number>>
}

/** The `status` groups that leave a case pending for lack of a review. */
const WANTS_REVIEW = new Set(['unreviewed', 'too-few-reviews'])
/** The panel's waits an adjudication ends (besides a disagreement). */
const WANTS_ADOPTION = new Set(['not-adopted', 'one-review', 'uncertain'])

/** The ordered review queue of a fixture. */
export function reviewQueue(fixture: SomeFixture, options: ReviewQueueOptions = {}): ReviewQueue {
  // A judge's stale label is no review work: the queue reads the status without the judges.
  const status = statusReading(fixture, options.panel === undefined ? {} : { panel: options.panel }, NO_HISTORY, { decided: options.decided, judges: false })
  const reading = queueReading(fixture, options)
  const entries: QueueEntry[] = []
  fixture.cases.forEach((entry, index) => {
    const found = queueEntryOf(reading, entry, status.cases[index]!.findings)
    if (found !== undefined) entries.push(found)
  })
  // Cast: Object.fromEntries types its keys as strings; they are the QUEUE_REASONS, every one of them.
  const counts = Object.fromEntries(QUEUE_REASONS.map((reason) => [reason, entries.filter((each) => each.reason === reason).length])) as Record<
    QueueReason,
    number
  >
  // A stable sort: by reason, then in the order of the cases.
  entries.sort((a, b) => QUEUE_REASONS.indexOf(a.reason) - QUEUE_REASONS.indexOf(b.reason))
  return { fixture: fixture.displayDir, name: fixture.name, entries, counts }
}

/** What the queue reads of a fixture beside each case's findings: whose queue, the groups that keep a case pending, the sample. */
export interface QueueReading {
  readonly fixture: SomeFixture
  readonly who: QueueFor
  readonly pendingGroups: ReadonlySet<string>
  readonly staleGroups: readonly string[]
  /** Each sampled case's draw, and what the judge was uncertain of when the design drew by it. */
  readonly sampled: ReadonlyMap<string, { readonly draw: number; readonly uncertain: string }>
}

/** The {@link QueueReading} of a fixture for `options.for`, with `options.sample`. */
export function queueReading(fixture: SomeFixture, options: Pick<ReviewQueueOptions, 'sample' | 'for'>): QueueReading {
  return {
    fixture,
    who: options.for,
    pendingGroups: new Set([
      'disagreement',
      'not-adopted',
      'one-review',
      'too-few-reviews',
      'uncertain',
      ...Object.keys(fixture.definition.present.pendingGroups),
    ]),
    staleGroups: Object.keys(fixture.definition.targets).map((target) => `stale-${target}`),
    sampled: new Map((options.sample?.cases ?? []).map((each) => [each.id, { draw: each.draw, uncertain: judgeUncertainty(each.least_sure) }])),
  }
}

/** The queue's entry of one case, from its `status` findings as the queue reads them; `undefined` when the case is not in this queue. */
export function queueEntryOf(reading: QueueReading, entry: CaseEntry, findings: readonly CaseFinding[]): QueueEntry | undefined {
  const { fixture, who, pendingGroups } = reading
  const groups = new Set(findings.map((finding) => finding.group))
  const found = (keys: ReadonlySet<string>) => findings.find((finding) => keys.has(finding.group))
  const panelReviews = fixture.panel.reviews.get(entry.id)
  const sampled = reading.sampled.get(entry.id)
  const drawn = sampled === undefined ? '' : `drawn in draw ${sampled.draw + 1}${sampled.uncertain}; `
  const pending = [...groups].some((group) => pendingGroups.has(group))
  // `status` lists every stale review under its target's group: only then is a review checked again, to say whose it is.
  const anyStale = reading.staleGroups.some((group) => groups.has(group))
  // Independent reviews that differ, on a pending case: also when the panel rule first waits for more reviews.
  const criteria = pending && (panelReviews?.size ?? 0) >= 2 ? disagreeing(fixture, entry) : []
  const listed = (reason: QueueReason, detail: string, extra: Partial<Pick<QueueEntry, 'criteria' | 'codes'>> = {}): QueueEntry => ({
    caseId: entry.id,
    reason,
    detail,
    criteria: extra.criteria ?? [],
    codes: extra.codes ?? [],
  })

  if (who !== undefined && 'reviewer' in who) {
    const mine = panelReviews?.get(who.reviewer)
    // A review that judges nothing counts as none: the case is theirs to review again.
    if (mine !== undefined && pending && judgesNothingBy(fixture, entry, who.reviewer))
      return listed('unreviewed', 'your review judges nothing, so it counts as no review: review the case again (--replace)')
    if (mine !== undefined) {
      // Their own review only: another reviewer's stale review is not theirs to revise, and naming it would tell them it exists.
      const stale = anyStale ? staleOf(fixture, entry, mine, own(fixture.panel.files, who.reviewer)!.display) : []
      return stale.length > 0 ? listed('stale', staleDetail(stale, 'your review'), { codes: codesOf(stale) }) : undefined
    }
    if (!pending) return undefined
    const yours = `not reviewed by ${who.reviewer}`
    if (sampled !== undefined) return listed('sampled', `${drawn}${yours}`)
    if (criteria.length > 0) return listed('disagreement', `on ${criteria.join(', ')}; ${yours}`, { criteria })
    return listed('unreviewed', yours)
  }

  const wantsReview = found(WANTS_REVIEW)
  if (who === undefined && sampled !== undefined && wantsReview !== undefined) return listed('sampled', `${drawn}${wantsReview.detail}`)
  if (criteria.length > 0) return listed('disagreement', `on ${criteria.join(', ')}`, { criteria })
  const adoption = panelReviews === undefined ? undefined : found(WANTS_ADOPTION)
  if (adoption !== undefined) return listed('adjudication', adoption.detail)
  if (who !== undefined) return undefined
  const stale = anyStale ? staleReviews(fixture, entry) : []
  if (stale.length > 0)
    return listed('stale', stale.map(({ author, fields }) => staleDetail(fields, author)).join('; '), { codes: codesOf(stale.flatMap(({ fields }) => fields)) })
  if (wantsReview !== undefined) return listed('unreviewed', wantsReview.detail)
  // A case revised apart waits for a person to keep one revision (`resolve`): no reviewer's work until then.
  const unsettled = findings.find((finding: CaseFinding) => pendingGroups.has(finding.group) || finding.group === 'forked')
  return unsettled === undefined ? undefined : listed('unsettled', unsettled.detail)
}

/** Whether `reviewer`'s independent review of the case judges nothing. */
function judgesNothingBy(fixture: SomeFixture, entry: CaseEntry, reviewer: string): boolean {
  const view = reviewerViews(fixture.definition, kindContext(fixture), entry, fixture.panel, fixture.files.cases.display).find(
    (each) => each.reviewer === reviewer,
  )
  return view !== undefined && judgesNothing(view)
}

/** The criteria a case's independent reviewers rated differently. */
function disagreeing(fixture: SomeFixture, entry: CaseEntry): string[] {
  return disagreeingItems(reviewerViews(fixture.definition, kindContext(fixture), entry, fixture.panel, fixture.files.cases.display))
}

type StaleField = ReturnType<typeof staleOf>[number]

/** The review-bound hashes of one review that no longer match the files: each names its code and what changed. */
function staleOf(fixture: SomeFixture, entry: CaseEntry, reviews: Readonly<Record<string, ReviewEntry>>, file: string) {
  const site = { casesFile: fixture.files.cases.display, annotationsFile: file }
  const { states } = assessEntry(fixture.definition, kindContext(fixture), entry, reviews, site, undefined, { reviewRowsOnly: true, allStates: true })
  return states.filter((state) => state.row.in === 'review' && isStale(state))
}

/**
 * A case's stale reviews, by author: each independent reviewer's, then the review in the
 * annotations when no independent review stands behind it (an adopted review's staleness is its
 * adjudication's, which `status` lists).
 */
function staleReviews(fixture: SomeFixture, entry: CaseEntry): { author: string; fields: StaleField[] }[] {
  const found: { author: string; fields: StaleField[] }[] = []
  for (const [reviewer, reviews] of fixture.panel.reviews.get(entry.id) ?? []) {
    const fields = staleOf(fixture, entry, reviews, own(fixture.panel.files, reviewer)!.display)
    if (fields.length > 0) found.push({ author: `${reviewer}'s review`, fields })
  }
  const reviews = fixture.reviews.get(entry.id)
  if (reviews !== undefined && !fixture.panel.reviews.has(entry.id) && !fixture.panel.adoptions.has(entry.id)) {
    const fields = staleOf(fixture, entry, reviews, fixture.files.annotations?.display ?? 'annotations.json')
    if (fields.length > 0) found.push({ author: 'the review', fields })
  }
  return found
}

function codesOf(fields: readonly StaleField[]): string[] {
  return [...new Set(fields.map((state) => state.row.code))]
}

/** `alice's review: answer changed (REVIEW_ANSWER_STALE)`, once per code. */
function staleDetail(fields: readonly StaleField[], author: string): string {
  const seen = new Map<string, string>()
  for (const state of fields) if (!seen.has(state.row.code)) seen.set(state.row.code, `${state.row.target} changed (${state.row.code})`)
  return `${author}: ${[...seen.values()].join(', ')}`
}

/**
 * Why a design drawn by the judge's confidence drew the case, as the sample recorded it:
 * `, the judge is uncertain: support, confidence 0.55`; empty for other designs.
 */
function judgeUncertainty(leastSure: SampledCase['least_sure']): string {
  if (leastSure === undefined) return ''
  if (leastSure.criterion === null) return ', the judge is uncertain: no current label by it'
  const confidence = leastSure.confidence === null ? 'no confidence' : `confidence ${leastSure.confidence}`
  return `, the judge is uncertain: ${leastSure.criterion}, ${confidence}`
}
