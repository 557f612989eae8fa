import { dirname } from 'node:path'
import { glob } from 'tinyglobby'
import { markerGlobs } from '../core/engine/discover.js'
import { kinds } from '../core/registry.js'
import type { JudgeGate, PlanOptions } from '../core/engine/plan.js'
import type { ResolvedRubricOptions } from './options.js'

/** The fixture directories (absolute) that the gates' `fixtures` globs name, by gate. */
export interface GateScopes {
  /** By judge, for the judge gates that have `fixtures` globs. */
  readonly judges: ReadonlyMap<string, ReadonlySet<string>>
  /** By compare gate, in the options' order: `undefined` for a gate without `fixtures` globs. */
  readonly compare: readonly (ReadonlySet<string> | undefined)[]
  /** By estimate gate, in the options' order: `undefined` for a gate without `fixtures` globs. */
  readonly estimate: readonly (ReadonlySet<string> | undefined)[]
}

/** No gate names any fixture. */
export const NO_SCOPES: GateScopes = { judges: new Map(), compare: [], estimate: [] }

/**
 * Matches each gate's `fixtures` globs below the root, as the `include` globs are matched: a glob
 * names a directory holding a fixture's marker file (`rubric.json`, `evaluation_rubric.json`).
 */
export async function gateScopes(options: ResolvedRubricOptions, root: string): Promise<GateScopes> {
  const judges = new Map<string, ReadonlySet<string>>()
  for (const [judge, gate] of Object.entries(options.judges ?? {})) {
    if (gate.fixtures !== undefined) judges.set(judge, await namedFixtures(root, gate.fixtures))
  }
  const compare: (ReadonlySet<string> | undefined)[] = []
  for (const gate of options.compare) compare.push(gate.fixtures === undefined ? undefined : await namedFixtures(root, gate.fixtures))
  const estimate: (ReadonlySet<string> | undefined)[] = []
  for (const gate of options.estimate) estimate.push(gate.fixtures === undefined ? undefined : await namedFixtures(root, gate.fixtures))
  return { judges, compare, estimate }
}

/**
 * A gate whose `fixtures` globs name no fixture directory adds no check at all, so a misspelt glob
 * (`fixture/lab` for `fixtures/lab`) would pass the run: one message for each, said at startup, as
 * for an `include` glob that matches nothing.
 */
export function unmatchedGateScopes(options: ResolvedRubricOptions, scopes: GateScopes, root: string): string[] {
  const problems: string[] = []
  const say = (gate: string, globs: readonly string[]) =>
    problems.push(
      `vitest-rubric: ${gate} checks nothing: its fixtures ${globs.map((each) => JSON.stringify(each)).join(', ')} match no fixture directory under ${root} ` +
        '(a fixture directory holds rubric.json, or evaluation_rubric.json). Set its fixtures globs to where the fixtures it checks are.',
    )
  for (const [judge, gate] of Object.entries(options.judges ?? {})) {
    if (gate.fixtures !== undefined && scopes.judges.get(judge)?.size === 0) say(`the judge gate ${JSON.stringify(judge)}`, gate.fixtures)
  }
  options.compare.forEach((gate, index) => {
    if (gate.fixtures !== undefined && scopes.compare[index]?.size === 0) say(`the compare gate against ${JSON.stringify(gate.against)}`, gate.fixtures)
  })
  options.estimate.forEach((gate, index) => {
    if (gate.fixtures !== undefined && scopes.estimate[index]?.size === 0) say(`the estimate gate on judge ${JSON.stringify(gate.judge)}`, gate.fixtures)
  })
  return problems
}

/** The fixture directories the globs name, absolute. */
export async function namedFixtures(root: string, globs: readonly string[]): Promise<ReadonlySet<string>> {
  const files = await glob(markerGlobs(kinds, globs), { cwd: root, absolute: true, ignore: ['**/node_modules/**', '**/.git/**'] })
  return new Set(files.map((file) => dirname(file)))
}

/**
 * What the plugin's options ask of the plan of the fixture in `dir`: the several-reviewer rule, the
 * agreement gate, the judge gates that check this fixture (those without `fixtures` globs, which
 * check it when it holds their judge's labels, and those whose globs name it), the seed.
 */
export function planOptions(options: ResolvedRubricOptions, scopes: GateScopes, dir: string): PlanOptions {
  const judgeGates: Record<string, JudgeGate> = {}
  for (const [judge, gate] of Object.entries(options.judges ?? {})) {
    const named = gate.fixtures === undefined ? undefined : scopes.judges.get(judge)?.has(dir) === true ? gate.fixtures.join(', ') : null
    if (named === null) continue
    Object.defineProperty(judgeGates, judge, {
      value: {
        minKappa: gate.minKappa,
        minCases: gate.minCases,
        ...(gate.maxFalseAccepts === undefined ? {} : { maxFalseAccepts: gate.maxFalseAccepts }),
        ...(named === undefined ? {} : { named }),
      },
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return {
    panel: { minReviews: options.reviewers.min },
    ...(options.agreement === undefined ? {} : { agreementGate: options.agreement }),
    ...(options.judges === undefined ? {} : { judgeGates }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.marginGate === undefined ? {} : { marginGate: options.marginGate }),
  }
}
