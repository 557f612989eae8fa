import { basename, join, relative } from 'node:path'
import { RubricError } from '../core/errors.js'
import type { TestPlan } from '../core/plan.js'
import {
  describeRecordChanges,
  readRecordedDecisions,
  recordDecisions,
  sameRecord,
  writeRecordedDecisions,
} from '../core/recorded-decisions.js'
import type { RubricModule } from '../runtime/index.js'
import type { PlanResult } from './plan-fixture.js'
import { writePayload } from './payload.js'

export interface ModuleCodeOptions {
  /** Absolute path of the runtime module the generated code imports. */
  readonly runtime: string
  /** Vite's cache directory, where the module's data is written. */
  readonly cacheDir: string
  /** The test module's id (its marker file). */
  readonly moduleId: string
  /** The project root: paths in messages are shown relative to it. */
  readonly root: string
  /** The decision record's file name. */
  readonly record: string
  /** Rewrite records from this run's decisions (`vitest -u`). */
  readonly updateRecords: boolean
}

/**
 * The JavaScript of a fixture's test module: the fixture is loaded and decided here, in the main
 * process, and the worker only declares tests from the resulting plan. A fixture that cannot be
 * loaded becomes a module that fails with the error when collected.
 */
export async function fixtureModuleCode(dir: string, result: PlanResult, options: ModuleCodeOptions): Promise<string> {
  const runtime = JSON.stringify(options.runtime)
  if ('error' in result) return `import { failRubricFixture } from ${runtime};\nfailRubricFixture(${JSON.stringify(result.error)});\n`
  try {
    const module = await moduleWithRecord(dir, result.plan, options)
    const payload = await writePayload(options.cacheDir, options.moduleId, JSON.stringify(module))
    return `import { loadRubricTests } from ${runtime};\nloadRubricTests(${JSON.stringify(payload)});\n`
  } catch (error) {
    if (!(error instanceof RubricError)) throw error
    return `import { failRubricFixture } from ${runtime};\nfailRubricFixture(${JSON.stringify(error.toJSON())});\n`
  }
}

/** Compares the plan with the directory's decision record, rewriting the record under `vitest -u`. */
async function moduleWithRecord(dir: string, plan: TestPlan, options: ModuleCodeOptions): Promise<RubricModule> {
  const recordPath = join(dir, options.record)
  const display = relative(options.root, recordPath)
  // Under `vitest -u` a record that no longer has the record format is rewritten like any other.
  let recorded = options.updateRecords
    ? await readRecordedDecisions(recordPath, display).catch(() => null)
    : await readRecordedDecisions(recordPath, display)
  if (recorded === undefined) return { plan, record: null }
  const current = recordDecisions(plan)
  if (recorded === null || (options.updateRecords && !sameRecord(recorded, current))) {
    await writeRecordedDecisions(recordPath, current)
    recorded = current
  }
  const changes = sameRecord(recorded, current) ? [] : describeRecordChanges(recorded, current)
  return { plan, record: { file: basename(recordPath), recorded, current, changes } }
}
