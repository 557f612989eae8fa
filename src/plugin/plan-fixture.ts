import { RubricError, type SerializedRubricError } from '../core/errors.js'
import { evaluateFixture, loadFixture, planFixtureTests } from '../core/fixture.js'
import type { TestPlan } from '../core/plan.js'

/**
 * A fixture's plan, or the error that refused the whole fixture. `file` is where the plan is
 * already stored as JSON (the plan cache), for the test worker to read.
 */
export type PlanResult = { readonly plan: TestPlan; readonly file?: string } | { readonly error: SerializedRubricError }

/** Loads and decides a fixture directory; a fixture-level defect is returned, not thrown. */
export async function planFixture(dir: string, root: string): Promise<PlanResult> {
  try {
    return { plan: planFixtureTests(evaluateFixture(await loadFixture(dir, { cwd: root }))) }
  } catch (error) {
    if (error instanceof RubricError) return { error: error.toJSON() }
    throw error
  }
}
