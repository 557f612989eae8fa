import type { Vitest } from 'vitest/node'
import { discoverFixtures, type DiscoveredFixture } from './discover.js'
import type { ResolvedRubricOptions } from './options.js'
import { cachedPlan } from './plan-cache.js'
import { planFixture, type PlanResult } from './plan-fixture.js'

export type { PlanResult } from './plan-fixture.js'

/**
 * What the plugin and the reporter share in the main process: the options and the plans already
 * computed for this run's test modules, so the reporter's figures come from the same evaluation.
 */
export interface RubricContext {
  readonly options: ResolvedRubricOptions
  readonly root: string
  /** Where plans are cached; `undefined` when caching is off. */
  readonly cacheDir: string | undefined
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

/** Every fixture on disk with its plan: the denominators, whatever part of them ran. */
export async function planAllFixtures(context: RubricContext): Promise<{ fixture: DiscoveredFixture; result: PlanResult }[]> {
  const found = await discoverFixtures(context.root, context.options.include, context.options.exclude)
  return Promise.all(
    found.map(async (fixture) => ({
      fixture,
      result: context.plans.get(fixture.moduleId) ?? (await planWithContext(context, fixture.dir)),
    })),
  )
}

/** Plans a fixture, through the cache when the context has one. */
export function planWithContext(context: RubricContext, dir: string): Promise<PlanResult> {
  return context.cacheDir === undefined ? planFixture(dir, context.root) : cachedPlan(dir, context.root, context.cacheDir)
}
