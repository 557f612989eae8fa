import { join } from 'node:path'
import { writeFilesAtomically, nodeWriteIo, type FileWrite, type WriteIo } from '../atomic-write.js'
import { sha256Hex } from '../canonical-json.js'
import { RevisionError } from '../errors.js'
import { evaluateFixture, loadFixtureReading, type Fixture, type FixtureEvaluation } from '../fixture.js'
import { editJsonStrings, type StringEdit } from '../json-edit.js'
import { formatLocation, type PathSegment } from '../json-path.js'
import { decodeText, readFixtureFile, type RawFile } from '../read.js'
import { criteriaCaseRevisions } from './criteria.js'
import type { CaseRevisions } from './model.js'
import { scoredCaseRevisions } from './scored.js'

export interface BindOptions {
  /** The case ids to bind, or every case that has a review. */
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

export interface BoundCase {
  readonly id: string
  /** Empty when every hash was current already. */
  readonly changes: readonly HashChange[]
  /** The case's decision once bound: `accepted`, `rejected`, `pending (uncertain on support)`. */
  readonly decision: string
}

export interface BindResult {
  readonly dir: string
  readonly cases: readonly BoundCase[]
  /** With `cases: 'all'`: the cases left alone because they have no review to bind. */
  readonly skipped: readonly string[]
  /** The files written (none under `dryRun`, or when nothing changed). */
  readonly written: readonly string[]
}

/**
 * The explicit revision: a reviewer who has re-read a case's answer (or output) against the current
 * source and rubric records that the review applies to them. Every binding hash of the review and
 * of the case gets the value of the files as they are now, and the case acknowledges the review's
 * new revision. Only `cases.json` and `annotations.json` change, and only in those hashes; the
 * rubric and source, whose bytes the hashes describe, are never written. Nothing is written when a
 * case has no review, or would still be refused once bound (a judgement of a removed criterion, a
 * quote the rubric no longer has): the judgements must be revised first.
 */
export async function bindFixture(dir: string, options: BindOptions): Promise<BindResult> {
  const read = new Map<string, RawFile>()
  const reader = async (path: string, display: string) => {
    const file = read.get(path) ?? (await readFixtureFile(path, display))
    read.set(path, file)
    return file
  }
  const fixture = await loadFixtureReading(dir, { cwd: options.cwd }, reader)
  const files = fileNames(fixture)
  const plan = planEdits(fixture, selectCases(fixture, options.cases), options.cases === 'all')

  // The edited texts, from exactly the bytes the fixture was loaded from.
  const paths = { cases: join(fixture.dir, 'cases.json'), annotations: join(fixture.dir, 'annotations.json') }
  const edited = (file: 'cases' | 'annotations') => {
    const original = read.get(paths[file])!
    const edits = plan.edits[file]
    const bytes = edits.length === 0 ? original.bytes : encode(editJsonStrings(decodeText(original), files[file], edits))
    return { original, updated: { ...original, bytes }, write: fileWrite(paths[file], files[file], original, bytes) }
  }
  const annotations = edited('annotations')
  const cases = edited('cases')

  // Decide the bound cases on the new contents before anything is written.
  const after = evaluateFixture(
    await loadFixtureReading(dir, { cwd: options.cwd }, async (path, display) =>
      path === paths.cases ? cases.updated : path === paths.annotations ? annotations.updated : reader(path, display),
    ),
  )
  const afterById = new Map(after.decisions.map((decision) => [decision.id, decision]))
  const bound = [...plan.changes.keys()]
  const stillRefused = bound.filter((id) => refusalAfterBinding(afterById.get(id)!).length > 0)
  if (stillRefused.length > 0) {
    const messages = stillRefused.flatMap((id) => refusalAfterBinding(afterById.get(id)!))
    throw new RevisionError({
      code: 'BIND_STILL_REFUSED',
      file: files.annotations,
      summary: `once bound, ${stillRefused.length === 1 ? 'a case would still be refused, so its judgements do' : `${stillRefused.length} cases would still be refused, so their judgements do`} not fit the current files; nothing was written.\n${messages.map(indent).join('\n')}`,
      hint: 'revise the review as the message says (a rubric revision needs revised judgements, not only new hashes), then bind again.',
    })
  }

  const writes = [annotations, cases].filter((file) => file.updated.bytes !== file.original.bytes).map((file) => file.write)
  if (!options.dryRun) await writeFilesAtomically(writes, options.io ?? nodeWriteIo)
  return {
    dir: fixture.displayDir,
    cases: bound.map((id) => ({ id, changes: plan.changes.get(id)!, decision: decisionAfter(afterById.get(id)!) })),
    skipped: plan.skipped,
    written: options.dryRun ? [] : writes.map((write) => write.display),
  }
}

interface EditPlan {
  readonly edits: { readonly cases: StringEdit[]; readonly annotations: StringEdit[] }
  /** The hash changes of each case to bind, in the order of the selection. */
  readonly changes: Map<string, HashChange[]>
  readonly skipped: string[]
}

/**
 * Every hash to replace: the reviews' bindings, the case's own, then the revision the case records
 * of each review once bound. A case with no review is skipped under `--all` and refused by id.
 */
function planEdits(fixture: Fixture, selected: readonly string[], all: boolean): EditPlan {
  const files = fileNames(fixture)
  const plan: EditPlan = { edits: { cases: [], annotations: [] }, changes: new Map(), skipped: [] }
  const indexById = new Map(fixture.cases.map((entry, index) => [entry.id, index]))
  for (const id of selected) {
    const revisions = revisionsOf(fixture, indexById.get(id)!)
    if (revisions === undefined) {
      throw new RevisionError({
        code: 'BIND_STILL_REFUSED',
        file: files.cases,
        caseId: id,
        summary: `the case or its review is malformed, so it has no hashes to bind; nothing was written.\n${indent(refusalOf(fixture, id))}`,
        hint: 'fix what the message names, then bind again.',
      })
    }
    const reviewed = revisions.reviews.filter((review) => review.path !== null)
    if (reviewed.length === 0) {
      if (!all) throw noReview(fixture, revisions, files.annotations)
      plan.skipped.push(id)
      continue
    }
    const changes: HashChange[] = []
    const change = (file: 'cases' | 'annotations', path: readonly PathSegment[], from: string, to: string) => {
      if (from === to) return
      plan.edits[file].push({ path, from, to })
      changes.push({ location: formatLocation(files[file], path), from, to })
    }
    for (const field of [...reviewed.flatMap((review) => review.fields), ...revisions.fields]) change(field.file, field.path, field.recorded, field.current)
    for (const review of reviewed) change('cases', review.acknowledgement.path, review.acknowledgement.recorded, review.boundSha256)
    plan.changes.set(id, changes)
  }
  return plan
}

function fileNames(fixture: Fixture): { cases: string; annotations: string } {
  return fixture.kind === 'criteria' ? fixture.bound.files : fixture.fileNames
}

function revisionsOf(fixture: Fixture, index: number): CaseRevisions | undefined {
  return fixture.kind === 'criteria' ? criteriaCaseRevisions(fixture, fixture.cases[index]!) : scoredCaseRevisions(fixture, fixture.cases[index]!)
}

function selectCases(fixture: Fixture, cases: readonly string[] | 'all'): string[] {
  const ids = fixture.cases.map((entry) => entry.id)
  if (cases === 'all') return ids
  const known = new Set(ids)
  for (const id of cases) {
    if (!known.has(id)) {
      throw new RevisionError({
        code: 'CASE_NOT_FOUND',
        file: fileNames(fixture).cases,
        summary: `there is no case "${id}"; nothing was written.`,
        expected: ids.length === 0 ? 'a case id (the fixture has no cases yet)' : `one of ${ids.map((each) => JSON.stringify(each)).join(', ')}`,
        found: JSON.stringify(id),
        hint: 'pass the id of a case in cases.json, or --all.',
      })
    }
  }
  return [...new Set(cases)]
}

function noReview(fixture: Fixture, revisions: CaseRevisions, annotations: string): RevisionError {
  const withdrawn = revisions.reviews.some((review) => review.acknowledgement.recorded !== review.nowSha256)
  return new RevisionError({
    code: 'NO_REVIEW_TO_BIND',
    file: annotations,
    caseId: revisions.id,
    summary: `the case has no ${fixture.kind === 'criteria' ? 'review' : 'debate or baseline review'}: binding records that a review applies to the current files, and there is none; nothing was written.`,
    hint: withdrawn
      ? 'the case still records a review that was removed: restore it, or acknowledge the withdrawal by setting the case\'s review hash to the fingerprint of null (see `vitest-rubric status`).'
      : 'add the reviewer\'s review to annotations.json, then bind it.',
  })
}

/** The refusal messages a bound case would still get: its own, or its baseline review's. */
function refusalAfterBinding(decision: FixtureEvaluation['decisions'][number]): string[] {
  const messages: string[] = []
  if (decision.status === 'refused') messages.push(decision.error.message)
  // A refused scored case refuses its baseline with the same error: one message, not two.
  if ('baseline' in decision && decision.baseline.status === 'refused' && !messages.includes(decision.baseline.error.message)) {
    messages.push(decision.baseline.error.message)
  }
  return messages
}

function decisionAfter(decision: FixtureEvaluation['decisions'][number]): string {
  return decision.status === 'pending' ? `pending (${decision.reason})` : decision.status
}

/** Why a case is refused as the files stand: only asked for a case that cannot be bound. */
function refusalOf(fixture: Fixture, id: string): string {
  return refusalAfterBinding(evaluateFixture(fixture).decisions.find((decision) => decision.id === id)!).join('\n')
}

function fileWrite(path: string, display: string, original: RawFile, bytes: Uint8Array): FileWrite {
  return { path, display, contents: bytes, basedOn: sha256Hex(original.bytes) }
}

function encode(text: string): Uint8Array {
  return new TextEncoder().encode(text)
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')
}

