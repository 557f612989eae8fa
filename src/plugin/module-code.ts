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
import type { PlanResult } from './context.js'

export interface ModuleCodeOptions {
  /** Absolute path of the runtime module the generated code imports. */
  readonly runtime: string
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
    // JSON.parse of a string literal is much faster to compile than an object literal.
    return `import { defineRubricTests } from ${runtime};\ndefineRubricTests(JSON.parse(${JSON.stringify(JSON.stringify(module))}));\n`
  } catch (error) {
    if (!(error instanceof RubricError)) throw error
    return `import { failRubricFixture } from ${runtime};\nfailRubricFixture(${JSON.stringify(error.toJSON())});\n`
  }
}

/** Compares the plan with the directory's decision record, rewriting the record under `vitest -u`. */
async function moduleWithRecord(dir: string, plan: TestPlan, options: ModuleCodeOptions): Promise<RubricModule> {
  const recordPath = join(dir, options.record)
  const current = recordDecisions(plan)
  let recorded = await readRecordedDecisions(recordPath, relative(options.root, recordPath))
  if (recorded === undefined) return { plan, record: null }
  if (options.updateRecords && !sameRecord(recorded, current)) {
    await writeRecordedDecisions(recordPath, current)
    recorded = current
  }
  const changes = sameRecord(recorded, current) ? [] : describeRecordChanges(recorded, current)
  return { plan, record: { file: basename(recordPath), recorded, current, changes } }
}
