import { kinds } from '../core/registry.js'
import { RubricError, type SerializedRubricError } from '../core/common/errors.js'
import { evaluateFixture, type EvaluateOptions, type SomeEvaluation } from '../core/engine/evaluate.js'
import { loadFixtureReading, type SomeFixture } from '../core/engine/fixture.js'
import { planChunkTests, planFixtureTests, type CaseChunk, type ChunkPlan, type PlanOptions, type TestPlan } from '../core/engine/plan.js'
import { readFixtureFile, type FixtureFileReader } from '../core/json/read.js'

/**
 * A fixture's plan (or a chunk's), or the error that refused the whole fixture. `file` is where
 * its module's test payload is already stored (beside the plan cache), for the test worker to read.
 */
export type PlanResult<P = TestPlan> = { readonly plan: P; readonly file?: string } | { readonly error: SerializedRubricError }

/** Loads and decides a fixture directory; a fixture-level defect is returned, not thrown. */
export async function planFixture(dir: string, root: string, read: FixtureFileReader = readFixtureFile, options: PlanOptions = {}): Promise<PlanResult> {
  return refusing(async () => planLoaded(await loadFixtureReading(kinds, dir, { cwd: root }, read), options))
}

/** Decides a fixture already loaded. */
export function planLoaded(fixture: SomeFixture, options: PlanOptions = {}): TestPlan {
  return planFixtureTests(evaluateForPlan(fixture, options), options)
}

/** Every case of a loaded fixture decided under a plan's options. */
export function evaluateForPlan(fixture: SomeFixture, options: PlanOptions = {}): SomeEvaluation {
  return evaluateFixture(fixture, evaluateOptionsOf(options))
}

/** What a plan's options ask of the evaluation: the several-reviewer rule, the seed, the margin gate. */
export function evaluateOptionsOf(options: PlanOptions): EvaluateOptions {
  return {
    ...(options.panel === undefined ? {} : { panel: options.panel }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.marginGate === undefined ? {} : { marginGate: options.marginGate }),
  }
}

/** Decides one chunk of a fixture, loading it once for every chunk (`load`); a fixture-level defect is returned, not thrown. */
export function planChunk(load: () => Promise<SomeFixture>, chunk: CaseChunk, options: PlanOptions = {}): Promise<PlanResult<ChunkPlan>> {
  return refusing(async () => planChunkTests(await load(), chunk, options))
}

/** The plan, or the fixture-level defect that refused it. */
export async function refusing<P>(plan: () => Promise<P>): Promise<PlanResult<P>> {
  try {
    return { plan: await plan() }
  } catch (error) {
    if (error instanceof RubricError) return { error: error.toJSON() }
    throw error
  }
}
