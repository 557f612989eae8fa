import { RubricError } from '../core/common/errors.js'
import { loadFixtureReading } from '../core/engine/fixture.js'
import type { SomeEvaluation } from '../core/engine/evaluate.js'
import type { PlannedCheck } from '../core/contract/results.js'
import { readFixtureFile } from '../core/json/read.js'
import { kinds } from '../core/registry.js'
import { estimateGateCheck } from '../core/sample/estimate-gate.js'
import { fixtureEstimate, hasSampleFile, type FixtureEstimate } from '../core/sample/fixture-estimate.js'
import { planOptions, type GateScopes } from './gate-scope.js'
import type { ResolvedRubricOptions } from './options.js'
import { evaluateForPlan, type PlanResult } from './plan-fixture.js'

/** What the estimates read of a project's context (`ProjectContext`). */
export interface EstimateContext {
  readonly options: ResolvedRubricOptions
  readonly root: string
  readonly scopes: Promise<GateScopes>
  /** This run's estimates by fixture directory, each computed once. */
  readonly estimates: Map<string, Promise<FixtureEstimates>>
}

/** A sample file that could not be read: the estimate's place shows its error. */
export interface EstimateRefusal {
  readonly error: string
}

/** A fixture's estimate as the run shows it, and the estimate gates' checks of it. */
export interface FixtureEstimates {
  /**
   * The judge-assisted estimate beside the coverage figures, with the judge of the first estimate
   * gate that checks the fixture, else as `chooseEstimateJudge` picks it; `null` without a sample
   * or a judge.
   */
  readonly figures: FixtureEstimate | EstimateRefusal | null
  readonly checks: readonly PlannedCheck[]
}

const NONE: FixtureEstimates = { figures: null, checks: [] }

/**
 * The estimate of the fixture in `dir` and the estimate gates' checks of it, once per run. A
 * fixture with neither a sample file nor a gate that could check it is not read again; one with
 * either is loaded and decided once more, as its plan was (the estimate is not part of the cached
 * plan: it reads `sample.json` too). A fixture refused as a whole has none: its module fails anyway.
 */
export function estimatesOf(context: EstimateContext, dir: string, result: PlanResult): Promise<FixtureEstimates> {
  if ('error' in result) return Promise.resolve(NONE)
  let found = context.estimates.get(dir)
  if (found === undefined) {
    found = estimateDir(context, dir)
    context.estimates.set(dir, found)
  }
  return found
}

/**
 * The estimate gates' checks of the fixture in `dir`, from its evaluation: each gate whose
 * `fixtures` globs name it, and each gate without globs whose judge has labels in it.
 */
export async function estimateChecks(
  options: ResolvedRubricOptions,
  scopes: GateScopes,
  dir: string,
  evaluation: SomeEvaluation,
  root: string,
): Promise<PlannedCheck[]> {
  const checks: PlannedCheck[] = []
  for (const [index, gate] of options.estimate.entries()) {
    const scope = scopes.estimate[index]
    if (scope === undefined ? !evaluation.fixture.judges.names.includes(gate.judge) : !scope.has(dir)) continue
    checks.push((await estimateGateCheck(evaluation, gate, root)).check)
  }
  return checks
}

async function estimateDir(context: EstimateContext, dir: string): Promise<FixtureEstimates> {
  const { options, root } = context
  const scopes = await context.scopes
  // A gate with fixtures globs checks the fixtures they name; one without, those holding its judge's labels.
  const gates = options.estimate.flatMap((gate, index) => {
    const scope = scopes.estimate[index]
    return scope === undefined || scope.has(dir) ? [{ gate, named: scope !== undefined }] : []
  })
  const sampled = await hasSampleFile(dir)
  if (gates.length === 0 && !sampled) return NONE
  let evaluation: SomeEvaluation
  try {
    const fixture = await loadFixtureReading(kinds, dir, { cwd: root }, readFixtureFile)
    evaluation = evaluateForPlan(fixture, planOptions(options, scopes, dir))
  } catch (error) {
    // Changed on disk since its plan was made: the next run reads it again.
    if (error instanceof RubricError) return { figures: { error: error.message }, checks: [] }
    throw error
  }
  const checks = await estimateChecks(options, scopes, dir, evaluation, root)
  // The judge of the first gate that checks the fixture.
  const judge = gates.find(({ gate, named }) => named || evaluation.fixture.judges.names.includes(gate.judge))?.gate.judge
  if (!sampled) return { figures: null, checks }
  try {
    return { figures: await fixtureEstimate(evaluation, { cwd: root, judge }), checks }
  } catch (error) {
    if (error instanceof RubricError) return { figures: { error: error.message }, checks }
    throw error
  }
}
