import { appendFile, mkdir, writeFile } from 'node:fs/promises'
import { dirname, relative, resolve } from 'node:path'
import type { Reporter, TestModule, Vitest } from 'vitest/node'
import { getRubricContext, planAllFixtures, type RubricContext } from '../plugin/context.js'
import { kindOfModule } from '../plugin/discover.js'
import { resolveOptions, type PendingPolicy } from '../plugin/options.js'
import { colorsFor } from './colors.js'
import { countFigures, type CaseRun, type FixtureSource, type ModuleRun, type RubricFigures } from './figures.js'
import { renderMarkdown } from './render-markdown.js'
import { renderText } from './render-text.js'

/** Options of the {@link RubricReporter}. */
export interface RubricReporterOptions {
  /**
   * Where to write the JSON report, relative to the project root; `false` writes none.
   * @default '.vitest-rubric/report.json'
   */
  readonly outputFile?: string | false
  /**
   * Append a Markdown table to the file named by `GITHUB_STEP_SUMMARY`, when that is set.
   * @default true
   */
  readonly githubSummary?: boolean
}

/** The outcome of the pending policy for one run. */
export interface PendingGate {
  readonly policy: PendingPolicy
  /** Pending cases in the fixtures this run collected. */
  readonly pending: number
  readonly passed: boolean
}

/**
 * Prints execution coverage (what ran) apart from review coverage (graded and pending) and the
 * outcomes, per fixture, per split and in total, after Vitest's own summary; writes the same
 * figures as JSON and as a CI summary; applies the pending policy to the run.
 */
export class RubricReporter implements Reporter {
  private vitest: Vitest | undefined
  private readonly options: Required<RubricReporterOptions>

  constructor(options: RubricReporterOptions = {}) {
    this.options = { outputFile: options.outputFile ?? '.vitest-rubric/report.json', githubSummary: options.githubSummary ?? true }
  }

  onInit(vitest: Vitest): void {
    // Listed by the user and added by the plugin, or listed twice: only the first one reports.
    if (active.has(vitest)) return
    active.add(vitest)
    this.vitest = vitest
  }

  async onTestRunEnd(testModules: readonly TestModule[]): Promise<void> {
    const vitest = this.vitest
    if (vitest === undefined) return
    const context: RubricContext = getRubricContext(vitest) ?? { options: resolveOptions(), root: vitest.config.root, cacheDir: undefined, plans: new Map() }
    const sources: FixtureSource[] = (await planAllFixtures(context)).map(({ fixture, result }) => ({
      fixture: relative(context.root, fixture.dir),
      ...result,
    }))
    const runs = readRuns(testModules, context.root)
    const figures = countFigures(sources, runs)
    const gate = pendingGate(context.options.pending, figures, runs)

    vitest.logger.log(renderText(figures, colorsFor(vitest.logger.outputStream as { isTTY?: boolean })))
    if (!gate.passed) {
      vitest.logger.error(
        ` Pending gate failed: ${gate.pending} pending case${gate.pending === 1 ? '' : 's'} in this run, ` +
          `and the pending policy ${describePolicy(gate.policy)}. Complete the reviews, or change rubric({ pending }).\n`,
      )
      process.exitCode = 1
    }
    await this.writeReports(context.root, figures, gate)
  }

  private async writeReports(root: string, figures: RubricFigures, gate: PendingGate): Promise<void> {
    if (this.options.outputFile !== false) {
      const path = resolve(root, this.options.outputFile)
      await mkdir(dirname(path), { recursive: true })
      await writeFile(path, `${JSON.stringify({ ...figures, pendingGate: gate }, null, 2)}\n`)
    }
    const summary = process.env['GITHUB_STEP_SUMMARY']
    if (this.options.githubSummary && summary !== undefined && summary !== '') {
      await appendFile(summary, renderMarkdown(figures))
    }
  }
}

const active = new WeakSet<Vitest>()

/** What the run did with each fixture module, keyed by the fixture directory as shown. */
function readRuns(testModules: readonly TestModule[], root: string): Map<string, ModuleRun> {
  const runs = new Map<string, ModuleRun>()
  for (const module of testModules) {
    if (kindOfModule(module.moduleId) === undefined) continue
    const cases = new Map<string, CaseRun>()
    for (const test of module.children.allTests()) {
      const meta = test.meta().rubric
      if (meta?.role !== 'case') continue
      const state = test.result().state
      cases.set(meta.id, test.options.mode === 'todo' ? 'todo' : state === 'passed' || state === 'failed' ? 'executed' : 'filtered')
    }
    runs.set(relative(root, dirname(module.moduleId)), { collected: true, cases })
  }
  return runs
}

function pendingGate(policy: PendingPolicy, figures: RubricFigures, runs: ReadonlyMap<string, ModuleRun>): PendingGate {
  const pending = figures.fixtures
    .filter((fixture) => runs.get(fixture.fixture)?.collected === true)
    .reduce((sum, fixture) => sum + fixture.pendingCases.length, 0)
  const max = policy === 'todo' ? Number.POSITIVE_INFINITY : policy === 'fail' ? 0 : policy.max
  return { policy, pending, passed: pending <= max }
}

function describePolicy(policy: PendingPolicy): string {
  if (policy === 'fail') return 'allows none ("fail")'
  if (policy === 'todo') return 'allows any'
  return `allows at most ${policy.max}`
}
