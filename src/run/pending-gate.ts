import { plural } from '../core/common/primitives.js'
import { relative } from 'node:path'
import type { Reporter, TestModule, Vitest } from 'vitest/node'
import { attachedProjects } from './attach.js'
import { casesOfModule } from './case-runs.js'
import { chunkOfModule, fixtureDirOfModule } from './chunks.js'
import type { PendingPolicy } from './options.js'
import type { ProjectContext } from './project.js'

/** The outcome of one project's pending policy for one run. */
export interface PendingGate {
  readonly project: string
  readonly policy: PendingPolicy
  /** Pending cases whose todo test is part of this run (a `-t` filter or a shard leaves the others out). */
  readonly pending: number
  /** Where they are: `fixtures/docuctl-rollback: uncertain-wording, not-reviewed`. */
  readonly where: readonly string[]
  readonly passed: boolean
}

/**
 * Applies each project's pending policy to the cases of this run: a pending case counts when its
 * todo test is in the run, whatever the reporters print. Read from Vitest's report, so merged
 * shards count as one run does.
 */
export function pendingGates(projects: readonly ProjectContext[], testModules: readonly TestModule[]): PendingGate[] {
  return projects.map((context) => {
    // By fixture, in path order, a split fixture's chunks in their order: merged shards read as one run does.
    const byFixture = new Map<string, { chunk: number; ids: readonly string[] }[]>()
    for (const module of testModules) {
      const dir = module.project.name === context.name ? fixtureDirOfModule(context.chunks, module.moduleId) : undefined
      if (dir === undefined) continue
      const ids = casesOfModule(testModules, module).pending
      const shown = relative(context.root, dir)
      const parts = byFixture.get(shown) ?? []
      parts.push({ chunk: chunkOfModule(context.chunks, module.moduleId)?.index ?? 0, ids })
      byFixture.set(shown, parts)
    }
    const where: string[] = []
    let pending = 0
    for (const shown of [...byFixture.keys()].sort()) {
      const ids = byFixture
        .get(shown)!
        .sort((a, b) => a.chunk - b.chunk)
        .flatMap((part) => part.ids)
      pending += ids.length
      if (ids.length > 0) where.push(`${shown}: ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? `, and ${ids.length - 5} more` : ''}`)
    }
    const { pending: policy } = context.options
    const max = policy === 'todo' ? Number.POSITIVE_INFINITY : policy === 'fail' ? 0 : policy.max
    return { project: context.name, policy, pending, where, passed: pending <= max }
  })
}

/** The pending policy, as the reason of a failed gate says it. */
export function describePolicy(policy: PendingPolicy): string {
  if (policy === 'fail') return 'allows none ("fail")'
  if (policy === 'todo') return 'allows any'
  return `allows at most ${policy.max}`
}

/**
 * Fails the run when a project's pending policy is not met. The plugin always adds it, with or
 * without the printing reporter: `reporter: false` silences the block, never the gate.
 */
export class PendingGateReporter implements Reporter {
  private vitest: Vitest | undefined

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  onTestRunEnd(testModules: readonly TestModule[]): void {
    const projects = attachedProjects(this)
    for (const gate of pendingGates(projects, testModules)) {
      if (gate.passed) continue
      const project = projects.length > 1 ? ` of project ${JSON.stringify(gate.project || 'default')}` : ''
      this.vitest?.logger.error(
        ` Pending gate failed${project}: ${plural(gate.pending, 'pending case')} in this run (${gate.where.join('; ')}), ` +
          `and the pending policy ${describePolicy(gate.policy)}. Complete the reviews, or change rubric({ pending }).\n`,
      )
      process.exitCode = 1
    }
  }
}
