import { plural } from '../../core/common/primitives.js'
import { panelAgreement, type AgreementReport, type ItemAgreement } from '../../core/engine/agreement.js'
import { MAX_SKIPPED_SHARE, MIN_BOOTSTRAP_CASES, MIN_POOLED_INTERVAL_CASES } from '../../core/stats/index.js'
import type { Decision } from '../../core/contract/decision.js'
import type { KindPanel } from '../../core/contract/kind.js'
import type { KindRegistry } from '../../core/engine/registry.js'
import { kinds, loadFixture } from '../../core/registry.js'
import { needDirs, stringOption, wholeNumberOption, type Command } from '../command.js'

/** The most disagreeing cases `--sample` draws per criterion: as many cases as a fixture is made to hold. */
const MAX_SAMPLE = 1_000_000

/** `vitest-rubric agreement <dir...> [--json] [--sample <n>] [--seed <s>]`: how far independent reviews agree. */
export const agreement: Command = {
  name: 'agreement',
  summary: "how far the independent reviews agree, per criterion: Krippendorff's alpha with its interval, AC1, kappa",
  help: `Usage: vitest-rubric agreement <dir...> [--json] [--sample <n>] [--seed <s>]

Reports how far the independent reviews of each fixture (reviews/<reviewer>.json) agree, per
criterion (per dimension for a scored fixture) and overall: Krippendorff's alpha with its 95%
percentile bootstrap interval, observed percent agreement, Gwet's AC1 and Cohen's kappa of each
pair of reviewers, the number of cases and judgements they rest on, and the cases where the
reviewers disagree. A criteria fixture is measured at the nominal level over meets /
does_not_meet, uncertain being a missing value; a scored one at the interval level over each
dimension's scores, N/A missing. Where fewer than two reviewers judged a criterion, or every
judgement is the same, there is no figure: the report says why, and never shows 1 or 0 for it.

Overall pools the criteria whose own alpha is defined (a criterion without variation is left
out, and with none left there is no overall figure); a case and a criterion are one unit of alpha.

The bootstrap resamples cases with replacement, seeded (the same run gives the same interval):
per criterion, the cases with two or more judgements of it; overall, the cases with such a
judgement of a pooled criterion, each drawn case bringing all its pooled criteria, since the
criteria of one case are not independent. Below ${MIN_BOOTSTRAP_CASES} cases there is no interval, and
below ${MIN_POOLED_INTERVAL_CASES} no overall one: in simulation the pooled interval covered the true alpha
in under 93% of such panels. The report states the share of replicates skipped for lack of
variation; above ${MAX_SKIPPED_SHARE * 100}% it marks the interval unreliable. Definitions: docs/statistics.md.

Options:
  --json         print the report as JSON
  --sample <n>   draw n disagreeing cases per criterion, to adjudicate first
  --seed <s>     the seed of the bootstrap and of the sample (default "vitest-rubric")

Exit codes: 0 when reported; 1 when a fixture is refused.`,
  options: { json: { type: 'boolean', default: false }, sample: { type: 'string' }, seed: { type: 'string' } },
  async run({ values, positionals }, io) {
    const dirs = needDirs('agreement', positionals)
    const sampleText = stringOption(values, 'sample')
    const sample = sampleText === undefined ? undefined : wholeNumberOption('agreement', 'sample', sampleText, 1, MAX_SAMPLE, 'a whole number of cases')
    const seed = stringOption(values, 'seed')
    const reports: AgreementReport[] = []
    for (const dir of dirs)
      reports.push(
        panelAgreement(await loadFixture(dir, { cwd: io.cwd }), { ...(seed === undefined ? {} : { seed }), ...(sample === undefined ? {} : { sample }) }),
      )
    // One fixture prints one report; several, a list (as evaluate --json does).
    if (values['json'] === true)
      io.stdout(JSON.stringify(reports.length === 1 ? agreementJson(reports[0]!) : reports.map((report) => agreementJson(report)), null, 2))
    else io.stdout(reports.map((report) => formatAgreement(report)).join('\n\n'))
    return 0
  },
}

/** The report as JSON, its items under the kind's word for them (`criteria`, `dimensions`). */
export function agreementJson(report: AgreementReport, registry: KindRegistry = kinds): Record<string, unknown> {
  const { items, ...rest } = report
  return { ...rest, [wordsOf(report, registry).items]: items }
}

/** How the report's kind names its items and the scale of its alpha. */
function wordsOf(report: AgreementReport, registry: KindRegistry): KindPanel<unknown, Decision>['words'] {
  const kind = registry.get(report.kind)
  if (kind === undefined) throw new TypeError(`no kind of fixture is named ${JSON.stringify(report.kind)}`)
  return kind.panel.words
}

const figure = (value: number | null) => (value === null ? '—' : value.toFixed(3))
const percent = (share: number) => `${(100 * share).toFixed(1)}%`

/** The report as text: a line per item, then the overall line, the pairwise kappas and the sample. */
export function formatAgreement(report: AgreementReport, registry: KindRegistry = kinds): string {
  const words = wordsOf(report, registry)
  const noun = words.item
  const lines = [
    `${report.name} (${report.dir})`,
    `  ${plural(report.reviewers.length, 'reviewer')} (${report.reviewers.join(', ') || 'none'}), ${plural(report.cases, 'case')} reviewed independently; ` +
      words.scale,
  ]
  if (report.refused_cases.length > 0) {
    const codes = [...new Set(report.refused_cases.map((each) => each.code))].join(', ')
    lines.push(
      `  left out: ${plural(report.refused_cases.length, 'case')} whose every independent review is refused (${codes}; \`vitest-rubric status\` says what to do): ${report.refused_cases.map((each) => each.id).join(', ')}`,
    )
  }
  const names = [...Object.keys(report.items), 'overall']
  const width = Math.max(noun.length, ...names.map((name) => name.length)) + 2
  lines.push(`  ${noun.padEnd(width)}alpha   95% interval     skipped  agreement  AC1     cases  judgements  disagreements`)
  const notes: string[] = []
  const row = (name: string, item: ItemAgreement) => {
    if (item.alpha === null)
      return `  ${name.padEnd(width)}—       no figure: ${item.reason}${item.disagreements.length === 0 ? '' : `; disagreements: ${item.disagreements.join(', ')}`}`
    const bootstrap = item.alpha_bootstrap
    if (item.alpha_ci === null) notes.push(`${name}: no interval: ${item.alpha_ci_reason}`)
    else if (bootstrap?.unreliable === true) {
      notes.push(
        `${name}: interval unreliable: ${percent(bootstrap.skipped_share)} of ${plural(bootstrap.replicates, 'replicate')} had no variation and were skipped (more than ${percent(MAX_SKIPPED_SHARE)})`,
      )
    }
    const interval = item.alpha_ci === null ? '—' : `[${figure(item.alpha_ci[0])}, ${figure(item.alpha_ci[1])}]${bootstrap?.unreliable === true ? '?' : ''}`
    const skipped = bootstrap === null ? '—' : percent(bootstrap.skipped_share)
    return `  ${name.padEnd(width)}${figure(item.alpha).padEnd(8)}${interval.padEnd(17)}${skipped.padEnd(9)}${figure(item.percent_agreement).padEnd(11)}${figure(item.ac1).padEnd(8)}${String(item.units).padEnd(7)}${String(item.pairs).padEnd(12)}${item.disagreements.join(', ') || 'none'}`
  }
  for (const [name, item] of Object.entries(report.items)) lines.push(row(name, item))
  lines.push(row('overall', report.overall))
  const replicates = [...Object.values(report.items), report.overall].find((item) => item.alpha_bootstrap !== null)?.alpha_bootstrap?.replicates
  lines.push(
    `  intervals: percentile bootstrap${replicates === undefined ? '' : ` of ${plural(replicates, 'replicate')}`}, seed ${JSON.stringify(String(report.seed))}, resampling cases; ` +
      (report.pooled.length === 0 ? 'no overall figure' : `overall pools ${report.pooled.join(', ')}, each drawn case bringing all of them`) +
      `; no interval below ${MIN_BOOTSTRAP_CASES} cases, no overall one below ${MIN_POOLED_INTERVAL_CASES}`,
  )
  for (const note of notes) lines.push(`  ${note}`)
  const pairs = Object.keys(report.overall.kappa)
  if (pairs.length > 0) {
    lines.push("  Cohen's kappa by pair of reviewers:")
    for (const pair of pairs) {
      const perItem = Object.entries(report.items).map(([name, item]) => `${name} ${figure(item.kappa[pair] ?? null)}`)
      const shared = report.shared_cases[pair] ?? 0
      lines.push(
        `    ${pair.replace('|', ' & ')} (${plural(shared, 'case')} in common): overall ${figure(report.overall.kappa[pair] ?? null)}; ${perItem.join(', ')}`,
      )
    }
  }
  if (report.sample !== undefined) {
    lines.push(`  to adjudicate first (seed ${JSON.stringify(String(report.seed))}):`)
    for (const [name, ids] of Object.entries(report.sample)) lines.push(`    ${name}: ${ids.join(', ') || 'no disagreement'}`)
  }
  return lines.join('\n')
}
