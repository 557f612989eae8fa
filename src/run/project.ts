import { kinds } from '../core/registry.js'
import { recoverForRun } from './recover.js'
import { discoverFixtures, type DiscoveredFixture } from '../core/engine/discover.js'
import type { ComparisonGateReport } from '../core/compare/gate.js'
import type { ChunkLayout } from './chunks.js'
import { comparisonsOf } from './comparisons.js'
import { estimatesOf, type FixtureEstimates } from './estimates.js'
import { FixtureSession } from './fixture-session.js'
import type { KeptEvaluations } from './kept.js'
import type { ResolvedRubricOptions } from './options.js'
import { planOptions, type GateScopes } from './gate-scope.js'
import { cachedPlan } from './plan-cache.js'
import { planFixture, type PlanResult } from './plan-fixture.js'

export type { PlanResult } from './plan-fixture.js'
export { planOptions } from './gate-scope.js'

/**
 * What one Vitest project's use of the plugin holds in the main process: its options and the plans
 * already computed for its test modules, so the reporter's figures come from the same evaluation.
 * The plugin hands it to the reporter and the pending gate explicitly.
 */
export interface ProjectContext {
  /** The project's name; `''` for a configuration without projects. */
  readonly name: string
  readonly options: ResolvedRubricOptions
  readonly root: string
  /** Where plans are cached; `undefined` when caching is off. */
  readonly cacheDir: string | undefined
  /** Plans by test module id (the fixture's marker file), filled as modules are loaded. */
  readonly plans: Map<string, PlanResult>
  /** Whether this project's fixtures are printed in the rubric block (`reporter: false` keeps them out, not out of the gate). */
  readonly printed: boolean
  /** How the project's large fixtures are split into chunk modules (the `chunks` option). */
  readonly chunks: ChunkLayout
  /**
   * Whether this run sees every chunk of a split fixture, and so checks the fixture as a whole
   * (its fixture-level checks and decision record). A shard writing a blob report does not: the
   * merge of the shards does.
   */
  readonly wholeRun: boolean
  /** This run's fixture sessions by directory: each fixture's files are read once per run. */
  readonly sessions: Map<string, FixtureSession>
  /** The fixtures the gates' `fixtures` globs name, matched once per run. */
  scopes: Promise<GateScopes>
  /** This run's compare gate reports by fixture directory, each computed once. */
  readonly comparisons: Map<string, Promise<readonly ComparisonGateReport[]>>
  /** The fixture directories some compare gate compared in this run. */
  readonly compared: Set<string>
  /** This run's estimates and estimate gate checks by fixture directory, each computed once. */
  readonly estimates: Map<string, Promise<FixtureEstimates>>
  /** In watch mode, each fixture kept loaded and decided from one run to the next; `undefined` in a single run. */
  readonly kept: KeptEvaluations | undefined
}

/** The run's session of a fixture directory. */
export function sessionOf(context: ProjectContext, dir: string): FixtureSession {
  let session = context.sessions.get(dir)
  if (session === undefined) {
    session = new FixtureSession(
      {
        root: context.root,
        cacheDir: context.cacheDir,
        planOptions: context.scopes.then((scopes) => planOptions(context.options, scopes, dir)),
        wholeRun: context.wholeRun,
        kept: context.kept,
      },
      dir,
    )
    context.sessions.set(dir, session)
  }
  return session
}

/** A fixture on disk with its plan, its compare gates' reports and its estimate. */
export interface PlannedFixture {
  readonly fixture: DiscoveredFixture
  readonly result: PlanResult
  readonly comparisons: readonly ComparisonGateReport[]
  readonly estimates: FixtureEstimates
}

/** Every fixture of a project on disk with its plan: the denominators, whatever part of them ran. */
export async function planAllFixtures(context: ProjectContext): Promise<PlannedFixture[]> {
  const found = await discoverFixtures(kinds, context.root, context.options.include, context.options.exclude)
  // One fixture at a time: each one's files and parsed documents are let go before the next is read.
  const planned: PlannedFixture[] = []
  for (const fixture of found) {
    const result = context.plans.get(fixture.moduleId) ?? (await sessionOf(context, fixture.dir).finalPlan())
    planned.push({
      fixture,
      result,
      comparisons: await comparisonsOf(context, fixture.dir, result),
      estimates: await estimatesOf(context, fixture.dir, result),
    })
  }
  return planned
}

/** Plans a fixture, through the cache when the project has one. */
export async function planWithContext(context: ProjectContext, dir: string): Promise<PlanResult> {
  if (context.kept !== undefined) return sessionOf(context, dir).plan()
  const options = planOptions(context.options, await context.scopes, dir)
  // A save a killed writer left is finished or discarded before any file is read or hashed for the cache's key.
  await recoverForRun(dir, context.root)
  return context.cacheDir === undefined ? planFixture(dir, context.root, undefined, options) : cachedPlan(dir, context.root, context.cacheDir, options)
}
