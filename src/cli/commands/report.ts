import { resolve } from 'node:path'
import { displayPath } from '../../core/common/display-path.js'
import { requireFixtureDirectory } from '../../core/engine/fixture-directory.js'
import { resolveOptions } from '../../run/options.js'
import { planFixtureTests } from '../../core/engine/plan.js'
import { comparisonsOf } from '../../run/comparisons.js'
import { estimateChecks } from '../../run/estimates.js'
import { gateScopes, planOptions } from '../../run/gate-scope.js'
import { writeReport } from '../../web/report.js'
import { gateRequirements, reportGateChecks, type ReportGates } from '../../web/report-gates.js'
import { minReviewsOption, usage, stringOption, type Command } from '../command.js'
import { configuredRubricOptions, hasViteConfig } from '../vitest-config.js'
import { fixtureDirs } from './status.js'

/** Whether the directory holds a config file Vitest would load (`vitest.config.ts`, `vite.config.mjs`, …). */
/** `vitest-rubric report --html <dir...>`: the static, read-only HTML report. */
export const report: Command = {
  name: 'report',
  summary: 'write a self-contained, read-only HTML report of fixtures (for CI artifacts)',
  help: `Usage: vitest-rubric report --html [dir...] [--out <file>] [--min-reviews <n>] [--config <file>]

Writes one self-contained HTML file with the review page's overview and case views, without its
forms and without a server: it opens from file:// and can be uploaded as a CI artifact. Without
directories it reports the fixtures \`status\` finds under fixtures/. The gates that rubric() sets in
the Vitest config \`vitest\` loads here (agreement, judges, compare, estimate) are shown with each one's
outcome; without such a config the report says that no gate is set.

Options:
  --html              write the HTML report (the only format)
  --out <file>        where to write it (default .vitest-rubric/report.html); an existing file there
                      is replaced only when it is an earlier report
  --min-reviews <n>   a case needs n independent reviews (reviews/<name>.json) before it is decided,
                      as for evaluate (default: rubric()'s reviewers.min, else 0)
  --config <file>     the Vitest config to read rubric()'s gates from (default: the one vitest finds)

Exit codes: 0 when written (a fixture refused is reported as refused); 1 when a directory does not
exist, the Vitest config cannot be read, or --out names a file that is no report, with nothing
written; 2 on a usage error.`,
  options: { html: { type: 'boolean', default: false }, out: { type: 'string' }, 'min-reviews': { type: 'string' }, config: { type: 'string' } },
  async run({ values, positionals }, io) {
    if (values['html'] !== true) throw usage('report', 'say which report: --html.')
    const dirs = positionals.length > 0 ? positionals : await fixtureDirs(io.cwd)
    if (dirs.length === 0) throw usage('report', 'no fixture directories: pass some.')
    // A directory that does not exist is refused as every command refuses it, before anything is written; a
    // fixture that exists but is refused is reported as refused.
    for (const dir of positionals) await requireFixtureDirectory(resolve(io.cwd, dir), displayPath(io.cwd, resolve(io.cwd, dir)), io.cwd)
    const out = stringOption(values, 'out') ?? '.vitest-rubric/report.html'
    const config = stringOption(values, 'config')
    // Vitest is loaded only when there is a config for it to read: a report of a directory without one needs no second.
    const { options, configFile } =
      config === undefined && !hasViteConfig(io.cwd)
        ? { options: resolveOptions(), configFile: undefined }
        : await configuredRubricOptions('report', io.cwd, config)
    const minReviews = values['min-reviews'] === undefined ? options.reviewers.min : minReviewsOption('report', values['min-reviews'])
    // The cases are decided as the run decides them: the same reviewers' minimum, seed and margin reading.
    const evaluate = {
      panel: { minReviews },
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.marginGate === undefined ? {} : { marginGate: options.marginGate }),
    }
    let gates: ReportGates | undefined
    if (configFile !== undefined) {
      const scopes = gateScopes(options, io.cwd)
      const scoped = await scopes
      const context = { options, root: io.cwd, scopes, comparisons: new Map(), compared: new Set<string>() }
      gates = {
        config: configFile,
        requirements: gateRequirements(options),
        // The run's own checks of the fixture, from the evaluation the report made of it.
        async checksOf(dir, evaluation) {
          const plan = planFixtureTests(evaluation, planOptions(options, await scopes, dir))
          const estimated = await estimateChecks(options, await scopes, dir, evaluation, io.cwd)
          return reportGateChecks([...plan.checks, ...estimated], await comparisonsOf(context, dir, { plan }))
        },
        // The estimate shows the judge of the first estimate gate that may check the fixture, as the run's reporter does.
        estimateJudgeOf: (dir) => options.estimate.find((_, index) => scoped.estimate[index]?.has(dir) ?? true)?.judge,
      }
    }
    const path = await writeReport(dirs, io.cwd, out, evaluate, gates)
    io.stdout(`wrote ${displayPath(io.cwd, path)}`)
    return 0
  },
}
