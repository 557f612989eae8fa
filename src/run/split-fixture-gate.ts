import { plural } from '../core/common/primitives.js'
import { relative } from 'node:path'
import type { Reporter, TestModule, Vitest } from 'vitest/node'
import { comparisonCheck } from '../core/compare/gate.js'
import { attachedProjects } from './attach.js'
import { comparisonsOf } from './comparisons.js'
import { estimatesOf } from './estimates.js'
import { settleSplitRecord } from './split-record.js'
import { sessionOf, type ProjectContext } from './project.js'

/**
 * Checks each fixture split into chunk modules as a whole, once every chunk's results are in: its
 * fixture-level checks (a scored fixture's benchmark gates, the agreement, judge and compare gates) and the
 * parts of its decision record that no chunk can compare (the case-set identities, the checks,
 * cases no longer there), from the plan of the whole fixture; under `vitest -u` it rewrites the
 * record. A failure fails the run and says why. It acts where every chunk meets, an unsharded run
 * or `vitest --merge-reports`, never in a shard writing a blob report; and only on fixtures that
 * are part of the run (a path filter that leaves out every chunk leaves the fixture out).
 */
export class SplitFixtureGate implements Reporter {
  private vitest: Vitest | undefined

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  async onTestRunEnd(testModules: readonly TestModule[]): Promise<void> {
    const vitest = this.vitest
    if (vitest === undefined) return
    const pattern = vitest.config.testNamePattern
    for (const context of attachedProjects(this)) {
      for (const failure of await splitFixtureFailures(context, testModules, pattern, vitest.config.snapshotOptions.updateSnapshot)) {
        vitest.logger.error(`${failure}\n`)
        process.exitCode = 1
      }
    }
  }
}

/** The failures of a project's split fixtures in this run, one message each. */
export async function splitFixtureFailures(
  context: ProjectContext,
  testModules: readonly TestModule[],
  pattern: RegExp | undefined,
  updateSnapshot: 'all' | 'new' | 'none',
): Promise<string[]> {
  if (!context.wholeRun) return []
  const ran = new Set(testModules.filter((module) => module.project.name === context.name).map((module) => module.moduleId))
  const failures: string[] = []
  for (const [dir, chunks] of context.chunks.byFixture) {
    if (!chunks.some((chunk) => ran.has(chunk.moduleId))) continue
    const result = await sessionOf(context, dir).finalPlan()
    // A fixture-level defect fails every chunk module with it already.
    if ('error' in result) continue
    const where = `${relative(context.root, dir)} (split into ${plural(chunks.length, 'chunk')})`
    // The compare gates' checks too, which no chunk declares: they compare the whole fixture.
    const compared = (await comparisonsOf(context, dir, result)).map(comparisonCheck)
    const { checks: estimated } = await estimatesOf(context, dir, result)
    for (const check of [...result.plan.checks, ...compared, ...estimated]) {
      // A check with nothing to decide on yet is todo, never a failure; a -t filter leaves out the checks it does not name, as it would their tests.
      if (check.ok || check.todo === true || (pattern !== undefined && !pattern.test(check.name))) continue
      failures.push(` ${where}: the check "${check.name}" failed:\n${indent(check.message)}`)
    }
    const record = await settleSplitRecord(dir, result.plan, {
      root: context.root,
      decisionRecord: context.options.decisionRecord,
      updateSnapshot,
      expect: context.options.expect,
    })
    if (record !== null) {
      failures.push(
        [
          ` ${where}: the decisions or bindings differ from ${record.file}:`,
          indent(record.changes.join('\n')),
          ' If the change is intended, run `vitest -u` to rewrite the record, then review and commit its diff.',
        ].join('\n'),
      )
    }
  }
  return failures
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `   ${line}`)
    .join('\n')
}
