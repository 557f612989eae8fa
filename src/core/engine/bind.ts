import { RevisionError, UsageError } from '../common/errors.js'
import { quoteSome, own } from '../common/primitives.js'
import { fingerprint, NULL_FINGERPRINT } from '../json/canonical-json.js'
import { nodeWriteIo, type WriteIo } from '../json/atomic-write.js'
import { editJsonStrings, type StringEdit } from '../json/json-edit.js'
import { assessEntry, type CaseAssessment } from './assess.js'
import { acknowledgement, boundReview, isStale, perSlot, shellWord, type BindingState } from './bindings.js'
import { caseIndex } from './case-index.js'
import type { Decision } from '../contract/decision.js'
import { kindContext, type CaseEntry, type SomeFixture } from './fixture.js'
import type { KindRegistry } from './registry.js'
import { ADJUDICATIONS_FILE, authorDocument, REVIEWS_DIR } from './panel.js'
import { reviewerViews } from './panel-rule.js'
import { entryLocation, refuseForkedCase } from './records-view.js'
import { FixtureRevision, reviseUnderLock, type WrittenFile } from './revision.js'

export interface BindOptions {
  /** The kinds the directory may hold: the registry of the front end that starts from it. */
  readonly kinds: KindRegistry
  /** The case ids to bind, or every case. */
  readonly cases: readonly string[] | 'all'
  /** Work out and check the changes, write nothing. */
  readonly dryRun: boolean
  /** Paths in messages are shown relative to this directory. */
  readonly cwd: string
  /**
   * Bind only these reviewers' independent reviews of the cases (`reviews/<name>.json`), after each
   * has re-read them; without it, a case is bound with its adopted review and every independent one.
   */
  readonly reviewers?: readonly string[]
  /** @internal the filesystem calls of the write, replaced in tests */
  readonly io?: WriteIo
}

/** One recorded hash replaced by the current one. */
export interface HashChange {
  /** `annotations.json › reviews[1] › answer_sha256`; `reviews[…]` when a records fixture was read only for the cases bound. */
  readonly location: string
  readonly from: string
  readonly to: string
}

/** What binding did for a case: bound its reviews, re-stamped a case nobody reviewed, or acknowledged a withdrawn review. */
export type BindKind = 'reviewed' | 'unreviewed' | 'withdrawn'

export interface BoundCase {
  readonly id: string
  readonly kind: BindKind
  /** Empty when every hash was current already. */
  readonly changes: readonly HashChange[]
  /** The case's decision once bound: `accepted`, `rejected`, `pending (uncertain on support)`. */
  readonly decision: string
}

export interface BindResult {
  readonly dir: string
  readonly cases: readonly BoundCase[]
  /** With `cases: 'all'`: cases left alone, and why. */
  readonly skipped: readonly { readonly id: string; readonly reason: string }[]
  /** The files written (none under `dryRun`, or when nothing changed). */
  readonly written: readonly string[]
}

/**
 * The explicit revision: a reviewer who has re-read a case's answer (or output) against the current
 * source and rubric records that the review applies to them. Every stale hash of the binding table
 * gets the value of the files as they are now, and the case acknowledges the review's new revision.
 * A case nobody reviewed carries no judgement that could be reused, so its own hashes are simply
 * re-stamped; a withdrawn review is acknowledged only for a case named by id. Only `cases.json` and
 * `annotations.json` change, and only in those hashes; the rubric and source are never written.
 * Nothing is written when a case would still be refused once bound (a judgement of a removed
 * criterion, a quote the rubric no longer has, a malformed review): the judgements must be revised
 * first.
 */
export async function bindFixture(dir: string, options: BindOptions): Promise<BindResult> {
  return reviseUnderLock(dir, options.cwd, () => bindFixtureNow(dir, options))
}

async function bindFixtureNow(dir: string, options: BindOptions): Promise<BindResult> {
  // Cases named by id: every record of each (its reviews and adoptions among them) is in its id's bucket.
  const scope = options.cases === 'all' ? undefined : options.cases
  const { revision, base } = await FixtureRevision.open(options.kinds, dir, options.cwd, undefined, scope)
  const { fixture, assessments } = base
  const definition = fixture.definition
  const selected = selectCases(fixture, options.cases)
  const plan: EditPlan = { edits: { cases: [], annotations: [] }, others: new Map(), cases: [], skipped: [] }
  const byId = new Map(fixture.cases.map((entry, index) => [entry.id, assessments[index]!]))
  const reviewers = options.reviewers === undefined || options.reviewers.length === 0 ? undefined : checkReviewers(fixture, options.reviewers)
  for (const id of selected) {
    // A case named whose records were revised apart: binding it would build on one revision unsettled.
    if (options.cases !== 'all') refuseForkedCase(fixture, id)
    const entry = fixture.cases.find((each) => each.id === id)!
    if (reviewers === undefined) planCase(fixture, byId.get(id)!, options.cases === 'all', plan)
    planPanel(fixture, entry, byId.get(id)!, reviewers, options.cases === 'all', plan)
  }

  const edited = (file: WrittenFile) => {
    const edits = plan.edits[file]
    return edits.length === 0 ? undefined : editJsonStrings(base.text(file), fixture.files[file].display, edits)
  }
  const files = Object.fromEntries(
    [...plan.others].map(([relativePath, { display, edits }]) => [relativePath, editJsonStrings(revision.textOf(relativePath, base)!, display, edits)]),
  )
  // Decide the bound cases on the new contents before anything is written.
  const after = await revision.propose(base, { cases: edited('cases'), annotations: edited('annotations'), files })
  const afterById = new Map(after.evaluation.decisions.map((decision) => [decision.id, decision]))
  const refusalsOf = (decision: Decision) => definition.present.refusals(decision)
  const context = kindContext(after.fixture)
  // Binding reviewers alone leaves the case to its other reviews: what must not stay refused is each bound review.
  const reviewerDecisions = (id: string) =>
    reviewerViews(definition, context, after.fixture.cases.find((each) => each.id === id)!, after.fixture.panel, after.fixture.files.cases.display).filter(
      (view) => reviewers!.includes(view.reviewer),
    )
  const stillRefused = plan.cases
    .flatMap((each) => (reviewers === undefined ? [afterById.get(each.id)!] : reviewerDecisions(each.id).map((view) => view.decision)))
    .filter((decision) => refusalsOf(decision).length > 0)
  if (stillRefused.length > 0) {
    const messages = stillRefused.flatMap(refusalsOf)
    throw new RevisionError({
      code: 'BIND_STILL_REFUSED',
      file: fixture.files.annotations?.display,
      summary: `once bound, ${stillRefused.length === 1 ? 'a case would still be refused, so its judgements do' : `${stillRefused.length} cases would still be refused, so their judgements do`} not fit the current files; nothing was written.\n${messages.map(indent).join('\n')}`,
      hint: 'revise the review as the message says (a rubric revision needs revised judgements, not only new hashes), then bind again.',
    })
  }

  const written = options.dryRun ? [] : await after.commit(options.io ?? nodeWriteIo)
  return {
    dir: fixture.displayDir,
    cases: plan.cases.map((each) => ({
      ...each,
      decision:
        reviewers === undefined
          ? decisionAfter(afterById.get(each.id)!)
          : reviewerDecisions(each.id)
              .map((view) => `${decisionAfter(view.decision)} by ${view.reviewer}'s review alone`)
              .join(', '),
    })),
    skipped: plan.skipped,
    written,
  }
}

interface EditPlan {
  readonly edits: { readonly cases: StringEdit[]; readonly annotations: StringEdit[] }
  /** Edits of the panel's files (`reviews/alice.json`, `adjudications.json`), by their path in the fixture directory. */
  readonly others: Map<string, { display: string; edits: StringEdit[] }>
  readonly cases: { id: string; kind: BindKind; changes: HashChange[] }[]
  readonly skipped: { id: string; reason: string }[]
}

/** The edits that bind one case: every stale hash, then the revision the case records of each review once bound. */
function planCase(fixture: SomeFixture, assessment: CaseAssessment<Decision>, all: boolean, plan: EditPlan): void {
  const definition = fixture.definition
  const { id } = assessment.decision
  const reviews = fixture.reviews.get(id)
  const reviewed = definition.reviews.slots.filter((slot) => reviews?.[slot] !== undefined)
  const acknowledgements = assessment.states.filter((state) => 'reviewOf' in state.row.source)
  const withdrawn = acknowledgements.filter((state) => acknowledgement(state, reviews?.[state.slot] !== undefined) === 'withdrawn')
  if (reviewed.length === 0 && withdrawn.length > 0 && all) {
    plan.skipped.push({ id, reason: 'its review was removed but is still recorded: name it with --case to acknowledge the withdrawal' })
    return
  }
  // Every row that applies has a state, unless a value had no canonical form.
  const expectedStates = definition.bindings.reduce((count, row) => {
    if (!perSlot(row)) return count + 1
    return count + definition.reviews.slots.filter((slot) => row.in === 'case' || reviews?.[slot] !== undefined).length
  }, 0)
  const unusable = assessment.states.filter((state) => state.recorded === undefined || !/^[0-9a-f]{64}$/.test(state.recorded))
  const malformed = [...assessment.caseProblems, ...Object.values(assessment.slotProblems).flat()].some(
    (problem) => problem.code === 'CASE_INVALID' || problem.code === 'REVIEW_INVALID',
  )
  if (malformed || unusable.length > 0 || assessment.states.length < expectedStates) {
    const refusal = definition.present.refusals(assessment.decision).join('\n')
    throw new RevisionError({
      code: 'BIND_STILL_REFUSED',
      file: fixture.files.cases?.display,
      caseId: id,
      summary: `the case or its review is malformed, so it has no hashes to bind; nothing was written.${refusal === '' ? '' : `\n${indent(refusal)}`}`,
      hint: 'fix what the message names, then bind again.',
    })
  }
  const changes: HashChange[] = []
  const change = (state: BindingState, to: string) => {
    if (state.recorded === to) return
    const file = state.file === fixture.files.cases?.display ? 'cases' : 'annotations'
    plan.edits[file].push({ path: state.path, from: state.recorded!, to })
    changes.push({ location: entryLocation(fixture, state.file, state.path), from: state.recorded!, to })
  }
  const hashes = assessment.states.filter((state) => !('reviewOf' in state.row.source))
  for (const state of hashes) if (isStale(state)) change(state, state.current)
  for (const state of acknowledgements) {
    const review = reviews?.[state.slot]
    const slotStates = hashes.filter((each) => each.row.in === 'review' && each.slot === state.slot)
    change(state, review === undefined ? NULL_FINGERPRINT : fingerprint(boundReview(review.value, slotStates)))
  }
  const kind: BindKind = reviewed.length > 0 ? 'reviewed' : withdrawn.length > 0 ? 'withdrawn' : 'unreviewed'
  // Under --all, a case with no review and nothing stale is no news.
  if (all && kind === 'unreviewed' && changes.length === 0) return
  plan.cases.push({ id, kind, changes })
}

/**
 * The edits that bind a case's independent reviews (of the reviewers named, or all): every stale
 * hash of each review. An adoption that resolved a review as it was, and the adopted review as it
 * was, carries over to their bound revisions: binding says the judgements hold for the files as
 * they are, so what was adjudicated of them still stands. An adoption a later review or edit
 * reopened is left as it is.
 */
function planPanel(
  fixture: SomeFixture,
  entry: CaseEntry,
  assessment: CaseAssessment<Decision>,
  reviewers: readonly string[] | undefined,
  all: boolean,
  plan: EditPlan,
): void {
  const definition = fixture.definition
  const { panel } = fixture
  const context = kindContext(fixture)
  const byReviewer = panel.reviews.get(entry.id)
  const casesFile = fixture.files.cases.display
  const bound = new Map<string, Record<string, string>>()
  const changes: HashChange[] = []
  for (const [reviewer, reviews] of byReviewer ?? []) {
    if (reviewers !== undefined && !reviewers.includes(reviewer)) continue
    const file = own(panel.files, reviewer)!
    const site = { casesFile, annotationsFile: file.display }
    const review = assessEntry(definition, context, entry, reviews, site, undefined, { reviewRowsOnly: true, allStates: true })
    const malformed = Object.values(review.slotProblems)
      .flat()
      .some((problem) => problem.code === 'REVIEW_INVALID')
    if (malformed || review.states.some((state) => state.recorded === undefined || !/^[0-9a-f]{64}$/.test(state.recorded))) {
      throw new RevisionError({
        code: 'BIND_STILL_REFUSED',
        file: file.display,
        caseId: entry.id,
        summary: `${reviewer}'s review of the case is malformed, so it has no hashes to bind; nothing was written.\n${indent(definition.present.refusals(review.decision).join('\n'))}`,
        hint: `have ${reviewer} review the case again (vitest-rubric review ${shellWord(fixture.displayDir)} --case ${shellWord(entry.id)} --reviewer ${shellWord(reviewer)} --replace).`,
      })
    }
    const edits = review.states.filter((state) => state.row.in === 'review' && isStale(state))
    if (edits.length === 0) continue
    const relativePath = authorDocument(panel, REVIEWS_DIR, reviewer)
    const others = plan.others.get(relativePath) ?? { display: file.display, edits: [] }
    for (const state of edits) {
      others.edits.push({ path: state.path, from: state.recorded!, to: state.current })
      changes.push({ location: entryLocation(fixture, state.file, state.path), from: state.recorded!, to: state.current })
    }
    plan.others.set(relativePath, others)
    const slots: Record<string, string> = {}
    for (const slot of definition.reviews.slots) {
      const value = reviews[slot]?.value
      if (value !== undefined)
        slots[slot] = fingerprint(
          boundReview(
            value,
            review.states.filter((state) => state.slot === slot),
          ),
        )
    }
    bound.set(reviewer, slots)
  }
  // The adopted review as `planCase` binds it, when it does.
  const adoptedBound: Record<string, string> = {}
  if (reviewers === undefined) {
    for (const slot of definition.reviews.slots) {
      const value = fixture.reviews.get(entry.id)?.[slot]?.value
      const states = assessment.states.filter((state) => state.slot === slot && state.row.in === 'review')
      if (value !== undefined && states.some(isStale)) adoptedBound[slot] = fingerprint(boundReview(value, states))
    }
  }
  for (const adoption of Object.values(panel.adoptions.get(entry.id) ?? {})) {
    const carried: StringEdit[] = []
    for (const [reviewer, recorded] of Object.entries(adoption.resolved)) {
      const to = bound.get(reviewer)?.[adoption.slot]
      const value = byReviewer?.get(reviewer)?.[adoption.slot]?.value
      if (to !== undefined && value !== undefined && fingerprint(value) === recorded)
        carried.push({ path: [...adoption.path, 'resolved', reviewer], from: recorded, to })
    }
    const to = adoptedBound[adoption.slot]
    const adopted = fixture.reviews.get(entry.id)?.[adoption.slot]?.value
    if (to !== undefined && adopted !== undefined && fingerprint(adopted) === adoption.reviewSha256)
      carried.push({ path: [...adoption.path, 'review_sha256'], from: adoption.reviewSha256, to })
    if (carried.length === 0) continue
    const display = panel.adjudications!.display
    const others = plan.others.get(ADJUDICATIONS_FILE) ?? { display, edits: [] }
    others.edits.push(...carried)
    plan.others.set(ADJUDICATIONS_FILE, others)
    for (const edit of carried) changes.push({ location: entryLocation(fixture, display, edit.path), from: edit.from, to: edit.to })
  }
  if (changes.length === 0 && (all || reviewers === undefined)) return
  if (reviewers !== undefined && !reviewers.some((reviewer) => byReviewer?.has(reviewer) === true)) {
    plan.skipped.push({ id: entry.id, reason: `${reviewers.join(', ')} did not review it: there is nothing of theirs to bind` })
    return
  }
  const planned = plan.cases.find((each) => each.id === entry.id)
  if (planned !== undefined) planned.changes.push(...changes)
  else plan.cases.push({ id: entry.id, kind: 'reviewed', changes })
}

/** The reviewers named, each a reviewer of the fixture. */
function checkReviewers(fixture: SomeFixture, reviewers: readonly string[]): readonly string[] {
  for (const reviewer of reviewers) {
    if (fixture.panel.reviewers.includes(reviewer)) continue
    throw new UsageError({
      code: 'USAGE',
      file: '--reviewer',
      summary: `${JSON.stringify(reviewer)} has no reviews in ${fixture.displayDir}/${REVIEWS_DIR}; nothing was written.`,
      expected: fixture.panel.reviewers.length === 0 ? 'a reviewer (the fixture has no independent reviews)' : `one of ${quoteSome(fixture.panel.reviewers)}`,
      found: JSON.stringify(reviewer),
      hint: 'name a reviewer whose file is in reviews/.',
    })
  }
  return reviewers
}

function selectCases(fixture: SomeFixture, cases: readonly string[] | 'all'): string[] {
  const ids = fixture.cases.map((entry) => entry.id)
  if (cases === 'all') return ids
  for (const id of cases) caseIndex(fixture, id, { hint: 'pass the id of a case in cases.json, or --all.', writing: true })
  return [...new Set(cases)]
}

function decisionAfter(decision: Decision): string {
  return decision.status === 'pending' ? `pending (${decision.reason})` : decision.status
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')
}
