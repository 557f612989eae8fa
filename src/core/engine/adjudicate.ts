import { refuseForkedCase } from './records-view.js'
import { RevisionError, UsageError } from '../common/errors.js'
import { quoteSome, own } from '../common/primitives.js'
import { fingerprint } from '../json/canonical-json.js'
import { kindContext } from './fixture.js'
import type { KindRegistry } from './registry.js'
import { checkReviewer } from './authoring/authors.js'
import { describe } from './authoring/messages.js'
import { drafted, type DraftSource } from './authoring/draft.js'
import { reviewTarget, type ReviewTarget } from './authoring/target.js'
import { stamp } from './authoring/stamp.js'
import { writeReviews, type ReviewWrite } from './authoring/write.js'
import type { AuthoringOptions } from './authoring/options.js'
import { isConsensus, judgesNothing, panelReason, reviewerViews, type ReviewerView } from './panel-rule.js'
import { caseVersions, checkCaseVersions, type CaseVersions } from './case-versions.js'
import { FixtureRevision, reviseUnderLock, type RevisionBase } from './revision.js'

export interface AdjudicateOptions extends AuthoringOptions {
  readonly caseId: string
  readonly slot?: string | undefined
  /** Who adjudicates: recorded with the adoption. */
  readonly adjudicator: string
  /** Start from one reviewer's whole review. */
  readonly take?: string | undefined
  /** Take each item (criterion) from the reviewer named. */
  readonly picks?: Readonly<Record<string, string>>
  /** Judgements the adjudicator writes, over what was taken and picked (a draft of the kind). */
  readonly written?: Readonly<Record<string, unknown>>
  /** The case's entries as the adjudicator was shown them: the adoption is refused when one changed since (see `caseVersions`). */
  readonly expected?: CaseVersions | undefined
}

export interface Adjudicated {
  readonly caseId: string
  readonly slot: string
  /** The reviewers whose reviews the adoption resolved. */
  readonly resolved: readonly string[]
  readonly after: Readonly<Record<string, string>>
  /** The case's decision once adopted. */
  readonly decision: string
  /**
   * Whether the slot adopted is the one that decides the case (a scored case's debate review); an
   * adopted review of another slot (its baseline) decides nothing by itself.
   */
  readonly decides: boolean
}

export interface AdjudicationResult {
  readonly dir: string
  readonly adopted: readonly Adjudicated[]
  /** With `--consensus`: the cases with independent reviews left for a person to adjudicate, and why. */
  readonly left: readonly { readonly id: string; readonly reason: string }[]
  readonly written: readonly string[]
}

/** What an adjudicator sees of a case: each independent review side by side, and what it alone decides. */
export interface AdjudicationView {
  readonly target: ReviewTarget
  readonly views: readonly ReviewerView[]
  /** Each reviewer's review as a draft of the kind (what they judged). */
  readonly drafts: Readonly<Record<string, Record<string, unknown>>>
  /** What the adoption replaces and resolves, as read: pass it back as `expected` when adjudicating later. */
  readonly versions: CaseVersions
  /** The automated judges' labels of the case (`judges/<judge>.json`): predictions to show beside the reviews, never adopted. */
  readonly predictions: readonly JudgePrediction[]
}

/** One automated judge's label of the case being adjudicated: a prediction, never a review. */
export interface JudgePrediction {
  readonly judge: string
  /** The judge file's `origin`. */
  readonly origin: string
  /** The label as a draft of the kind when it is current; `undefined` when it is stale or refused. */
  readonly draft: Record<string, unknown> | undefined
  /** Why the label is not shown, when it is not current. */
  readonly refused?: string
}

/** Opens a case for adjudication: it must have independent reviews. */
export async function openAdjudication(kinds: KindRegistry, dir: string, caseId: string, slot: string | undefined, cwd: string): Promise<AdjudicationView> {
  // Every record of a case (its reviews, labels and adoptions among them) is in its id's bucket.
  const { base } = await FixtureRevision.open(kinds, dir, cwd, undefined, [caseId])
  return adjudicationView(base, caseId, slot)
}

function adjudicationView(base: RevisionBase, caseId: string, slot: string | undefined): AdjudicationView {
  // The adjudication re-stamps the case's own hashes: a case bound to older files is adjudicated back onto the current ones.
  const target = reviewTarget(base, caseId, slot, undefined, undefined, true)
  const { fixture, definition, entry } = target
  refuseForkedCase(fixture, caseId)
  const bySlot = fixture.panel.reviews.get(caseId)
  // Only the reviewers of the slot adjudicated: a reviewer who never reviewed the baseline is not resolved by its adoption.
  const views = reviewerViews(definition, kindContext(fixture), entry, fixture.panel, fixture.files.cases.display).filter(
    (view) => bySlot?.get(view.reviewer)?.[target.slot] !== undefined,
  )
  if (views.length === 0) {
    const system = definition.reviews.slots.length === 1 ? '' : ` (${target.slot})`
    throw new RevisionError({
      code: 'CASE_NOT_FOUND',
      file: fixture.displayDir,
      caseId,
      summary: `case "${caseId}"${system} has no independent reviews to adjudicate; nothing was written.`,
      hint: `record them with \`vitest-rubric review ${fixture.displayDir} --case ${caseId} --reviewer <name>\`, or review the case directly without --reviewer.`,
    })
  }
  const refused = views.find((view) => view.decision.status === 'refused')
  if (refused !== undefined) {
    throw new RevisionError({
      code: 'BIND_STILL_REFUSED',
      file: own(fixture.panel.files, refused.reviewer)!.display,
      caseId,
      summary: `${refused.reviewer}'s review of the case is refused, so it cannot be adjudicated; nothing was written.\n${definition.present
        .refusals(refused.decision)
        .map((line) => `    ${line}`)
        .join('\n')}`,
      hint: `have ${refused.reviewer} review the case again (vitest-rubric review … --reviewer ${refused.reviewer} --replace).`,
    })
  }
  const drafts = Object.fromEntries(views.map((view) => [view.reviewer, definition.authoring.draftOf(bySlot!.get(view.reviewer)![target.slot]!.value)]))
  const labels = fixture.judges.reviews.get(caseId)
  const predictions = reviewerViews(definition, kindContext(fixture), entry, fixture.judges, fixture.files.cases.display).flatMap((view): JudgePrediction[] => {
    const label = labels?.get(view.reviewer)?.[target.slot]
    if (label === undefined) return []
    const origin = own(fixture.judges.files, view.reviewer)?.origin ?? ''
    return view.decision.status === 'refused'
      ? [{ judge: view.reviewer, origin, draft: undefined, refused: view.decision.reason }]
      : [{ judge: view.reviewer, origin, draft: definition.authoring.draftOf(label.value) }]
  })
  return { target, views, drafts, versions: caseVersions(fixture, caseId, [target.slot], { adjudication: true }), predictions }
}

/**
 * Adjudicates one case: the adopted review is made of what the adjudicator takes (one reviewer's
 * whole review), picks (an item from a reviewer) and writes, and is written to `annotations.json`
 * as any adopted review is. The adoption records every independent review it resolves, by
 * fingerprint, and who adjudicated, in `adjudications.json`: if one of those reviews changes later,
 * the adoption is stale and refused.
 */
export async function adjudicateCase(dir: string, options: AdjudicateOptions, source: DraftSource): Promise<AdjudicationResult> {
  return reviseUnderLock(dir, options.cwd, () => adjudicateCaseNow(dir, options, source))
}

async function adjudicateCaseNow(dir: string, options: AdjudicateOptions, source: DraftSource): Promise<AdjudicationResult> {
  const adjudicator = checkReviewer(options.adjudicator, '--adjudicator')
  const { revision, base } = await FixtureRevision.open(options.kinds, dir, options.cwd, options.memo, [options.caseId])
  const view = adjudicationView(base, options.caseId, options.slot)
  const { definition } = view.target
  if (options.expected !== undefined) checkCaseVersions(base.fixture, options.caseId, [view.target.slot], { adjudication: true }, options.expected)
  const reviewers = view.views.map((each) => each.reviewer)
  // A reviewer, or an item, that the fixture does not hold is a refusal of the data, not a malformed command line (exit 1, docs/cli.md).
  const known = (reviewer: string, option: string) => {
    if (reviewers.includes(reviewer)) return reviewer
    throw new RevisionError({
      code: 'DRAFT_INVALID',
      file: option,
      summary: `there is no review of case "${options.caseId}" by ${JSON.stringify(reviewer)}; nothing was written.`,
      expected: `one of the reviewers of the case: ${quoteSome(reviewers)}`,
      hint: 'name a reviewer who reviewed the case.',
    })
  }
  const draft: Record<string, unknown> = options.take === undefined ? {} : { ...view.drafts[known(options.take, '--take')] }
  const picks = Object.entries(options.picks ?? {})
  if (picks.length > 0 && !definition.authoring.draftByItem)
    throw new UsageError({
      code: 'USAGE',
      file: '--pick',
      summary: 'a review of this kind is adopted whole: pass --take <reviewer>, not --pick.',
      hint: "take one reviewer's review, then write what you change with --from.",
    })
  const items = definition.panel.order(view.target.context)
  const { item: itemWord } = definition.panel.words
  for (const [item, reviewer] of picks) {
    if (!items.includes(item)) {
      throw new RevisionError({
        code: 'DRAFT_INVALID',
        file: `--pick ${item}`,
        summary: `the rubric defines no ${itemWord} ${JSON.stringify(item)}; nothing was written.`,
        expected: `one of ${quoteSome(items)}`,
        found: JSON.stringify(item),
        hint: `name a ${itemWord} of the rubric (vitest-rubric show prints them).`,
      })
    }
    const from = view.drafts[known(reviewer, `--pick ${item}`)]!
    if (!Object.hasOwn(from, item)) {
      throw new RevisionError({
        code: 'DRAFT_INVALID',
        file: `--pick ${item}`,
        summary: `${reviewer} did not judge ${JSON.stringify(item)}; nothing was written.`,
        hint: 'pick the item from a reviewer who judged it, or write it yourself.',
      })
    }
    Object.defineProperty(draft, item, { value: from[item], enumerable: true, writable: true, configurable: true })
  }
  for (const [item, value] of Object.entries(options.written ?? {}))
    Object.defineProperty(draft, item, { value, enumerable: true, writable: true, configurable: true })
  if (Object.keys(draft).length === 0) {
    throw new UsageError({
      code: 'USAGE',
      file: 'vitest-rubric adjudicate',
      summary: 'the adjudication adopts nothing: take a review, pick judgements or write them.',
      hint: 'pass --take <reviewer>, --pick <criterion>=<reviewer>, or --rating/--reason/--span.',
    })
  }
  const write = adoptionWrite(base, view, draft, adjudicator, source)
  const { decisions, files } = await writeReviews(revision, base, [write], source, options)
  return { dir: base.fixture.displayDir, adopted: [adjudicated(write, reviewers, decisions[0]!)], left: [], written: files }
}

/**
 * Adopts, in one run, every case whose independent reviews (at least two, and at least
 * `minReviews`) all agree on every item with no uncertainty, and has no adopted review yet: the
 * adopted review is the first reviewer's (by name), the adoption resolves them all. Lists what it
 * adopted and what it left for a person.
 */
export async function adjudicateConsensus(
  dir: string,
  options: AuthoringOptions & { readonly adjudicator: string; readonly minReviews?: number },
  source: DraftSource,
): Promise<AdjudicationResult> {
  return reviseUnderLock(dir, options.cwd, () => adjudicateConsensusNow(dir, options, source))
}

async function adjudicateConsensusNow(
  dir: string,
  options: AuthoringOptions & { readonly adjudicator: string; readonly minReviews?: number },
  source: DraftSource,
): Promise<AdjudicationResult> {
  const adjudicator = checkReviewer(options.adjudicator, '--adjudicator')
  const { revision, base } = await FixtureRevision.open(options.kinds, dir, options.cwd, options.memo)
  const { fixture } = base
  const writes: ReviewWrite[] = []
  const reviewersOf: string[][] = []
  const left: { id: string; reason: string }[] = []
  for (const [index, entry] of fixture.cases.entries()) {
    if (!fixture.panel.reviews.has(entry.id)) continue
    const decision = base.assess(index).decision
    if (decision.status !== 'pending') continue
    const view = adjudicationViewOrNull(base, entry.id)
    if (view === null) continue
    const minReviews = options.minReviews ?? 0
    if (!isConsensus(view.views) || view.views.length < minReviews) {
      // Too few reviews under --min-reviews is the reason, as `evaluate --min-reviews` says it, whatever the reviews agree on.
      // Beside reviews that judge, one that judges nothing stands in the way: an adoption resolves every review of the case.
      const empty = view.views.filter(judgesNothing).map((each) => each.reviewer)
      const blocked =
        empty.length > 0 && empty.length < view.views.length
          ? `${empty.join(', ')} judged nothing, and an adoption resolves every review of the case: have ${empty.length === 1 ? 'that reviewer' : 'each of them'} review it again (--reviewer <name> --replace), or adopt one review with \`--case ${entry.id} --take <reviewer>\`; `
          : ''
      left.push({ id: entry.id, reason: blocked + (view.views.length < minReviews ? panelReason(view.views, minReviews).reason : decision.reason) })
      continue
    }
    const first = view.views[0]!.reviewer
    writes.push(adoptionWrite(base, view, view.drafts[first]!, adjudicator, source))
    reviewersOf.push(view.views.map((each) => each.reviewer))
  }
  if (writes.length === 0) return { dir: fixture.displayDir, adopted: [], left, written: [] }
  const { decisions, files } = await writeReviews(revision, base, writes, source, options)
  return { dir: fixture.displayDir, adopted: writes.map((write, index) => adjudicated(write, reviewersOf[index]!, decisions[index]!)), left, written: files }
}

function adjudicationViewOrNull(base: RevisionBase, caseId: string): AdjudicationView | null {
  try {
    // The slot that decides a case (a scored case's debate review); a kind with one slot has only it.
    return adjudicationView(base, caseId, base.fixture.definition.reviews.slots[0])
  } catch (error) {
    if (error instanceof RevisionError || error instanceof UsageError) return null
    throw error
  }
}

/** The adopted review made of a draft, and the adoption that records the reviews it resolves. */
function adoptionWrite(base: RevisionBase, view: AdjudicationView, draft: Record<string, unknown>, adjudicator: string, source: DraftSource): ReviewWrite {
  const { target } = view
  const { definition, context, entry, slot } = target
  const review = drafted(source, [], definition.authoring.reviewDraft(slot), draft, (parsed) =>
    definition.authoring.newReview(context, target.parsedCase, slot, parsed),
  )
  stamp(definition.bindings, 'review', review, context, entry.value, [slot])
  const { panel } = base.fixture
  const resolved = Object.fromEntries(
    view.views.map((each) => [each.reviewer, fingerprint(panel.reviews.get(entry.id)!.get(each.reviewer)![slot]?.value ?? null)]),
  )
  const adoption = { case_id: entry.id, slot, adjudicator, review_sha256: fingerprint(review), resolved }
  return { target: { ...target, existing: base.fixture.reviews.get(entry.id)?.[slot] }, review, destination: { adopted: true, adoption } }
}

function adjudicated(write: ReviewWrite, reviewers: readonly string[], decision: Parameters<typeof describe>[0]): Adjudicated {
  return {
    caseId: write.target.entry.id,
    slot: write.target.slot,
    resolved: reviewers,
    after: write.target.definition.authoring.summarizeReview(write.review),
    decision: describe(decision),
    decides: write.target.definition.reviews.slots[0] === write.target.slot,
  }
}

/** What keeps the reviewers of one criterion from agreeing: one left it unjudged, they rate it differently, or all left it undecided. */
export type Dispute = 'not judged by all' | 'disputed' | 'uncertain'

/**
 * Whether the reviewers' ratings of one criterion agree, as the adjudication views (terminal and
 * page) sort them: `undefined` when every reviewer gave the same settled rating, else what keeps
 * them from it. `undecided` is the kind's undecided rating (`uncertain`).
 */
export function disputeOf(ratings: readonly (string | undefined)[], undecided: string): Dispute | undefined {
  const distinct = new Set(ratings)
  if (distinct.has(undefined)) return 'not judged by all'
  if (distinct.size > 1) return 'disputed'
  return distinct.has(undecided) ? 'uncertain' : undefined
}
