import { kinds } from '../core/registry.js'
import { readRegularFile } from '../core/json/regular-file.js'
import { dirname, join, relative, resolve } from 'node:path'
import type { Plugin } from 'vite'
// Brings in Vitest's `configureVitest` addition to Vite's plugin type.
import type {} from 'vitest/config'
import type { Reporter, TestProject, Vitest } from 'vitest/node'
import {
  discoverFixtures as discoverIn,
  excludeGlobs,
  kindOfModule,
  type DiscoveredFixture,
  literalGlob,
  markerGlobs,
  scanFixtures,
  unmatchedIncludes,
} from '../core/engine/discover.js'
import { PendingGateReporter } from '../run/pending-gate.js'
import { SplitFixtureGate } from '../run/split-fixture-gate.js'
import { chunkIncludeGlobs, NO_CHUNKS, splitFixtures, splitMarkerExcludes } from '../run/chunks.js'
import { fixtureKindsIn } from '../core/engine/fixture.js'
import { closestName } from '../core/common/suggest.js'
import { JUDGES_DIR, listDirectory, reviewerName } from '../core/engine/panel.js'
import { jsonModule } from './json-module.js'
import { comparisonCheck } from '../core/compare/gate.js'
import { comparisonsOf } from '../run/comparisons.js'
import { estimatesOf } from '../run/estimates.js'
import { gateScopes, NO_SCOPES, planOptions, unmatchedGateScopes } from '../run/gate-scope.js'
import { fixtureModuleCode } from './module-code.js'
import { KeptEvaluations } from '../run/kept.js'
import { resolveOptions, type ResolvedRubricOptions, type RubricPluginOptions, type RubricReporterOptions } from '../run/options.js'
import { attachProject, type PrinterClass } from '../run/attach.js'
import { evaluateOptionsOf } from '../run/plan-fixture.js'
import { planWithContext, sessionOf, type ProjectContext } from '../run/project.js'
import { fixtureWatchTrigger, warnOnLostRubrics } from './watch.js'
import { ownModule } from '../package-files.js'

/** Finds the fixture directories of the shipped kinds below `root` that the globs match, sorted by path. */
export function discoverFixtures(root: string, include: readonly string[], exclude: readonly string[]): Promise<DiscoveredFixture[]> {
  return discoverIn(kinds, root, include, exclude)
}

// The modules Vitest loads into its workers: entries of the build, or their sources.
const RUNTIME = ownModule('runtime/index')
const MATCHERS_SETUP = ownModule('matchers/setup')

/** What the plugin exposes to whoever resolves the Vitest config (the `decisions` command). */
export interface RubricPluginApi {
  readonly rubricOptions: ResolvedRubricOptions
}

/** The query that marks an import of a marker file from another module: it gets the file's JSON, not its tests. */
const AS_JSON = 'vitest-rubric-json'

interface ProjectState {
  readonly project: TestProject
  readonly context: ProjectContext
}

/**
 * The Vitest plugin of `rubric()`, making its printing reporter with `Printer` (the entry passes
 * the reporter's class: see run/printer.ts).
 */
export function rubricPlugin(options: RubricPluginOptions, Printer: PrinterClass): Plugin {
  const resolved = resolveOptions(options)
  // One plugin instance may serve several projects: each keeps its own state.
  const projects: ProjectState[] = []

  return {
    name: 'vitest-rubric',
    enforce: 'pre',
    // `vitest-rubric decisions` reads the options from the resolved Vitest config, so that it writes the record this plugin compares with.
    api: { rubricOptions: resolved } satisfies RubricPluginApi,

    async configureVitest({ vitest, project }) {
      // New arrays, never pushes: a resolved config may share its default lists with every other Vitest the process starts.
      project.config.include = [...project.config.include, ...markerGlobs(kinds, resolved.include)]
      project.config.exclude = [...project.config.exclude, ...excludeGlobs(resolved.exclude)]
      if (resolved.matchers) project.config.setupFiles.push(MATCHERS_SETUP)

      const { root } = project.config
      const scan = await scanFixtures(kinds, root, resolved.include, resolved.exclude)
      // A fixture reached again through a link would run twice under two names.
      project.config.exclude = [...project.config.exclude, ...scan.aliases.map((moduleId) => literalGlob(relative(root, moduleId)))]
      // A marker file linked outside the project is no test module: Vite would read it where the link leads. The run fails, naming it.
      project.config.exclude = [...project.config.exclude, ...scan.outside.map((fixture) => literalGlob(relative(root, fixture.moduleId)))]
      // A large fixture becomes several modules, found and sharded by Vitest as files: its marker file is none of them.
      const chunks = resolved.chunks === undefined ? NO_CHUNKS : await splitFixtures(root, project.name, scan.fixtures, resolved.chunks.size)
      project.config.include = [...project.config.include, ...chunkIncludeGlobs(root, chunks)]
      project.config.exclude = [...project.config.exclude, ...splitMarkerExcludes(root, chunks)]
      const context: ProjectContext = {
        name: project.name,
        options: resolved,
        root,
        cacheDir: resolved.cache ? project.vite.config.cacheDir : undefined,
        plans: new Map(),
        printed: resolved.reporter !== false,
        chunks,
        // Cast: Vitest's reporters option is a union of names, instances and tuples, read here as entries.
        wholeRun: !onlyBlob(vitest.config.reporters as unknown[]),
        sessions: new Map(),
        scopes: gateScopes(resolved, root),
        comparisons: new Map(),
        compared: new Set(),
        estimates: new Map(),
        // Evaluating a fixture reads no gate: the gates' scopes do not matter to it.
        kept: vitest.config.watch ? new KeptEvaluations(root, evaluateOptionsOf(planOptions(resolved, NO_SCOPES, root))) : undefined,
      }
      projects.push({ project, context })
      // Each run reads a fixture's files afresh, and matches the gates' globs again: a rerun in watch mode must not decide from the last run's files.
      vitest.onTestsRerun(() => {
        context.sessions.clear()
        context.comparisons.clear()
        context.compared.clear()
        context.estimates.clear()
        context.scopes = gateScopes(resolved, root)
      })
      const problems = [
        ...(await unmatchedIncludes(kinds, root, resolved.include, resolved.exclude, scan)).map(
          (glob) =>
            `vitest-rubric: the include glob ${JSON.stringify(glob)} matches no fixture directory under ${root} ` +
            '(a fixture directory holds rubric.json, or evaluation_rubric.json). Set the include option of rubric() to where your fixtures are.',
        ),
        ...scan.incomplete.map((dir) => lostRubricMessage(relative(root, dir))),
        ...scan.outside.map(
          (fixture) =>
            `vitest-rubric: ${relative(root, fixture.moduleId)}: the path leads outside the project through a symbolic link (to ${fixture.realPath}), so the fixture is neither read nor run (FILE_OUTSIDE_PROJECT). Replace the link with the file or folder itself, or run Vitest from a folder that holds what it points at.`,
        ),
        ...(await lostComparisons(root, resolved)),
        ...(await lostJudgeGates(root, resolved, scan.fixtures)),
        ...unmatchedGateScopes(resolved, await context.scopes, root),
      ]
      if (problems.length > 0) {
        // A run never goes green over fixtures it could not find; in watch mode they may still be added.
        if (vitest.config.watch) vitest.logger.warn(problems.join('\n'))
        else {
          vitest.logger.error(problems.join('\n'))
          process.exitCode = 1
        }
      }
      attachReporters(vitest, context, resolved, Printer)
      vitest.config.watchTriggerPatterns ??= []
      vitest.config.watchTriggerPatterns.push(
        fixtureWatchTrigger(
          vitest,
          resolved.decisionRecord,
          (file) => project.matchesTestGlob(file),
          (dir) => chunks.byFixture.get(dir)?.map((chunk) => chunk.moduleId),
          context.kept,
          // The modules a compare gate compared in the last run, when this fixture is a gate's against: their checks read its files too.
          (dir) =>
            resolved.compare.some((gate) => resolve(root, gate.against) === dir)
              ? [...context.plans.keys()].filter((module) => dirname(module) !== dir && context.compared.has(dirname(module)))
              : [],
        ),
      )
      if (vitest.config.watch) warnOnLostRubrics(vitest, project, resolved, lostRubricMessage)
    },

    resolveId: {
      order: 'pre',
      async handler(source, importer) {
        // A module importing a fixture's marker file wants its JSON; only Vitest's own request for the test module gets
        // the tests. Vite names no importer for such an entry request, or the root's index.html.
        if (source.includes('?') || kindOfModule(kinds, source) === undefined) return undefined
        if (importer === undefined || projects.some(({ project }) => importer === join(project.config.root, 'index.html'))) return undefined
        const resolvedId = await this.resolve(source, importer, { skipSelf: true })
        if (resolvedId === null || kindOfModule(kinds, resolvedId.id) === undefined) return undefined
        return `${resolvedId.id}?${AS_JSON}`
      },
    },

    async load(id) {
      if (id.endsWith(`?${AS_JSON}`)) {
        const path = id.slice(0, -AS_JSON.length - 1)
        return { code: jsonModule({ display: relative(process.cwd(), path) || path, bytes: await readRegularFile(path) }), moduleType: 'js' }
      }
      if (id.includes('?')) return undefined
      const chunked = projects.find(({ context }) => context.chunks.modules.has(id))
      if (chunked === undefined && kindOfModule(kinds, id) === undefined) return undefined
      const state = chunked ?? projects.find(({ project }) => project.matchesTestGlob(id))
      if (state === undefined) return undefined
      const { project, context } = state
      const codeOptions = {
        runtime: RUNTIME,
        cacheDir: project.vite.config.cacheDir,
        moduleId: id,
        root: project.config.root,
        decisionRecord: resolved.decisionRecord,
        updateSnapshot: project.config.snapshotOptions.updateSnapshot,
        expect: resolved.expect,
      }
      const chunk = context.chunks.modules.get(id)
      if (chunk !== undefined) {
        // One chunk of a split fixture: only its cases are decided, from the files the run read once.
        const session = sessionOf(context, chunk.fixture.dir)
        const result = await session.chunk(chunk)
        const code = await fixtureModuleCode(chunk.fixture.dir, result, { ...codeOptions, readRecord: (path, display) => session.record(path, display) })
        return { code, moduleType: 'js' }
      }
      const dir = dirname(id)
      const result = await planWithContext(context, dir)
      context.plans.set(id, result)
      // The compare gates' checks depend on another fixture, the estimate gates' on sample.json too: they are added to the tests,
      // never to the cached plan or the decision record.
      const compared = await comparisonsOf(context, dir, result)
      const { checks: estimated } = await estimatesOf(context, dir, result)
      return { code: await fixtureModuleCode(dir, result, { ...codeOptions, extraChecks: [...compared.map(comparisonCheck), ...estimated] }), moduleType: 'js' }
    },
  }
}

/** A compare gate whose `against` is no fixture directory compares nothing: said at startup, not once per compared fixture. */
async function lostComparisons(root: string, options: ResolvedRubricOptions): Promise<string[]> {
  const problems: string[] = []
  for (const gate of options.compare) {
    if ((await fixtureKindsIn(kinds, resolve(root, gate.against))).length === 1) continue
    problems.push(
      `vitest-rubric: the compare gate's against ${JSON.stringify(gate.against)} is no fixture directory under ${root} ` +
        '(a fixture directory holds rubric.json, or evaluation_rubric.json). Set against to the directory of the fixture to compare with.',
    )
  }
  return problems
}

/**
 * A judge or estimate gate without `fixtures` globs checks the fixtures that hold its judge's labels:
 * when none does, it adds no check at all, so a misspelt name (`kW` for the labels of `kw`) would
 * pass the run. Said at startup, with the judge whose labels the run has that the name most likely meant.
 */
async function lostJudgeGates(root: string, options: ResolvedRubricOptions, fixtures: readonly DiscoveredFixture[]): Promise<string[]> {
  const gates: [string, string][] = [
    ...Object.entries(options.judges ?? {})
      .filter(([, gate]) => gate.fixtures === undefined)
      .map(([judge]): [string, string] => [judge, `the judge gate ${JSON.stringify(judge)}`]),
    ...options.estimate
      .filter((gate) => gate.fixtures === undefined)
      .map((gate): [string, string] => [gate.judge, `the estimate gate on judge ${JSON.stringify(gate.judge)}`]),
  ]
  if (gates.length === 0) return []
  const labelled = new Map<string, string>()
  for (const fixture of fixtures) {
    for (const name of await listDirectory(join(fixture.dir, JUDGES_DIR))) {
      // In NFC, as the judge's labels are read: a file named decomposed is the same judge's.
      const judge = reviewerName(name.slice(0, -'.json'.length))
      if (name.endsWith('.json') && !labelled.has(judge)) labelled.set(judge, relative(root, join(fixture.dir, JUDGES_DIR, name)))
    }
  }
  const problems: string[] = []
  for (const [judge, gate] of gates) {
    if (labelled.has(judge)) continue
    const meant = closestName(judge, [...labelled.keys()])
    problems.push(
      `vitest-rubric: ${gate} checks nothing: no fixture under ${root} holds its labels (${JUDGES_DIR}/${judge}.json), so it would add no check. ` +
        (meant === undefined
          ? `Record the judge's labels (vitest-rubric judge, or review --judge), or give the gate fixtures globs, so that the fixtures it names fail without them.`
          : `Did you mean ${JSON.stringify(meant)} (${labelled.get(meant)})? Name the gate as the judge's file is named.`),
    )
  }
  return problems
}

function lostRubricMessage(dir: string): string {
  return (
    `vitest-rubric: ${dir} holds cases.json and annotations.json but neither rubric.json nor evaluation_rubric.json, ` +
    'so it is no fixture and none of its cases runs. Restore its rubric file (from version control, if it was deleted or renamed).'
  )
}

/**
 * Hands the project's context to the run's pending gate (always there) and to the printing
 * reporter (unless `reporter: false`), adding each to Vitest's reporters once for all projects. A
 * reporter listed by name (`'vitest-rubric/reporter'`) is replaced by an instance that knows the
 * projects, with the options it was listed with.
 */
function attachReporters(vitest: Vitest, context: ProjectContext, options: ResolvedRubricOptions, Printer: PrinterClass): void {
  // Cast: Vitest's reporters option is a union of names, instances and tuples, read here as entries.
  const reporters = vitest.config.reporters as unknown[]
  let gate = reporters.find((entry): entry is PendingGateReporter => entry instanceof PendingGateReporter)
  if (gate === undefined) {
    gate = new PendingGateReporter()
    reporters.push(gate)
  }
  attachProject(gate, context)
  if (options.chunks !== undefined) {
    let splitGate = reporters.find((entry): entry is SplitFixtureGate => entry instanceof SplitFixtureGate)
    if (splitGate === undefined) {
      splitGate = new SplitFixtureGate()
      reporters.push(splitGate)
    }
    attachProject(splitGate, context)
  }
  if (options.reporter === false) return
  let printer = reporters.find((entry): entry is Reporter => entry instanceof Printer)
  if (printer === undefined) {
    const listed = reporters.findIndex((entry) => (Array.isArray(entry) ? entry[0] : entry) === 'vitest-rubric/reporter')
    if (listed >= 0) {
      const entry = reporters[listed]
      // Cast: the options of a listed vitest-rubric reporter are its own, as the user wrote them for it.
      printer = new Printer(Array.isArray(entry) ? ((entry[1] ?? {}) as RubricReporterOptions) : {})
      reporters[listed] = printer
    } else if (!onlyBlob(reporters)) {
      printer = new Printer(options.reporter)
      reporters.push(printer)
    }
  }
  if (printer !== undefined) attachProject(printer, context)
}

/** A shard writing a blob report prints nothing: the merge prints. */
function onlyBlob(reporters: readonly unknown[]): boolean {
  const names = reporters
    .filter((entry) => !(entry instanceof PendingGateReporter || entry instanceof SplitFixtureGate))
    // Cast: widens a tuple entry's name to what the filter compares.
    .map((entry) => (Array.isArray(entry) ? (entry[0] as unknown) : entry))
  return names.length > 0 && names.every((name) => name === 'blob')
}
