import { basename, join, relative } from 'node:path'
import { FixtureError, RubricError, type SerializedRubricError } from '../core/common/errors.js'
import {
  caseDecisionChanges,
  describeRecordChanges,
  differingParts,
  readRecordedDecisions,
  recordCases,
  recordDecisions,
  sameRecord,
  writeRecordedDecisions,
  type RecordedDecision,
  type RecordedDecisions,
} from '../core/engine/decision-record.js'
import type { ChunkPlan, TestPlan } from '../core/engine/plan.js'
import type { PlannedCheck } from '../core/contract/results.js'
import type { ExpectedDecisions, RecordComparison } from '../runtime/index.js'
import stableStringify from 'fast-json-stable-stringify'
import { payloadText, writePayload } from '../run/payload.js'
import type { PlanResult } from '../run/plan-fixture.js'
import { restComparison, type SettleOptions } from '../run/split-record.js'

export interface ModuleCodeOptions extends SettleOptions {
  /** Absolute path of the runtime module the generated code imports. */
  readonly runtime: string
  /** Vite's cache directory, where a plan not yet stored is written for the worker. */
  readonly cacheDir: string
  /** The test module's id (its marker file). */
  readonly moduleId: string
  /**
   * Checks declared beside the plan's (the compare gates', which depend on another fixture): in the
   * module's tests, never in the plan's cached payload or in the decision record.
   */
  readonly extraChecks?: readonly PlannedCheck[]
  /** Reads the decision record (once for every chunk of a split fixture); by default, from disk. */
  readonly readRecord?: (path: string, display: string) => Promise<RecordedDecisions | undefined>
}

/**
 * The JavaScript of a fixture's test module. The fixture is decided here, in the main process;
 * the module only names the file holding its tests (the plan less each case's figures), which the
 * worker reads: Vite then transforms two lines instead of megabytes of data. A fixture that cannot
 * be loaded becomes a module that fails with the error when collected.
 */
export async function fixtureModuleCode(dir: string, result: PlanResult<TestPlan | ChunkPlan>, options: ModuleCodeOptions): Promise<string> {
  const runtime = JSON.stringify(options.runtime)
  const fail = (error: SerializedRubricError) => `import { failRubricFixture } from ${runtime};\nfailRubricFixture(${JSON.stringify(error)});\n`
  if ('error' in result) return fail(result.error)
  try {
    const { plan } = result
    const { record, expected } =
      'chunk' in plan
        ? options.expect === 'record'
          ? { record: null, expected: await expectChunkRecord(dir, plan, options) }
          : { record: await compareChunkRecord(dir, plan, options), expected: null }
        : options.expect === 'record'
          ? await expectRecord(dir, plan, options)
          : { record: await compareRecord(dir, plan, options), expected: null }
    const extra = 'chunk' in plan ? [] : (options.extraChecks ?? [])
    const file =
      extra.length > 0 && !('chunk' in plan)
        ? await writePayload(options.cacheDir, options.moduleId, payloadText(withChecks(plan, extra)))
        : (result.file ?? (await writePayload(options.cacheDir, options.moduleId, payloadText(result.plan))))
    return `import { loadRubricTests } from ${runtime};\nloadRubricTests(${JSON.stringify(file)}, ${JSON.stringify(record)}, ${JSON.stringify(expected)});\n`
  } catch (error) {
    if (!(error instanceof RubricError)) throw error
    return fail(error.toJSON()) // an unreadable or malformed decision record
  }
}

/** The plan with more checks, for its module's tests. */
function withChecks(plan: TestPlan, checks: readonly PlannedCheck[]): TestPlan {
  return { ...plan, checks: [...plan.checks, ...checks] }
}

/**
 * Compares the plan with the directory's decision record, rewriting the record under `vitest -u`.
 * `null` when there is no record or it matches; otherwise the differences, with only the differing
 * parts of both records for Vitest's diff.
 */
async function compareRecord(dir: string, plan: TestPlan, options: ModuleCodeOptions): Promise<RecordComparison | null> {
  const path = join(dir, options.decisionRecord)
  const display = relative(options.root, path)
  const updateRecords = options.updateSnapshot === 'all'
  // Under `vitest -u` a record that no longer has the record format is rewritten like any other.
  const recorded = updateRecords
    ? await readRecordedDecisions(path, display, { root: options.root }).catch(() => null)
    : await readRecordedDecisions(path, display, { root: options.root })
  if (recorded === undefined) return null
  const current = recordDecisions(plan)
  if (recorded !== null && sameRecord(recorded, current)) return null
  if (recorded === null || updateRecords) {
    await writeRecordedDecisions(path, current, { root: options.root })
    return null
  }
  return { file: basename(path), changes: describeRecordChanges(recorded, current), ...differingParts(recorded, current) }
}

/**
 * With `expect: 'record'`: each case is expected to decide as the record says, compared in its own
 * test; the record's other parts (identities, checks, cases no longer in the fixture) are compared
 * for the module. A missing record is written, as Vitest writes a new snapshot, except where new
 * snapshots are not written (in CI): there the module fails, asking for the record to be committed.
 */
async function expectRecord(
  dir: string,
  plan: TestPlan,
  options: ModuleCodeOptions,
): Promise<{ record: RecordComparison | null; expected: ExpectedDecisions }> {
  const path = join(dir, options.decisionRecord)
  const display = relative(options.root, path)
  const file = basename(path)
  const rewrite = options.updateSnapshot === 'all'
  const recorded = rewrite
    ? await readRecordedDecisions(path, display, { root: options.root }).catch(() => null)
    : await readRecordedDecisions(path, display, { root: options.root })
  const current = recordDecisions(plan)
  if (recorded === undefined && options.updateSnapshot === 'none') throw recordMissing(display)
  if (recorded === undefined || recorded === null || rewrite) {
    if (recorded === undefined || recorded === null || !sameRecord(recorded, current)) await writeRecordedDecisions(path, current, { root: options.root })
    return { record: null, expected: { file, differing: {} } }
  }
  // The decisions are compared case by case: the module compares the rest, and the cases that left.
  return { record: restComparison(file, recorded, current), expected: { file, differing: differingDecisions(recorded, current.decisions) } }
}

/** The cases whose current decision differs from the recorded one, with both (`null` for a case the record lacks). */
function differingDecisions(recorded: RecordedDecisions, current: Readonly<Record<string, RecordedDecision>>): ExpectedDecisions['differing'] {
  const differing: Record<string, { recorded: unknown; current: unknown }> = {}
  for (const [id, decision] of Object.entries(current)) {
    const before = Object.hasOwn(recorded.decisions, id) ? recorded.decisions[id] : undefined
    if (before === undefined || stableStringify(before) !== stableStringify(decision)) {
      Object.defineProperty(differing, id, { value: { recorded: before ?? null, current: decision }, enumerable: true, writable: true, configurable: true })
    }
  }
  return differing
}

function recordMissing(display: string): FixtureError {
  return new FixtureError({
    code: 'RECORD_MISSING',
    file: display,
    summary: `expect: 'record' compares each case with the fixture's decision record, and there is none.`,
    hint: 'run vitest locally (it writes the record) or `vitest -u`, review the record, and commit it.',
  })
}

/**
 * A chunk's cases compared with the fixture's decision record. The rest of the record (the
 * identities, the checks, the cases no longer there) needs every case: it is compared, and under
 * `vitest -u` the record rewritten, once for the whole fixture at the end of the run.
 */
async function compareChunkRecord(dir: string, plan: ChunkPlan, options: ModuleCodeOptions): Promise<RecordComparison | null> {
  if (options.updateSnapshot === 'all') return null
  const path = join(dir, options.decisionRecord)
  const recorded = await (options.readRecord ?? ((file, shown) => readRecordedDecisions(file, shown, { root: options.root })))(
    path,
    relative(options.root, path),
  )
  if (recorded === undefined) return null
  const changes = caseDecisionChanges(recorded, recordCases(plan.cases))
  return changes === null ? null : { file: basename(path), ...changes }
}

/** With `expect: 'record'`: a chunk's cases, each expected to decide as the record says; the record is written for the whole fixture at the end of the run. */
async function expectChunkRecord(dir: string, plan: ChunkPlan, options: ModuleCodeOptions): Promise<ExpectedDecisions> {
  const path = join(dir, options.decisionRecord)
  const display = relative(options.root, path)
  const file = basename(path)
  const read = (options.readRecord ?? ((file, shown) => readRecordedDecisions(file, shown, { root: options.root })))(path, display)
  const rewrite = options.updateSnapshot === 'all'
  const recorded = rewrite ? await read.catch(() => null) : await read
  if (recorded === undefined && options.updateSnapshot === 'none') throw recordMissing(display)
  if (recorded === undefined || recorded === null || rewrite) return { file, differing: {} }
  return { file, differing: differingDecisions(recorded, recordCases(plan.cases)) }
}
