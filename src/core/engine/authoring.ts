import { judgeOriginPlaceholder } from '../common/origin.js'
import { join } from 'node:path'
import { applyEdits, modify } from 'jsonc-parser'
import type { z } from 'zod'
import { preview, RevisionError, UsageError, type RubricErrorCode } from '../common/errors.js'
import { formatLocation, type PathSegment } from '../common/json-path.js'
import { isObject, parseJson, quoteSome, valueAt } from '../common/primitives.js'
import { fingerprint, NULL_FINGERPRINT } from '../json/canonical-json.js'
import { malformedStringPath } from '../json/literals.js'
import type { WriteIo } from '../json/atomic-write.js'
import type { ParseMemo } from './parse-memo.js'
import { appendToList, editJsonStrings, putListItem, topLevelListItems } from '../json/json-edit.js'
import { safeParseReporting, schemaProblem } from '../json/schema-error.js'
import { bindCommand, isStale, rowPath, shellWord, type BindingRow } from './bindings.js'
import type { Decision } from './decision.js'
import { kindContext, type SomeFixture } from './fixture.js'
import type { KindRegistry } from './registry.js'
import { slotOptionOf, type DraftProblem, type KindContext, type SomeKindDefinition } from './kind.js'
import { caseVersions, checkCaseVersions, type CaseVersions } from './case-versions.js'
import { FixtureRevision, reviseUnderLock, type RevisionBase } from './revision.js'
import { carriedOver, fixtureHistory, type CarriedOver } from './fixture-history.js'
import { ADJUDICATIONS_FILE, caseTwinOf, judgeFileDisplay, JUDGES_DIR, REVIEWER_NAME, reviewerName, REVIEWS_DIR } from './panel.js'
import { reviewerViews } from './panel-rule.js'

/**
 * Where a draft came from, so a problem is named as the user gave it: an option
 * (`--span verification`), a file and JSON path (`review.json › verification › answer_span`), or
 * a question a prompt asks again.
 */
export interface DraftSource {
  /** The whole draft: `the options`, `review.json`. */
  readonly label: string
  /** A place inside the draft. */
  readonly locate: (path: readonly PathSegment[]) => string
}

/** A draft read from a JSON file: its problems are named by the file and a JSON path. */
export function fileSource(display: string): DraftSource {
  return { label: display, locate: (path) => formatLocation(display, path) }
}

/** The common options of a command that writes a fixture. */
export interface AuthoringOptions {
  /** Paths in messages are shown relative to this directory. */
  readonly cwd: string
  /** The kinds the directory may hold: the registry of the front end that starts from it. */
  readonly kinds: KindRegistry
  /**
   * Work out and check the change, write nothing.
   * @default false
   */
  readonly dryRun?: boolean
  /** @internal the filesystem calls of the write, replaced in tests */
  readonly io?: WriteIo
  /**
   * @internal what a long-lived front end (the page's server) parsed of the fixture already, by
   * the bytes of each file: the revision parses only the files whose bytes differ.
   */
  readonly memo?: ParseMemo
}

/** A case `addCases` added, with its decision. */
export interface AddedCase {
  readonly id: string
  /** `pending (no review)`. */
  readonly decision: string
}

/** What `addCases` did: the cases added and the files written. */
export interface AddResult {
  readonly dir: string
  readonly added: readonly AddedCase[]
  /** The files written: none under `dryRun`. */
  readonly written: readonly string[]
}

/**
 * Adds cases to a fixture's `cases.json`, each from a draft of its kind (for a criteria fixture:
 * id, answer, citation, and optionally split and question). Every `expected` hash is stamped from
 * the binding table, so a new case is decided at once (pending: it has no review yet). A draft
 * that does not fit, an id already taken, or a case that would be refused refuses the whole
 * call, and nothing is written.
 */
export async function addCases(dir: string, drafts: readonly unknown[], source: DraftSource, options: AuthoringOptions): Promise<AddResult> {
  return reviseUnderLock(dir, options.cwd, () => addCasesNow(dir, drafts, source, options))
}

async function addCasesNow(dir: string, drafts: readonly unknown[], source: DraftSource, options: AuthoringOptions): Promise<AddResult> {
  // Every record of a case is in its id's bucket: a duplicate id is found among the buckets of the ids added.
  const ids = drafts.map((draft) => (isObject(draft) && typeof draft['id'] === 'string' ? draft['id'] : undefined))
  const scope = ids.every((id) => id !== undefined) ? ids : undefined
  const { revision, base } = await FixtureRevision.open(options.kinds, dir, options.cwd, options.memo, scope, true)
  const { fixture } = base
  const definition = fixture.definition
  const context = kindContext(fixture)
  if (drafts.length === 0) throw draftError(source, [], 'there is no case to add.', 'give at least one case.')
  const taken = new Set(fixture.cases.map((entry) => entry.id))
  const values: Record<string, unknown>[] = []
  for (const [index, raw] of drafts.entries()) {
    const at = drafts.length === 1 ? [] : [index]
    const value = drafted(source, at, definition.authoring.caseDraft, raw, (draft) => definition.authoring.newCase(context, draft))
    const id = String(value['id'])
    if (taken.has(id)) {
      throw draftError(
        source,
        [...at, 'id'],
        `a case "${id}" exists already; nothing was written.`,
        'choose an id no case of the fixture has (ids are unique in cases.json).',
        {
          found: JSON.stringify(id),
        },
      )
    }
    taken.add(id)
    stamp(definition.bindings, 'case', value, context, value, definition.reviews.slots)
    values.push(value)
  }
  const text = appendToList(base.text('cases'), 'cases', values, FORMAT)
  const after = await revision.propose(base, { cases: text })
  // Each case added is decided alone, once.
  const positions = new Map(after.fixture.cases.map((entry, index) => [entry.id, index]))
  const decided = new Map<string, Decision>()
  const decisionOf = (value: Record<string, unknown>): Decision => {
    const id = String(value['id'])
    const position = positions.get(id)
    // The case was added and the revision holds it.
    if (position === undefined) throw new Error(`no case added as ${id}`)
    let decision = decided.get(id)
    if (decision === undefined) decided.set(id, (decision = after.assess(position).decision))
    return decision
  }
  const refused = values.map(decisionOf).filter((decision) => decision.status === 'refused')
  if (refused.length > 0) {
    throw new RevisionError({
      code: 'DRAFT_INVALID',
      file: source.label,
      summary: `${refused.length === 1 ? 'the new case would be refused' : `${refused.length} new cases would be refused`}; nothing was written.\n${refused
        .flatMap((decision) => definition.present.refusals(decision))
        .map(indent)
        .join('\n')}`,
      hint: 'fix what the message names, then add the case again.',
    })
  }
  const written = options.dryRun === true ? [] : await after.commit(options.io)
  return { dir: fixture.displayDir, added: values.map((value) => ({ id: String(value['id']), decision: describe(decisionOf(value)) })), written }
}

/** Options of {@link recordReview}: which case and slot, and where the review goes. */
export interface RecordReviewOptions extends AuthoringOptions {
  readonly caseId: string
  /** The review slot (a scored case's `debate` or `baseline`); the kind's only slot when it has one. */
  readonly slot?: string | undefined
  /** Replace the case's review of that slot, if it has one: a revision, never a silent correction. */
  readonly replace: boolean
  /**
   * Record an independent review, in `reviews/<reviewer>.json`, instead of the adopted one: it
   * decides nothing until it is adjudicated, and the case does not acknowledge it.
   */
  readonly reviewer?: string | undefined
  /**
   * Record an automated judge's label, in `judges/<judge>.json`: it never decides a case and is
   * never counted as graded; `vitest-rubric calibrate` compares it with the adopted reviews.
   */
  readonly judge?: string | undefined
  /** With `judge`: the judge's file's `origin`, naming the model and the prompt's revision. */
  readonly origin?: string | undefined
  /**
   * The case's entries as the reviewer was shown them (`ReviewTarget.versions`): the review is
   * refused when one of them changed since. Without it, the review applies to the files as they are.
   */
  readonly expected?: CaseVersions | undefined
}

/** What `recordReview` recorded: the review as written, its ratings before and after, and the case's decision. */
export interface RecordedReview {
  readonly dir: string
  readonly caseId: string
  readonly slot: string
  /** The reviewer of an independent review; `undefined` for the adopted review. */
  readonly reviewer: string | undefined
  /** The judge of a judge's label; `undefined` otherwise. */
  readonly judge?: string | undefined
  /** The replaced review's summary (its ratings), or `null` when the case had none. */
  readonly before: Readonly<Record<string, string>> | null
  readonly after: Readonly<Record<string, string>>
  /**
   * The case's decision with the review: `accepted`, `pending (uncertain on support)`. For an
   * independent review, the decision that review alone would give: a reviewer never sees the others'.
   */
  readonly decision: string
  /**
   * Whether the slot reviewed is the one that decides the case (a scored case's debate review); a
   * review of another slot (its baseline) is recorded, but decides nothing by itself.
   */
  readonly decides: boolean
  /** The review as written, with its hashes. */
  readonly review: Readonly<Record<string, unknown>>
  readonly written: readonly string[]
}

/**
 * Records a review of a case: the one function behind `review` (from options, a file or a
 * terminal) and every later front end. The draft holds only what a reviewer judges (for a criteria
 * case: per criterion, the rating, the reason and the answer span); the case's id, every binding
 * hash and each criterion's reference quote are filled in. An adopted review goes to
 * `annotations.json` and the case acknowledges it; an independent review goes to the reviewer's
 * file. The review is added, or replaces the earlier one when `replace` is given; the rubric and
 * the source are never written. A draft that does not fit, a case whose own bindings are stale, or
 * a review that would be refused writes nothing.
 */
export async function recordReview(dir: string, draft: unknown, source: DraftSource, options: RecordReviewOptions): Promise<RecordedReview> {
  return reviseUnderLock(dir, options.cwd, () => recordReviewNow(dir, draft, source, options))
}

async function recordReviewNow(dir: string, draft: unknown, source: DraftSource, options: RecordReviewOptions): Promise<RecordedReview> {
  const scope = options.caseId === undefined ? undefined : [options.caseId]
  const { revision, base } = await FixtureRevision.open(options.kinds, dir, options.cwd, options.memo, scope)
  if (options.reviewer !== undefined && options.judge !== undefined) {
    throw new UsageError({
      code: 'USAGE',
      file: '--judge',
      summary: 'a review is by a reviewer or by a judge, not both; nothing was written.',
      hint: 'pass --reviewer or --judge.',
    })
  }
  if (options.origin !== undefined && options.judge === undefined) {
    throw new UsageError({
      code: 'USAGE',
      file: '--origin',
      summary: "--origin names a judge's model and prompt; nothing was written.",
      hint: 'pass it with --judge <name>.',
    })
  }
  checkOrigin(options.origin, '--origin')
  const reviewer = options.reviewer === undefined ? undefined : checkReviewer(options.reviewer, '--reviewer')
  const judge = options.judge === undefined ? undefined : checkReviewer(options.judge, '--judge')
  refuseCaseTwin(base.fixture, reviewer, REVIEWS_DIR, '--reviewer')
  refuseCaseTwin(base.fixture, judge, JUDGES_DIR, '--judge')
  const target = reviewTarget(base, options.caseId, options.slot, reviewer, judge)
  const { fixture, definition, context, entry, slot, existing } = target
  if (options.expected !== undefined) checkCaseVersions(fixture, entry.id, [slot], reviewer === undefined ? { adopted: true } : { reviewer }, options.expected)
  if (reviewer === undefined && judge === undefined) refuseDirectReview(target)
  refuseExistingReview(target, options.replace)
  const review = drafted(source, [], definition.authoring.reviewDraft(slot), draft, (parsed) =>
    definition.authoring.newReview(context, target.parsedCase, slot, parsed),
  )
  stamp(definition.bindings, 'review', review, context, entry.value, [slot])
  const destination: Destination =
    judge !== undefined
      ? { judge, ...(options.origin === undefined ? {} : { origin: options.origin }) }
      : reviewer === undefined
        ? { adopted: true }
        : { reviewer }
  const written = await writeReviews(revision, base, [{ target, review, destination }], source, options)
  return {
    dir: fixture.displayDir,
    caseId: entry.id,
    slot,
    reviewer,
    ...(judge === undefined ? {} : { judge }),
    before: existing === undefined ? null : definition.authoring.summarizeReview(existing.value),
    after: definition.authoring.summarizeReview(review),
    decision: describe(written.decisions[0]!),
    decides: definition.reviews.slots[0] === slot,
    review,
    written: written.files,
  }
}

/**
 * Refuses to add a review to a case that has one already, unless `replace` is given: the same
 * refusal (exit 1, with the fix) whether the review comes from options, a file or the terminal.
 */
export function refuseExistingReview(target: ReviewTarget, replace: boolean | undefined): void {
  const { existing, definition, slot, entry, by } = target
  if (existing === undefined || replace === true) return
  throw new RevisionError({
    code: 'REVIEW_EXISTS',
    file: target.file,
    path: existing.path,
    caseId: entry.id,
    summary: `the case has ${by === undefined ? definition.reviews.slotName(slot) : `${definition.reviews.slotName(slot)} by ${by}`} already; nothing was written.`,
    hint: 'pass --replace to revise it: the old and new ratings are printed, and the case acknowledges the new revision.',
  })
}

/** Where a review is written: as the adopted review (with the adoption it makes, if any), in a reviewer's file, or in a judge's. */
export type Destination =
  | { readonly adopted: true; readonly adoption?: Readonly<Record<string, unknown>> }
  | { readonly reviewer: string }
  | { readonly judge: string; readonly origin?: string }

/** One review to write, with where it goes. */
export interface ReviewWrite {
  readonly target: ReviewTarget
  readonly review: Readonly<Record<string, unknown>>
  readonly destination: Destination
}

/**
 * Writes reviews (and, for an adjudication, the adoptions they make), decides the fixture on the new
 * files and commits them unless a review would be refused. Returns, per review, the decision to
 * report: the case's for an adopted review, the review's own for an independent one.
 */
/** @internal */
export async function writeReviews(
  revision: FixtureRevision,
  base: RevisionBase,
  writes: readonly ReviewWrite[],
  source: DraftSource,
  options: AuthoringOptions,
): Promise<{ decisions: readonly Decision[]; files: readonly string[] }> {
  const { fixture } = base
  const definition = fixture.definition
  let annotations: string | undefined
  let cases: string | undefined
  const files: Record<string, string> = {}
  for (const { target, review, destination } of writes) {
    const { entry, slot, existing } = target
    if ('reviewer' in destination || 'judge' in destination) {
      // An author's own file: reviews/<reviewer>.json or judges/<judge>.json, made on the first review.
      const judge = 'judge' in destination
      const relativePath = judge ? `${JUDGES_DIR}/${destination.judge}.json` : `${REVIEWS_DIR}/${destination.reviewer}.json`
      const origin = judge ? (destination.origin ?? judgeOriginPlaceholder(destination.judge)) : `Independent reviews by ${destination.reviewer}.`
      let before = files[relativePath] ?? revision.textOf(relativePath, base) ?? `${JSON.stringify({ origin, reviews: [] }, null, 2)}\n`
      if (judge && destination.origin !== undefined) before = applyEdits(before, modify(before, ['origin'], destination.origin, { formattingOptions: FORMAT }))
      const index = existing === undefined ? listLength(before, 'reviews') : Number(existing.path[1])
      files[relativePath] = putListItem(before, 'reviews', index, review, FORMAT, existing === undefined)
      continue
    }
    const adopted = fixture.reviews.get(entry.id)?.[slot]
    annotations ??= base.text('annotations')
    const index = adopted === undefined ? listLength(annotations, 'reviews') : Number(adopted.path[1])
    annotations = putListItem(annotations, 'reviews', index, review, FORMAT, adopted === undefined)
    const acknowledgement = definition.bindings.find((row) => 'reviewOf' in row.source)!
    const recorded = valueAt(entry.value, rowPath(acknowledgement, slot))
    const edits = [{ path: [...entry.path, ...rowPath(acknowledgement, slot)], from: typeof recorded === 'string' ? recorded : '', to: fingerprint(review) }]
    // An adjudication makes the adopted review anew from reviews of the files as they are: the case records them too.
    if ('adoption' in destination && destination.adoption !== undefined) edits.push(...caseRestamps(definition.bindings, target))
    cases = editJsonStrings(cases ?? base.text('cases'), fixture.files.cases.display, edits)
    if (destination.adoption !== undefined)
      files[ADJUDICATIONS_FILE] = withAdoption(files[ADJUDICATIONS_FILE] ?? revision.textOf(ADJUDICATIONS_FILE, base), destination.adoption)
  }
  const after = await revision.propose(base, { annotations, cases, files })
  const context = kindContext(after.fixture)
  const decisions = writes.map(({ target, destination }) => {
    const index = after.fixture.cases.findIndex((each) => each.id === target.entry.id)
    if ('judge' in destination) {
      const views = reviewerViews(definition, context, after.fixture.cases[index]!, after.fixture.judges, after.fixture.files.cases.display)
      return views.find((view) => view.reviewer === destination.judge)!.decision
    }
    if (!('reviewer' in destination)) return after.assess(index).decision
    const views = reviewerViews(definition, context, after.fixture.cases[index]!, after.fixture.panel, after.fixture.files.cases.display)
    return views.find((view) => view.reviewer === destination.reviewer)!.decision
  })
  const refusals = decisions.flatMap((decision) => definition.present.refusals(decision))
  if (refusals.length > 0) {
    throw new RevisionError({
      code: 'DRAFT_INVALID',
      file: source.label,
      caseId: writes.length === 1 ? writes[0]!.target.entry.id : undefined,
      summary: `the review would be refused; nothing was written.\n${refusals.map(indent).join('\n')}`,
      hint: 'fix what the message names, then record the review again.',
    })
  }
  return { decisions, files: options.dryRun === true ? [] : await after.commit(options.io) }
}

/** The edits that set the case's own stale file hashes (its `expected` source and rubric) to the files as they are now. */
function caseRestamps(rows: readonly BindingRow[], target: ReviewTarget): { path: PathSegment[]; from: string; to: string }[] {
  const { entry, context } = target
  const edits: { path: PathSegment[]; from: string; to: string }[] = []
  for (const row of rows) {
    if (row.in !== 'case' || !('bytesOf' in row.source)) continue
    const current = context.files[row.source.bytesOf]?.sha256
    for (const slot of typeof row.path === 'function' ? target.definition.reviews.slots : [target.slot]) {
      const path = rowPath(row, slot)
      const recorded = valueAt(entry.value, path)
      if (current !== undefined && typeof recorded === 'string' && recorded !== current)
        edits.push({ path: [...entry.path, ...path], from: recorded, to: current })
    }
  }
  return edits
}

/** `adjudications.json` with one adoption of a case's slot added, or put in place of the case's earlier one. */
function withAdoption(text: string | undefined, adoption: Readonly<Record<string, unknown>>): string {
  const before = text ?? `${JSON.stringify({ adoptions: [] }, null, 2)}\n`
  const document: unknown = JSON.parse(before)
  const listed = valueAt(document, ['adoptions'])
  const adoptions: readonly unknown[] = Array.isArray(listed) ? listed : []
  const earlier = adoptions.findIndex((each) => valueAt(each, ['case_id']) === adoption['case_id'] && valueAt(each, ['slot']) === adoption['slot'])
  const index = earlier === -1 ? adoptions.length : earlier
  return putListItem(before, 'adoptions', index, adoption, FORMAT, earlier === -1)
}

/** A reviewer's name as given, in NFC: a safe file name, or a usage error naming the option. */
export function checkReviewer(given: string, option: string): string {
  const name = reviewerName(given)
  if (REVIEWER_NAME.test(name)) return name
  throw new UsageError({
    code: 'USAGE',
    file: option,
    summary: `${JSON.stringify(given)} is not a reviewer name; nothing was written.`,
    expected:
      'letters and digits (of any script), ".", "_" and "-", not starting with a dot, at most 64 characters: the name is also the reviewer\'s file name',
    hint: 'name the reviewer as their file in reviews/ will be named, such as alice or zoë.',
  })
}

/** Refuses a judge's `origin` that is no well-formed text (a lone surrogate): it would be written, and read back as no text. */
export function checkOrigin(origin: string | undefined, option: string): void {
  if (origin === undefined || origin.isWellFormed()) return
  throw new UsageError({
    code: 'USAGE',
    file: option,
    summary: 'the origin holds a lone surrogate (half of a character beyond U+FFFF), which has no UTF-8 encoding; nothing was written.',
    expected: 'well-formed Unicode text',
    found: preview(origin),
    hint: 'name the model and the revision of its prompt in well-formed text.',
  })
}

/**
 * Refuses a reviewer's or judge's name that differs only in case from an existing author's file:
 * on a case-insensitive file system the two would be one file, merging two people's reviews.
 */
export function refuseCaseTwin(fixture: SomeFixture, name: string | undefined, subdir: typeof REVIEWS_DIR | typeof JUDGES_DIR, option: string): void {
  if (name === undefined) return
  const authors = subdir === REVIEWS_DIR ? fixture.panel.reviewers : fixture.judges.names
  const twin = caseTwinOf(name, authors)
  if (twin === undefined) return
  const files = subdir === REVIEWS_DIR ? fixture.panel.files : fixture.judges.files
  throw new RevisionError({
    code: 'AUTHOR_NAME_TAKEN',
    file: option,
    summary: `${JSON.stringify(name)} differs only in case from ${files[twin]?.display ?? join(fixture.displayDir, subdir, `${twin}.json`)}; nothing was written.`,
    expected: `a name that is not ${JSON.stringify(twin)} in other letter case`,
    found: JSON.stringify(name),
    hint: `a case-insensitive file system (macOS, Windows) holds both names as one file, which would merge two authors' reviews: pass ${option} ${twin} if they are the same person, or a name of their own.`,
  })
}

/** What a front end shows a reviewer before asking: the case, its current review and decision, its kind's context. */
export interface ReviewTarget {
  readonly fixture: SomeFixture
  readonly definition: SomeKindDefinition
  readonly context: KindContext<unknown>
  readonly entry: SomeFixture['cases'][number]
  /** The case as its kind parsed it. */
  readonly parsedCase: unknown
  readonly slot: string
  /** The review the new one would replace: the adopted review, or the reviewer's own. */
  readonly existing: { readonly value: unknown; readonly path: readonly PathSegment[] } | undefined
  readonly decision: Decision
  /** What a review of the target replaces, as read: pass it back as `expected` when the review is recorded later. */
  readonly versions: CaseVersions
  /** The file the review goes into, as shown: `annotations.json`, `reviews/<reviewer>.json` or `judges/<judge>.json`. */
  readonly file: string
  /** Whose review it is (`alice`, `judge gpt-judge`); `undefined` for the adopted review. */
  readonly by: string | undefined
  /**
   * Of a review being replaced that is bound to earlier files: the items whose text is unchanged
   * (found in git history), which a prompt offers to carry over, each once the reviewer confirms it,
   * and what changed. Set by `openReviewTarget`; empty when nothing is known.
   */
  readonly carried?: CarriedOver
}

/** Opens a fixture and finds the case (and slot) to review, refusing what cannot be reviewed now. */
export async function openReviewTarget(
  kinds: KindRegistry,
  dir: string,
  caseId: string,
  slot: string | undefined,
  cwd: string,
  reviewer?: string,
): Promise<ReviewTarget> {
  // A judge's labels come from its own run (--from, --rating): there is no interactive judge.
  const { base } = await FixtureRevision.open(kinds, dir, cwd)
  const name = reviewer === undefined ? undefined : checkReviewer(reviewer, '--reviewer')
  refuseCaseTwin(base.fixture, name, REVIEWS_DIR, '--reviewer')
  const target = reviewTarget(base, caseId, slot, name)
  if (reviewer === undefined) refuseDirectReview(target)
  if (target.existing === undefined) return target
  const existing = { ...target.existing, slot: target.slot, file: target.file }
  return { ...target, carried: carriedOver(base.fixture, target.entry, existing, await fixtureHistory(base.fixture, [existing])) }
}

/**
 * Refuses a review written straight to `annotations.json` for a slot that independent reviews have:
 * only an adjudication adopts a review of such a case, so that the adoption records what it resolved.
 */
function refuseDirectReview(target: ReviewTarget): void {
  const { fixture, entry, slot, definition } = target
  const reviewers = independentReviewersOf(fixture, entry.id, slot)
  if (reviewers.length === 0) return
  const system = definition.reviews.slots.length === 1 ? '' : ` --${slotOptionOf(definition)} ${slot}`
  throw new RevisionError({
    code: 'ADJUDICATION_REQUIRED',
    file: fixture.files.annotations?.display,
    caseId: entry.id,
    summary: `case "${entry.id}" has independent reviews (${reviewers.join(', ')}), so only an adjudication adopts its review; nothing was written.`,
    expected: 'a review by a reviewer (--reviewer <name>), or an adjudication of the reviews',
    found: 'a review without --reviewer, which would decide the case with no adjudication recorded',
    hint: `adjudicate the case: \`vitest-rubric adjudicate ${shellWord(fixture.displayDir)} --case ${shellWord(entry.id)}${system} --adjudicator <name>\`, or record your own review with --reviewer <name>.`,
  })
}

/**
 * The reviewers with an independent review of the case's slot: with any, a review written straight
 * to `annotations.json` is refused (`ADJUDICATION_REQUIRED`) and only an adjudication adopts one.
 */
export function independentReviewersOf(fixture: SomeFixture, caseId: string, slot: string): string[] {
  return [...(fixture.panel.reviews.get(caseId) ?? [])].filter(([, reviews]) => reviews[slot] !== undefined).map(([name]) => name)
}

/**
 * @internal
 * `restamps`: the write made of this review re-stamps the case's own hashes (an adjudication), or
 * never reads them (a reviewer's or a judge's review): a stale case is no reason to refuse it.
 */
export function reviewTarget(
  base: RevisionBase,
  caseId: string,
  wantedSlot: string | undefined,
  reviewer: string | undefined,
  judge?: string,
  restamps = false,
): ReviewTarget {
  const { fixture } = base
  const definition = fixture.definition
  const context = kindContext(fixture)
  const index = fixture.cases.findIndex((each) => each.id === caseId)
  const ids = fixture.cases.map((each) => each.id)
  if (index === -1) {
    throw new RevisionError({
      code: 'CASE_NOT_FOUND',
      file: fixture.files.cases?.display,
      summary: `there is no case "${caseId}"; nothing was written.`,
      expected: ids.length === 0 ? 'a case id (the fixture has no cases yet: add one with `vitest-rubric add`)' : `one of ${quoteSome(ids)}`,
      found: JSON.stringify(caseId),
      hint: 'pass the id of a case in cases.json.',
    })
  }
  const { slots } = definition.reviews
  const slot = wantedSlot ?? (slots.length === 1 ? slots[0] : undefined)
  if (slot === undefined || !slots.includes(slot)) {
    throw new UsageError({
      code: 'USAGE',
      file: fixture.displayDir,
      summary: wantedSlot === undefined ? 'a case of this kind has several reviews: say which one.' : `a case of this kind has no review "${wantedSlot}".`,
      expected: `one of ${quoteSome(slots)}`,
      hint: `pass --${slotOptionOf(definition)} ${slots.join(` or --${slotOptionOf(definition)} `)}.`,
    })
  }
  const entry = fixture.cases[index]!
  const assessment = base.assess(index)
  const parsedCase = safeParseReporting(definition.schemas.case, entry.value)
  if (!parsedCase.success || assessment.caseProblems.some((problem) => problem.code === 'CASE_INVALID' || problem.code === 'QUESTION_MISMATCH')) {
    throw new RevisionError({
      code: 'BIND_STILL_REFUSED',
      file: fixture.files.cases?.display,
      caseId,
      summary: `the case itself is refused, so a review of it would be too; nothing was written.\n${definition.present.refusals(assessment.decision).map(indent).join('\n')}`,
      hint: 'fix the case first.',
    })
  }
  // The case's own hashes: a review made now would be bound to files its case disowns.
  const staleCase = assessment.states.filter((state) => state.row.in === 'case' && !('reviewOf' in state.row.source) && isStale(state))
  if (staleCase.length > 0 && !restamps && reviewer === undefined && judge === undefined) {
    throw new RevisionError({
      code: staleCase[0]!.row.code,
      file: fixture.files.cases?.display,
      path: staleCase[0]!.path,
      caseId,
      summary: `the case is bound to other revisions of the files (${staleCase.map((state) => state.row.meaning).join('; ')}), so a review made now would contradict its own case; nothing was written.`,
      hint: `see what changed with \`vitest-rubric status ${fixture.displayDir}\`; once the case is right for the files as they are, run \`${bindCommand(fixture.displayDir, caseId)}\`, then review it.`,
    })
  }
  // A reviewer sees their own earlier review, never the adopted one or another reviewer's: the review is blind.
  const review =
    judge !== undefined
      ? fixture.judges.reviews.get(caseId)?.get(judge)?.[slot]
      : reviewer === undefined
        ? fixture.reviews.get(caseId)?.[slot]
        : fixture.panel.reviews.get(caseId)?.get(reviewer)?.[slot]
  return {
    fixture,
    definition,
    context,
    entry,
    parsedCase: parsedCase.data,
    slot,
    existing: review === undefined ? undefined : { value: review.value, path: review.path },
    decision: assessment.decision,
    versions: caseVersions(fixture, caseId, [slot], reviewer === undefined ? { adopted: true } : { reviewer }),
    file:
      judge !== undefined
        ? judgeFileDisplay(fixture, judge)
        : reviewer === undefined
          ? fixture.files.annotations.display
          : (fixture.panel.files[reviewer]?.display ?? join(fixture.displayDir, REVIEWS_DIR, `${reviewer}.json`)),
    by: reviewer ?? (judge === undefined ? undefined : `judge ${judge}`),
  }
}

const FORMAT = { insertSpaces: true, tabSize: 2, eol: '\n' } as const

/** A draft checked against its schema, then made into an entry by the kind; throws at the first defect, naming every one. */
/** @internal */
export function drafted(
  source: DraftSource,
  at: readonly PathSegment[],
  schema: z.ZodType,
  raw: unknown,
  make: (draft: unknown) => { readonly value?: Readonly<Record<string, unknown>> | undefined; readonly problems: readonly DraftProblem[] },
): Record<string, unknown> {
  const parsed = safeParseReporting(schema, raw)
  if (!parsed.success) {
    const problem = schemaProblem(
      { code: 'DRAFT_INVALID', file: undefined, basePath: at, hint: 'give what the command describes (see its --help).' },
      parsed.error.issues,
    )
    // The further problems name their place as the source does, not as a bare JSON path.
    const also = parsed.error.issues
      .slice(1, 6)
      .map((issue) => `${source.locate([...at, ...issue.path.map((key) => (typeof key === 'number' ? key : String(key)))])}: ${issue.message}`)
    throw new RevisionError({
      ...problem,
      file: source.locate(problem.path ?? []),
      path: [],
      summary: `${problem.summary.replace(/\.$/, '')}; nothing was written.`,
      also,
    })
  }
  // A text with no UTF-8 encoding would be written, and refused only when it is read: refused here, where it was given.
  const malformed = malformedStringPath(raw)
  if (malformed !== undefined) {
    const last = malformed.at(-1)
    const key = typeof last === 'string' && !last.isWellFormed()
    throw draftError(
      source,
      [...at, ...malformed],
      `the ${key ? 'key' : 'text'} holds a lone surrogate (half of a character beyond U+FFFF), which has no UTF-8 encoding; nothing was written.`,
      'replace the broken character: the text was probably cut in the middle of an emoji or other character beyond U+FFFF.',
      { expected: 'well-formed Unicode text', found: preview(key ? last : valueAt(raw, malformed)) },
    )
  }
  const result = make(parsed.data)
  if (result.value === undefined) {
    const [first, ...rest] = result.problems
    throw draftError(source, [...at, ...first!.path], `${first!.summary.replace(/\.$/, '')}; nothing was written.`, first!.hint, {
      expected: first!.expected,
      found: first!.found,
      also: rest.map(
        (problem) => `${source.locate([...at, ...problem.path])}: ${problem.summary}${problem.hint === first!.hint ? '' : ` Fix: ${problem.hint}`}`,
      ),
    })
  }
  return { ...structuredClone(result.value) }
}

function draftError(
  source: DraftSource,
  path: readonly PathSegment[],
  summary: string,
  hint: string,
  more: { expected?: string | undefined; found?: string | undefined; also?: readonly string[]; code?: RubricErrorCode } = {},
): RevisionError {
  return new RevisionError({
    code: more.code ?? 'DRAFT_INVALID',
    file: source.locate(path),
    summary,
    expected: more.expected,
    found: more.found,
    hint,
    also: more.also,
  })
}

/** Sets every hash of `entry` that the binding table records there to the files' current value. */
/** @internal */
export function stamp(
  rows: readonly BindingRow[],
  entry: 'case' | 'review',
  value: Record<string, unknown>,
  context: KindContext<unknown>,
  caseValue: unknown,
  slots: readonly string[],
): void {
  for (const row of rows) {
    if (row.in !== entry) continue
    for (const slot of typeof row.path === 'function' || entry === 'review' ? slots : slots.slice(0, 1)) {
      const current =
        'bytesOf' in row.source
          ? context.files[row.source.bytesOf]!.sha256
          : 'fingerprintOf' in row.source
            ? fingerprint(valueAt(caseValue, row.source.fingerprintOf(slot)) ?? null)
            : NULL_FINGERPRINT
      setAt(value, rowPath(row, slot), current)
    }
  }
}

function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let object = target
  for (const key of path.slice(0, -1)) {
    const inner = object[key]
    if (!isObject(inner)) throw new Error(`no object at ${key}`)
    object = inner
  }
  object[path.at(-1)!] = value
}

/** The length of a top-level list of a document the fixture loaded (so it parses, and holds the list). */
function listLength(text: string, key: 'cases' | 'reviews'): number {
  const items = topLevelListItems(text, key)
  if (items !== undefined) return items.length
  const list = valueAt(parseJson(text), [key])
  return Array.isArray(list) ? list.length : 0
}

/** `accepted`, `rejected (verification)`, `pending (no review)`. */
export function describe(decision: Decision): string {
  return decision.status === 'pending' ? `pending (${decision.reason})` : decision.status === 'rejected' ? `rejected (${decision.reason})` : decision.status
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')
}
