import type { TestModule } from 'vitest/node'

/** What happened to one case test in this run. */
export type CaseRun = 'executed' | 'todo' | 'filtered'

/** What one test module did with its case tests. */
export interface ModuleCases {
  /** Each case's state in the run, by id. */
  readonly cases: ReadonlyMap<string, CaseRun>
  /** The pending cases whose todo test is in the run, in the module's order. */
  readonly pending: readonly string[]
}

// Every reporter of the run (the rubric block, the pending gate) gets the same list of modules at
// its end: their case tests are read once for all of them.
const read = new WeakMap<readonly TestModule[], Map<TestModule, ModuleCases>>()

/** A module's case tests, as the run left them. */
export function casesOfModule(testModules: readonly TestModule[], module: TestModule): ModuleCases {
  let byModule = read.get(testModules)
  if (byModule === undefined) {
    byModule = new Map()
    read.set(testModules, byModule)
  }
  let found = byModule.get(module)
  if (found === undefined) {
    const cases = new Map<string, CaseRun>()
    const pending: string[] = []
    for (const test of module.children.allTests()) {
      const meta = test.meta().rubric
      if (meta?.role !== 'case') continue
      const todo = test.options.mode === 'todo'
      if (todo && meta.status === 'pending') pending.push(meta.id)
      const state = todo ? undefined : test.result().state
      cases.set(meta.id, todo ? 'todo' : state === 'passed' || state === 'failed' ? 'executed' : 'filtered')
    }
    found = { cases, pending }
    byModule.set(module, found)
  }
  return found
}
