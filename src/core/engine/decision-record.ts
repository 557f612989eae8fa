import { readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import stableStringify from 'fast-json-stable-stringify'
import { z } from 'zod'
import { FixtureError } from '../common/errors.js'
import { errnoCode, isObject, own } from '../common/primitives.js'
import { displayPath } from '../common/display-path.js'
import { sha256Hex } from '../json/canonical-json.js'
import { writeProjectFiles } from '../json/project-write.js'
import { confineToProject, parseJsonFile, projectBoundary } from '../json/read.js'
import { checkFileDocument } from '../json/schema-error.js'
import type { SomeEvaluation } from './evaluate.js'
import type { FixtureIdentities } from '../contract/results.js'
import { planFixtureTests, type TestPlan } from './plan.js'
import type { JsonValue, PlannedCase } from '../contract/results.js'

/**
 * The committed record of a fixture's decisions and of the revisions they were made from, kept in
 * the fixture directory so that changing a decision is a visible, reviewable change.
 */
export interface RecordedDecisions {
  readonly kind: string
  readonly name: string
  readonly identities: FixtureIdentities
  readonly decisions: Readonly<Record<string, RecordedDecision>>
  /** SomeFixture-level checks by name: passed or not. */
  readonly checks: Readonly<Record<string, boolean>>
}

/** One case in the record: its status, split and reason, and the kind's figures (`ratings`, `scores`). */
export interface RecordedDecision {
  readonly status: string
  readonly split: string
  readonly reason: string
  readonly [detail: string]: JsonValue
}

const RecordedDecisionsSchema = z.strictObject({
  // Any kind's name: a record of a kind other than the fixture's is a change of kind, which the comparison names.
  kind: z.string(),
  name: z.string(),
  identities: z.strictObject({
    caseSetSha256: z.string().nullable(),
    gradedSetSha256: z.string().nullable(),
    files: z.record(z.string(), z.string()),
  }),
  decisions: z.record(
    z.string(),
    z.looseObject({
      status: z.string(),
      split: z.string(),
      reason: z.string(),
      ratings: z.record(z.string(), z.string()).optional(),
      scores: z.record(z.string(), z.number().nullable()).optional(),
    }),
  ),
  checks: z.record(z.string(), z.boolean()),
})

/**
 * The decision record of an evaluation as it is now: what `vitest-rubric decisions` writes, to
 * compare with a committed record ({@link sameRecord}, {@link describeRecordChanges}) or to write
 * ({@link writeRecordedDecisions}).
 */
export function decisionRecordOf(evaluation: SomeEvaluation): RecordedDecisions {
  return recordDecisions(planFixtureTests(evaluation))
}

/** What a record of this plan holds now. */
export function recordDecisions(plan: TestPlan): RecordedDecisions {
  return {
    kind: plan.kind,
    name: plan.name,
    identities: plan.identities,
    decisions: recordCases(plan.cases),
    checks: Object.fromEntries(plan.checks.map((check) => [check.name, check.ok])),
  }
}

/** The record's entries of some planned cases, by case id. */
export function recordCases(cases: readonly PlannedCase[]): Record<string, RecordedDecision> {
  return Object.fromEntries(cases.map(({ id, status, split, reason, detail }) => [id, { status, split, reason, ...detail }]))
}

/**
 * How the current decisions of some cases (a chunk of the fixture) differ from a record's: one
 * line per differing case, and the differing entries of both for a diff (`null` for a case the
 * record lacks). `null` when every one of them is as recorded.
 */
export function caseDecisionChanges(
  recorded: RecordedDecisions,
  current: Readonly<Record<string, RecordedDecision>>,
): { readonly changes: readonly string[]; readonly recorded: unknown; readonly current: unknown } | null {
  const ids = Object.keys(current).filter((id) => stableStringify(own(recorded.decisions, id) ?? null) !== stableStringify(own(current, id)))
  if (ids.length === 0) return null
  const only = (decisions: Readonly<Record<string, RecordedDecision>>): RecordedDecisions => ({
    kind: recorded.kind,
    name: recorded.name,
    identities: recorded.identities,
    decisions: pick(decisions, ids),
    checks: {},
  })
  return {
    changes: describeRecordChanges(only(recorded.decisions), only(current)),
    recorded: { decisions: Object.fromEntries(ids.map((id) => [id, own(recorded.decisions, id) ?? null])) },
    current: { decisions: pick(current, ids) },
  }
}

/**
 * A record less the decisions of the cases `current` holds: what is left to compare once those
 * cases are compared one by one (the identities, the checks, and the cases no longer there).
 */
export function recordWithout(record: RecordedDecisions, current: Readonly<Record<string, unknown>>): RecordedDecisions {
  return { ...record, decisions: Object.fromEntries(Object.entries(record.decisions).filter(([id]) => !Object.hasOwn(current, id))) }
}

function pick(decisions: Readonly<Record<string, RecordedDecision>>, ids: readonly string[]): Record<string, RecordedDecision> {
  const picked: Record<string, RecordedDecision> = {}
  for (const id of ids) {
    const decision = own(decisions, id)
    // defineProperty: a case id "__proto__" stays a case.
    if (decision !== undefined) Object.defineProperty(picked, id, { value: decision, enumerable: true, writable: true, configurable: true })
  }
  return picked
}

/** Whether two records say the same, whatever the order of their keys. */
export function sameRecord(a: RecordedDecisions, b: RecordedDecisions): boolean {
  return stableStringify(a) === stableStringify(b)
}

/** Where a decision record may be read and written. */
export interface RecordFileOptions {
  /**
   * The project root: the record's real path must lie inside it (or inside its fixture directory,
   * for a fixture outside the root), so a symbolic link to a file elsewhere is refused
   * (`FILE_OUTSIDE_PROJECT`) as every other fixture file is.
   * @default the working directory
   */
  readonly root?: string
}

/**
 * Reads a record file; `undefined` when the directory keeps none. A record that cannot be read,
 * that is a symbolic link leading outside the project, or does not have the record format is a
 * {@link FixtureError}.
 */
export async function readRecordedDecisions(path: string, display: string, options: RecordFileOptions = {}): Promise<RecordedDecisions | undefined> {
  await confineToProject(path, display, recordBoundary(path, options))
  let bytes: Uint8Array
  try {
    bytes = await readFile(path)
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined
    throw new FixtureError({
      code: 'FILE_UNREADABLE',
      file: display,
      summary: `the decision record cannot be read (${errnoCode(error) ?? String(error)}).`,
      hint: 'check the file permissions.',
    })
  }
  const document = parseJsonFile({ display, bytes })
  checkFileDocument(RecordedDecisionsSchema, document, {
    file: display,
    code: 'FILE_SCHEMA',
    hint: 'restore the record from version control, or rewrite it from the current decisions with `vitest -u`.',
  })
  // The document as written, now known to have the record format: zod leaves a case id "__proto__" out of what it returns.
  // Cast: the record schema accepted the document just above (see the line before).
  return document as RecordedDecisions
}

/**
 * The parts of two records that differ, for a diff: the identities, the checks, and only the
 * cases whose decisions differ, compared as `sameRecord` compares (whatever the order of keys).
 */
export function differingParts(recorded: RecordedDecisions, current: RecordedDecisions): { recorded: unknown; current: unknown } {
  const ids = [...new Set([...Object.keys(recorded.decisions), ...Object.keys(current.decisions)])].filter(
    (id) => stableStringify(own(recorded.decisions, id) ?? null) !== stableStringify(own(current.decisions, id) ?? null),
  )
  const pick = (record: RecordedDecisions) => ({
    identities: record.identities,
    decisions: Object.fromEntries(ids.map((id) => [id, own(record.decisions, id) ?? null])),
    checks: record.checks,
  })
  return { recorded: pick(recorded), current: pick(current) }
}

/**
 * Writes a record as stable, diff-friendly JSON, as every fixture file is written: refused when its
 * real path leads outside the project (see {@link RecordFileOptions.root}), under the fixture's
 * lock, and atomically (a new file renamed over the old one, so a reader sees the old record or the
 * new, and a link inside the project is replaced, not written through).
 */
export async function writeRecordedDecisions(path: string, record: RecordedDecisions, options: RecordFileOptions = {}): Promise<void> {
  const display = displayPath(options.root ?? process.cwd(), path)
  await confineToProject(path, display, recordBoundary(path, options))
  const before = await readFile(path).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return undefined
    throw new FixtureError({
      code: 'FILE_UNREADABLE',
      file: display,
      summary: `the decision record cannot be read (${errnoCode(error) ?? String(error)}), so it is not replaced.`,
      hint: 'check the file permissions and that the path is a regular file.',
    })
  })
  const contents = `${JSON.stringify(record, null, 2)}\n`
  // The record replaces whatever it held (that is the request); only a save in between is refused.
  await writeProjectFiles([{ path, display, contents, basedOn: before === undefined ? null : sha256Hex(before) }], {
    boundary: recordBoundary(path, options),
    lockDir: dirname(path),
    cwd: options.root ?? process.cwd(),
  })
}

/** The folder a record's real path must lie in: the project, or its fixture directory when that is outside the project. */
function recordBoundary(path: string, options: RecordFileOptions): string {
  return projectBoundary(options.root ?? process.cwd(), dirname(path))
}

/** One readable line per difference between a record and the current decisions. */
export function describeRecordChanges(recorded: RecordedDecisions, current: RecordedDecisions): string[] {
  const changes: string[] = []
  if (recorded.kind !== current.kind || recorded.name !== current.name) {
    changes.push(`fixture: ${recorded.kind} "${recorded.name}" → ${current.kind} "${current.name}"`)
  }
  if (recorded.identities.caseSetSha256 !== current.identities.caseSetSha256) {
    changes.push(`full case set: ${short(recorded.identities.caseSetSha256)} → ${short(current.identities.caseSetSha256)}`)
  }
  if (recorded.identities.gradedSetSha256 !== current.identities.gradedSetSha256) {
    changes.push(`graded subset: ${short(recorded.identities.gradedSetSha256)} → ${short(current.identities.gradedSetSha256)}`)
  }
  for (const file of union(Object.keys(recorded.identities.files), Object.keys(current.identities.files))) {
    const before = own(recorded.identities.files, file)
    const after = own(current.identities.files, file)
    if (before !== after) changes.push(`${file}: ${short(before)} → ${short(after)}`)
  }
  for (const id of union(Object.keys(recorded.decisions), Object.keys(current.decisions))) {
    const before = own(recorded.decisions, id)
    const after = own(current.decisions, id)
    if (before === undefined) changes.push(`${id}: new case, ${describe(after)}`)
    else if (after === undefined) changes.push(`${id}: was ${describe(before)}, now gone`)
    else if (before.status !== after.status || before.reason !== after.reason) changes.push(`${id}: ${describe(before)} → ${describe(after)}`)
    else {
      const detail = detailChanges(before, after)
      if (before.split !== after.split) detail.unshift(`split ${before.split} → ${after.split}`)
      if (detail.length > 0) changes.push(`${id}: ${detail.join(', ')}`)
    }
  }
  for (const name of union(Object.keys(recorded.checks), Object.keys(current.checks))) {
    const before = own(recorded.checks, name)
    const after = own(current.checks, name)
    if (before !== after) changes.push(`check "${name}": ${passed(before)} → ${passed(after)}`)
  }
  return changes
}

function describe(decision: RecordedDecision | undefined): string {
  if (decision === undefined) return 'absent'
  return decision.reason === '' ? decision.status : `${decision.status} (${decision.reason})`
}

/** The changes of a case's figures: every key beyond status, split and reason whose value is an object of ratings or scores. */
function detailChanges(before: RecordedDecision, after: RecordedDecision): string[] {
  const keys = union(Object.keys(before), Object.keys(after)).filter((key) => key !== 'status' && key !== 'split' && key !== 'reason')
  return keys.flatMap((key) => valueChanges(asRecord(own(before, key)), asRecord(own(after, key))))
}

function asRecord(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return isObject(value) ? value : undefined
}

function valueChanges(before: Readonly<Record<string, unknown>> | undefined, after: Readonly<Record<string, unknown>> | undefined): string[] {
  const changes: string[] = []
  for (const key of union(Object.keys(before ?? {}), Object.keys(after ?? {}))) {
    const from = own(before, key)
    const to = own(after, key)
    if (from !== to) changes.push(`${key} ${shown(from)} → ${shown(to)}`)
  }
  return changes
}

/** A rating or score as a change shows it: a score of `null` is N/A, not a missing one. */
function shown(value: unknown): string {
  return value === undefined ? 'absent' : value === null ? 'N/A' : String(value)
}

function passed(value: boolean | undefined): string {
  return value === undefined ? 'absent' : value ? 'passed' : 'failed'
}

function short(sha: string | null | undefined): string {
  return sha === undefined ? 'absent' : sha === null ? 'none' : `${sha.slice(0, 12)}…`
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])]
}
