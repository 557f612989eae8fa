import { resolve } from 'node:path'
import { compareGate, type ComparisonGateReport } from '../core/compare/gate.js'
import type { GateScopes } from './gate-scope.js'
import type { ResolvedRubricOptions } from './options.js'
import type { PlanResult } from './plan-fixture.js'

/** What the compare gates read of a project's context (`ProjectContext`). */
export interface CompareContext {
  readonly options: ResolvedRubricOptions
  readonly root: string
  readonly scopes: Promise<GateScopes>
  /** This run's reports by fixture directory. */
  readonly comparisons: Map<string, Promise<readonly ComparisonGateReport[]>>
  /** The fixture directories some gate compared in this run (a watch trigger reads them). */
  readonly compared: Set<string>
}

/**
 * The compare gates' reports on the fixture in `dir`, once per run: for each gate that compares
 * it (every gate whose `fixtures` globs name it, or that has none), the comparison with the gate's
 * `against` fixture. A fixture refused as a whole is compared by no gate: its module fails anyway.
 */
export function comparisonsOf(context: CompareContext, dir: string, result: PlanResult): Promise<readonly ComparisonGateReport[]> {
  if ('error' in result || context.options.compare.length === 0) return Promise.resolve([])
  let found = context.comparisons.get(dir)
  if (found === undefined) {
    found = compareWithEachGate(context, dir)
    context.comparisons.set(dir, found)
  }
  return found
}

async function compareWithEachGate(context: CompareContext, dir: string): Promise<ComparisonGateReport[]> {
  const scopes = await context.scopes
  const { options } = context
  const reports: ComparisonGateReport[] = []
  for (const [index, gate] of options.compare.entries()) {
    const against = resolve(context.root, gate.against)
    const scope = scopes.compare[index]
    if (against === dir || (scope !== undefined && !scope.has(dir))) continue
    const report = await compareGate(
      dir,
      { against, split: gate.split, margin: gate.margin, judge: gate.judge },
      {
        cwd: context.root,
        named: scope !== undefined,
        panel: { minReviews: options.reviewers.min },
        ...(options.seed === undefined ? {} : { seed: options.seed }),
      },
    )
    if (report !== undefined) reports.push(report)
  }
  if (reports.length > 0) context.compared.add(dir)
  return reports
}
