import type { Vitest } from 'vitest/node'
import { RubricError, type SerializedRubricError } from '../core/errors.js'
import { evaluateFixture, loadFixture, planFixtureTests } from '../core/fixture.js'
import type { TestPlan } from '../core/plan.js'
import { discoverFixtures, type DiscoveredFixture } from './discover.js'
import type { ResolvedRubricOptions } from './options.js'

/** A fixture's plan, or the error that refused the whole fixture. */
export type PlanResult = { readonly plan: TestPlan } | { readonly error: SerializedRubricError }

/**
 * What the plugin and the reporter share in the main process: the options and the plans already
 * computed for this run's test modules, so the reporter's figures come from the same evaluation.
 */
export interface RubricContext {
  readonly options: ResolvedRubricOptions
  readonly root: string
  /** Plans by test module id (the fixture's marker file), filled as modules are loaded. */
  readonly plans: Map<string, PlanResult>
}

const contexts = new WeakMap<Vitest, RubricContext>()

export function setRubricContext(vitest: Vitest, context: RubricContext): void {
  contexts.set(vitest, context)
}

export function getRubricContext(vitest: Vitest): RubricContext | undefined {
  return contexts.get(vitest)
}

/** Loads and decides a fixture directory; a fixture-level defect is returned, not thrown. */
export async function planFixture(dir: string, root: string): Promise<PlanResult> {
  try {
    return { plan: planFixtureTests(evaluateFixture(await loadFixture(dir, { cwd: root }))) }
  } catch (error) {
    if (error instanceof RubricError) return { error: error.toJSON() }
    throw error
  }
}

/** Every fixture on disk with its plan: the denominators, whatever part of them ran. */
export async function planAllFixtures(context: RubricContext): Promise<{ fixture: DiscoveredFixture; result: PlanResult }[]> {
  const found = await discoverFixtures(context.root, context.options.include, context.options.exclude)
  return Promise.all(
    found.map(async (fixture) => ({
      fixture,
      result: context.plans.get(fixture.moduleId) ?? (await planFixture(fixture.dir, context.root)),
    })),
  )
}
