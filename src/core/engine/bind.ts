import { RevisionError } from '../common/errors.js'
import { formatLocation, type PathSegment } from '../common/json-path.js'
import { quoteSome } from '../common/primitives.js'
import { fingerprint, NULL_FINGERPRINT } from '../json/canonical-json.js'
import { nodeWriteIo, type WriteIo } from '../json/atomic-write.js'
import { editJsonStrings, type StringEdit } from '../json/json-edit.js'
import { definitionOf } from '../kinds/index.js'
import type { CaseAssessment } from './assess.js'
import { acknowledgement, boundReview, isStale, perSlot, type BindingState } from './bindings.js'
import type { Decision } from './decision.js'
import type { Fixture } from './fixture.js'
import { FixtureRevision, reviseUnderLock, type WrittenFile } from './revision.js'

export interface BindOptions {
  /** The case ids to bind, or every case. */
  readonly cases: readonly string[] | 'all'
  /** Work out and check the changes, write nothing. */
  readonly dryRun: boolean
  /** Paths in messages are shown relative to this directory. */
  readonly cwd: string
  /** @internal the filesystem calls of the write, replaced in tests */
  readonly io?: WriteIo
}

/** One recorded hash replaced by the current one. */
export interface HashChange {
  /** `annotations.json › reviews[1] › answer_sha256`. */
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
  const { revision, base } = await FixtureRevision.open(dir, options.cwd)
  const { fixture, assessments } = base
  const definition = definitionOf(fixture.kind)
  const selected = selectCases(fixture, options.cases)
  const plan: EditPlan = { edits: { cases: [], annotations: [] }, cases: [], skipped: [] }
  const byId = new Map(fixture.cases.map((entry, index) => [entry.id, assessments[index]!]))
  for (const id of selected) planCase(fixture, byId.get(id)!, options.cases === 'all', plan)

  const edited = (file: WrittenFile) => {
    const edits = plan.edits[file]
    return edits.length === 0 ? undefined : editJsonStrings(base.text(file), fixture.files[file]!.display, edits)
  }
  // Decide the bound cases on the new contents before anything is written.
  const after = await revision.propose(base, { cases: edited('cases'), annotations: edited('annotations') })
  const afterById = new Map(after.evaluation.decisions.map((decision) => [decision.id, decision as Decision]))
  const refusalsOf = (decision: Decision) => definition.present.refusals(decision)
  const stillRefused = plan.cases.map((each) => afterById.get(each.id)!).filter((decision) => refusalsOf(decision).length > 0)
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
    cases: plan.cases.map((each) => ({ ...each, decision: decisionAfter(afterById.get(each.id)!) })),
    skipped: plan.skipped,
    written,
  }
}

interface EditPlan {
  readonly edits: { readonly cases: StringEdit[]; readonly annotations: StringEdit[] }
  readonly cases: { id: string; kind: BindKind; changes: HashChange[] }[]
  readonly skipped: { id: string; reason: string }[]
}

/** The edits that bind one case: every stale hash, then the revision the case records of each review once bound. */
function planCase(fixture: Fixture, assessment: CaseAssessment<Decision>, all: boolean, plan: EditPlan): void {
  const definition = definitionOf(fixture.kind)
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
  const malformed = [...assessment.caseProblems, ...Object.values(assessment.slotProblems).flat()].some((problem) => problem.code === 'CASE_INVALID' || problem.code === 'REVIEW_INVALID')
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
    plan.edits[file].push({ path: state.path as PathSegment[], from: state.recorded!, to })
    changes.push({ location: formatLocation(state.file, state.path), from: state.recorded!, to })
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

function selectCases(fixture: Fixture, cases: readonly string[] | 'all'): string[] {
  const ids = fixture.cases.map((entry) => entry.id)
  if (cases === 'all') return ids
  const known = new Set(ids)
  for (const id of cases) {
    if (!known.has(id)) {
      throw new RevisionError({
        code: 'CASE_NOT_FOUND',
        file: fixture.files.cases?.display,
        summary: `there is no case "${id}"; nothing was written.`,
        expected: ids.length === 0 ? 'a case id (the fixture has no cases yet)' : `one of ${quoteSome(ids)}`,
        found: JSON.stringify(id),
        hint: 'pass the id of a case in cases.json, or --all.',
      })
    }
  }
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
