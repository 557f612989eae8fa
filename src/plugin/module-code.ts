import { basename, join, relative } from 'node:path'
import { RubricError, type SerializedRubricError } from '../core/common/errors.js'
import {
  describeRecordChanges,
  differingParts,
  readRecordedDecisions,
  recordDecisions,
  sameRecord,
  writeRecordedDecisions,
} from '../core/engine/decision-record.js'
import type { TestPlan } from '../core/engine/plan.js'
import type { RecordComparison } from '../runtime/index.js'
import { writePayload } from './payload.js'
import type { PlanResult } from './plan-fixture.js'

export interface ModuleCodeOptions {
  /** Absolute path of the runtime module the generated code imports. */
  readonly runtime: string
  /** Vite's cache directory, where a plan not yet stored is written for the worker. */
  readonly cacheDir: string
  /** The test module's id (its marker file). */
  readonly moduleId: string
  /** The project root: paths in messages are shown relative to it. */
  readonly root: string
  /** The decision record's file name. */
  readonly decisionRecord: string
  /** Rewrite records from this run's decisions (`vitest -u`). */
  readonly updateRecords: boolean
}

/**
 * The JavaScript of a fixture's test module. The fixture is decided here, in the main process;
 * the module only names the file holding the plan, which the worker reads: Vite then transforms
 * two lines instead of megabytes of data. A fixture that cannot be loaded becomes a module that
 * fails with the error when collected.
 */
export async function fixtureModuleCode(dir: string, result: PlanResult, options: ModuleCodeOptions): Promise<string> {
  const runtime = JSON.stringify(options.runtime)
  const fail = (error: SerializedRubricError) =>
    `import { failRubricFixture } from ${runtime};\nfailRubricFixture(${JSON.stringify(error)});\n`
  if ('error' in result) return fail(result.error)
  try {
    const record = await compareRecord(dir, result.plan, options)
    const file = result.file ?? (await writePayload(options.cacheDir, options.moduleId, JSON.stringify(result.plan)))
    return `import { loadRubricTests } from ${runtime};\nloadRubricTests(${JSON.stringify(file)}, ${JSON.stringify(record)});\n`
  } catch (error) {
    if (!(error instanceof RubricError)) throw error
    return fail(error.toJSON()) // an unreadable or malformed decision record
  }
}

/**
 * Compares the plan with the directory's decision record, rewriting the record under `vitest -u`.
 * `null` when there is no record or it matches; otherwise the differences, with only the differing
 * parts of both records for Vitest's diff.
 */
async function compareRecord(dir: string, plan: TestPlan, options: ModuleCodeOptions): Promise<RecordComparison | null> {
  const path = join(dir, options.decisionRecord)
  const display = relative(options.root, path)
  // Under `vitest -u` a record that no longer has the record format is rewritten like any other.
  const recorded = options.updateRecords
    ? await readRecordedDecisions(path, display).catch(() => null)
    : await readRecordedDecisions(path, display)
  if (recorded === undefined) return null
  const current = recordDecisions(plan)
  if (recorded !== null && sameRecord(recorded, current)) return null
  if (recorded === null || options.updateRecords) {
    await writeRecordedDecisions(path, current)
    return null
  }
  return { file: basename(path), changes: describeRecordChanges(recorded, current), ...differingParts(recorded, current) }
}
