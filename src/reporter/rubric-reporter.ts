import { relative, resolve } from 'node:path'
import type { Reporter, TestModule, Vitest } from 'vitest/node'
import { colorsFor } from '../core/common/colors.js'
import { displayPath } from '../core/common/display-path.js'
import { RubricError } from '../core/common/errors.js'
import { appendToNamedFile } from '../core/json/append-file.js'
import { outputBoundary, writeOutputFile } from '../core/json/output-file.js'
import { fixtureDirOfModule, NO_CHUNKS } from '../run/chunks.js'
import { NO_SCOPES } from '../run/gate-scope.js'
import { resolveOptions, type RubricReporterOptions } from '../run/options.js'
import { planAllFixtures, type ProjectContext } from '../run/project.js'
import { attachedProjects } from '../run/attach.js'
import { casesOfModule, type CaseRun } from '../run/case-runs.js'
import { countFigures, reportJson, runKey, type FixtureSource, type ModuleRun, type RubricFigures } from './figures.js'
import { pendingGates, type PendingGate } from '../run/pending-gate.js'
import { renderMarkdown } from './render-markdown.js'
import { renderText } from './render-text.js'
import { writeReport } from '../web/report.js'
import { refuseOutputOverFixture } from '../core/registry.js'
import { gateRequirements, reportGateChecks, type ReportGateCheck } from '../web/report-gates.js'

export type { RubricReporterOptions } from '../run/options.js'

/**
 * Prints execution coverage (what ran) apart from review coverage (graded and pending) and the
 * outcomes, per fixture, per split and in total, after Vitest's own summary, and writes the same
 * figures as JSON and as a CI summary. The plugin attaches each project's context to it; listed
 * on its own (`reporters: ['vitest-rubric/reporter']`, no plugin) it reports the fixtures below
 * the root with the default options.
 */
export class RubricReporter implements Reporter {
  private vitest: Vitest | undefined
  private readonly options: Required<Omit<RubricReporterOptions, 'reportUrl'>> & { readonly reportUrl: string }

  constructor(options: RubricReporterOptions = {}) {
    this.options = {
      outputFile: options.outputFile ?? '.vitest-rubric/report.json',
      githubSummary: options.githubSummary ?? true,
      htmlReport: options.htmlReport ?? false,
      reportUrl: options.reportUrl ?? '',
    }
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest
  }

  async onTestRunEnd(testModules: readonly TestModule[]): Promise<void> {
    const vitest = this.vitest
    if (vitest === undefined) return
    // The plugin attaches each project's context; listed without the plugin, the reporter has none.
    const attached = attachedProjects(this)
    const projects = attached.length > 0 ? attached.filter((project) => project.printed) : [standalone(vitest)]
    const sources: FixtureSource[] = []
    for (const project of projects) {
      for (const { fixture, result, comparisons, estimates } of await planAllFixtures(project))
        sources.push({ project: project.name, fixture: relative(project.root, fixture.dir), comparisons, estimates, ...result })
    }
    const figures = countFigures(sources, readRuns(testModules, projects))
    // Cast: Vitest types the stream as Writable; a terminal's has isTTY, which colours depend on.
    vitest.logger.log(renderText(figures, colorsFor(vitest.logger.outputStream as { isTTY?: boolean })))
    try {
      await this.writeReports(vitest, sources, projects, figures, pendingGates(projects, testModules))
    } catch (error) {
      // A report that cannot be written (a link leading outside the project, a full disk) fails the run with its reason.
      if (!(error instanceof RubricError)) throw error
      vitest.logger.error(`${error.message}\n`)
      process.exitCode = 1
    }
  }

  private async writeReports(
    vitest: Vitest,
    sources: readonly FixtureSource[],
    projects: readonly ProjectContext[],
    figures: RubricFigures,
    gates: readonly PendingGate[],
  ): Promise<void> {
    const root = vitest.config.root
    const dirOf = (source: FixtureSource) => resolve(root, projects.find((project) => project.name === source.project)?.root ?? '.', source.fixture)
    if (this.options.outputFile !== false) {
      const path = resolve(root, this.options.outputFile)
      refuseOutputOverFixture(
        sources.map((source) => dirOf(source)),
        path,
        { option: "the reporter's outputFile", cwd: root },
      )
      const contents = `${JSON.stringify(reportJson(figures, { pendingGates: gates }), null, 2)}\n`
      await writeOutputFile({ path, display: displayPath(root, path), contents }, { boundary: outputBoundary(root, path), cwd: root })
    }
    const summary = process.env['GITHUB_STEP_SUMMARY']
    if (this.options.githubSummary && summary !== undefined && summary !== '') {
      const link = this.options.reportUrl === '' ? '' : `\n[The HTML report](${this.options.reportUrl}): every case with its answer, spans and criteria.\n`
      // The job summary is the CI runner's file, named by its environment outside the project: appended to as named, as
      // every step of the job appends to it (a rename would drop what the steps before wrote).
      await appendToNamedFile(summary, renderMarkdown(figures) + link)
    }
    if (this.options.htmlReport !== false) {
      const dirs = [...new Set(sources.map(dirOf))]
      const minReviews = Math.max(0, ...projects.map((project) => project.options.reviewers.min))
      // The report shows this run's gate checks as the run decided them, not decided again.
      const checks = new Map<string, ReportGateCheck[]>()
      for (const source of sources)
        if ('plan' in source)
          checks.set(dirOf(source), [
            ...(checks.get(dirOf(source)) ?? []),
            ...reportGateChecks([...source.plan.checks, ...(source.estimates?.checks ?? [])], source.comparisons ?? []),
          ])
      const configFile = vitest.vite.config.configFile
      const gates = {
        config: configFile === undefined ? 'the Vitest config' : displayPath(root, configFile),
        requirements: [...new Set(projects.flatMap((project) => gateRequirements(project.options)))],
        checksOf: (dir: string) => Promise.resolve(checks.get(dir) ?? []),
        estimateJudgeOf: (dir: string) => {
          const figures = sources.find((source) => dirOf(source) === dir)?.estimates?.figures
          return figures === null || figures === undefined || 'error' in figures ? undefined : figures.judge
        },
      }
      await writeReport(dirs, root, this.options.htmlReport, { panel: { minReviews } }, gates, "the reporter's htmlReport")
    }
  }
}

/** The context of a reporter listed without the plugin: the default options, at the root. */
function standalone(vitest: Vitest): ProjectContext {
  return {
    name: vitest.getRootProject().name,
    options: resolveOptions(),
    root: vitest.config.root,
    cacheDir: undefined,
    plans: new Map(),
    printed: true,
    chunks: NO_CHUNKS,
    wholeRun: true,
    sessions: new Map(),
    scopes: Promise.resolve(NO_SCOPES),
    comparisons: new Map(),
    compared: new Set(),
    estimates: new Map(),
    kept: undefined,
  }
}

/** What the run did with each fixture, keyed by project and fixture directory as shown: the chunks of a split fixture add up. */
function readRuns(testModules: readonly TestModule[], projects: readonly ProjectContext[]): Map<string, ModuleRun> {
  const contexts = new Map(projects.map((project) => [project.name, project]))
  const runs = new Map<string, { cases: Map<string, CaseRun> }>()
  for (const module of testModules) {
    const context = contexts.get(module.project.name)
    const dir = context === undefined ? undefined : fixtureDirOfModule(context.chunks, module.moduleId)
    if (context === undefined || dir === undefined) continue
    const key = runKey(module.project.name, relative(context.root, dir))
    let run = runs.get(key)
    if (run === undefined) {
      run = { cases: new Map() }
      runs.set(key, run)
    }
    const { cases } = run
    for (const [id, state] of casesOfModule(testModules, module).cases) cases.set(id, state)
  }
  return runs
}
