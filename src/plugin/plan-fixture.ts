import { RubricError, type SerializedRubricError } from '../core/common/errors.js'
import { evaluateFixture } from '../core/engine/evaluate.js'
import { loadFixtureReading } from '../core/engine/fixture.js'
import { planFixtureTests, type PlanOptions, type TestPlan } from '../core/engine/plan.js'
import { readFixtureFile, type FixtureFileReader } from '../core/json/read.js'

/**
 * A fixture's plan, or the error that refused the whole fixture. `file` is where the plan is
 * already stored as JSON (the plan cache), for the test worker to read.
 */
export type PlanResult = { readonly plan: TestPlan; readonly file?: string } | { readonly error: SerializedRubricError }

/** Loads and decides a fixture directory; a fixture-level defect is returned, not thrown. */
export async function planFixture(dir: string, root: string, read: FixtureFileReader = readFixtureFile, options: PlanOptions = {}): Promise<PlanResult> {
  try {
    const fixture = await loadFixtureReading(dir, { cwd: root }, read)
    const evaluation = evaluateFixture(fixture, {
      ...(options.panel === undefined ? {} : { panel: options.panel }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.marginGate === undefined ? {} : { marginGate: options.marginGate }),
    })
    return { plan: planFixtureTests(evaluation, options) }
  } catch (error) {
    if (error instanceof RubricError) return { error: error.toJSON() }
    throw error
  }
}
