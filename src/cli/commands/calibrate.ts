import { isOriginPlaceholder, shownOrigin } from '../../core/common/origin.js'
import { plural } from '../../core/common/primitives.js'
import {
  calibrateJudges,
  calibrationRatingsOf,
  matrixLines,
  type CalibrationReport,
  type CriterionCalibration,
  type JudgeCalibration,
} from '../../core/engine/calibration.js'
import { evaluateFixture } from '../../core/engine/evaluate.js'
import type { KindRegistry } from '../../core/engine/registry.js'
import { kinds, loadFixture } from '../../core/registry.js'
import { MAX_SKIPPED_SHARE, MIN_BOOTSTRAP_CASES } from '../../core/stats/index.js'
import { minReviewsOption, needDirs, stringOption, type Command, optionalJudge } from '../command.js'

/** `vitest-rubric calibrate <dir...> [--judge <name>] [--json] [--seed <s>]`: each judge against the reviewers. */
export const calibrate: Command = {
  name: 'calibrate',
  summary: "how far each automated judge's labels agree with the adopted reviews, per criterion",
  help: `Usage: vitest-rubric calibrate <dir...> [--judge <name>] [--json] [--seed <s>] [--min-reviews <n>]

Compares each automated judge's labels (judges/<name>.json, recorded with
\`vitest-rubric review --judge <name>\`) with the adopted reviews, over the cases that have both a
current adopted review and a current label. Per criterion: the confusion matrix (reviewers'
rating × judge's rating, the judge's uncertain a column of its own), failure recall (of what the
reviewers rated does_not_meet, the share the judge rated so), pass recall, percent agreement,
Cohen's kappa with a seeded 95% percentile bootstrap interval (resampling cases, one pair of
ratings each; none below ${MIN_BOOTSTRAP_CASES} cases; marked unreliable when more than ${MAX_SKIPPED_SHARE * 100}% of the
replicates have no variation and are skipped), the reviewers' base rate (the
share rated meets) and n; then the false accepts (the judge said meets, the reviewers
does_not_meet), the labels excluded as stale, with why, and what the judge predicts for the cases
still pending: a prediction, kept apart from review coverage. A judge's label never decides a case.
Definitions: docs/statistics.md.

Options:
  --judge <name>      only this judge (default: every judge with a file)
  --json              print the report as JSON
  --seed <s>          the seed of the bootstrap (default "vitest-rubric")
  --min-reviews <n>   a case needs n independent reviews (reviews/<name>.json) before it is decided,
                      as for evaluate (default 0); a case still pending is not compared

Exit codes: 0 when reported; 1 when a fixture is refused; 2 on a usage error (a judge without labels).`,
  options: { judge: { type: 'string' }, json: { type: 'boolean', default: false }, seed: { type: 'string' }, 'min-reviews': { type: 'string' } },
  async run({ values, positionals }, io) {
    const dirs = needDirs('calibrate', positionals)
    const panel = { minReviews: minReviewsOption('calibrate', values['min-reviews']) }
    const seed = stringOption(values, 'seed')
    const judge = optionalJudge(stringOption(values, 'judge'))
    const reports: CalibrationReport[] = []
    for (const dir of dirs) {
      const evaluation = evaluateFixture(await loadFixture(dir, { cwd: io.cwd }), { panel })
      reports.push(calibrateJudges(evaluation, { judge, seed }))
    }
    if (values['json'] === true) io.stdout(JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2))
    else io.stdout(reports.map((report) => formatCalibration(report)).join('\n\n'))
    return 0
  },
}

const figure = (value: number | null) => (value === null ? '—' : value.toFixed(3))
const percent = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(0)}%`)
const share = (value: number) => `${(value * 100).toFixed(1)}%`

/** The report as text: per judge, a line per criterion, the matrices, the false accepts, the stale labels and the predictions. */
export function formatCalibration(report: CalibrationReport, registry: KindRegistry = kinds): string {
  const kind = registry.get(report.kind)
  const ratings = kind === undefined ? undefined : calibrationRatingsOf(kind)
  if (kind === undefined || ratings === undefined) throw new TypeError(`the judges of a ${report.kind} fixture are not calibrated`)
  const words = { item: kind.panel.words.item, pass: ratings.pass }
  const lines = [`${report.name} (${report.dir})`]
  const names = Object.keys(report.judges)
  if (names.length === 0) lines.push('  no judge labels yet: record them with `vitest-rubric review <dir> --case <id> --judge <name> --from <labels.json>`')
  for (const [name, judge] of Object.entries(report.judges)) for (const line of judgeLines(name, judge, words)) lines.push(line)
  return lines.join('\n')
}

function judgeLines(name: string, judge: JudgeCalibration, words: { readonly item: string; readonly pass: string }): string[] {
  const lines = [
    `  judge ${name} (${judge.file}): ${isOriginPlaceholder(judge.origin) ? `origin ${shownOrigin(judge.origin, judge.file)}` : judge.origin}`,
    `    ${plural(judge.cases, 'case')} with a current adopted review and a current label`,
  ]
  const criteria = Object.entries(judge.criteria)
  const width = Math.max(words.item.length, ...criteria.map(([id]) => id.length)) + 2
  lines.push(
    `    ${words.item.padEnd(width)}${'n'.padEnd(6)}${'kappa'.padEnd(8)}${'95% interval'.padEnd(18)}${'skipped'.padEnd(9)}${'agreement'.padEnd(11)}${'fail recall'.padEnd(13)}${'pass recall'.padEnd(13)}${words.pass.padEnd(7)}false accepts`,
  )
  for (const [id, item] of criteria) lines.push(`    ${id.padEnd(width)}${criterionRow(item)}`)
  for (const [id, item] of criteria) {
    if (item.kappa === null) lines.push(`    no kappa for ${id}: ${item.kappa_reason ?? ''}`)
    else if (item.kappa_ci === null) lines.push(`    no interval for ${id}: ${item.kappa_ci_reason ?? ''}`)
    else if (item.kappa_bootstrap?.unreliable === true) {
      lines.push(
        `    interval of ${id} unreliable: ${share(item.kappa_bootstrap.skipped_share)} of ${plural(item.kappa_bootstrap.replicates, 'replicate')} had no variation and were skipped (more than ${share(MAX_SKIPPED_SHARE)})`,
      )
    }
  }
  lines.push('    confusion matrices (reviewers down, judge across):')
  for (const [id, item] of criteria) lines.push(`      ${id}`, ...matrixLines(item).map((line) => `        ${line}`))
  if (judge.stale > 0) {
    const byReason = new Map<string, string[]>()
    for (const label of judge.stale_cases) byReason.set(label.reason, [...(byReason.get(label.reason) ?? []), label.id])
    for (const [reason, ids] of byReason) lines.push(`    stale: ${plural(ids.length, 'label')} excluded, ${reason} (${ids.join(', ')})`)
  }
  for (const label of judge.refused_cases) lines.push(`    refused: the label of ${label.id} is excluded: ${label.reason}`)
  const { predictions } = judge
  if (predictions.pending > 0) {
    const undecided = predictions.undecided === 0 ? '' : `, ${predictions.undecided} still pending`
    const unlabelled = predictions.pending - predictions.labelled
    lines.push(
      `    prediction, not review coverage: the judge predicts ${predictions.accepted} accepted, ${predictions.rejected} rejected${undecided} of ${plural(predictions.pending, 'pending case')}` +
        (unlabelled === 0 ? '' : ` (${unlabelled} without a current label)`),
    )
  }
  return lines
}

function criterionRow(item: CriterionCalibration): string {
  const interval =
    item.kappa_ci === null ? '—' : `[${figure(item.kappa_ci[0])}, ${figure(item.kappa_ci[1])}]${item.kappa_bootstrap?.unreliable === true ? '?' : ''}`
  return `${String(item.n).padEnd(6)}${figure(item.kappa).padEnd(8)}${interval.padEnd(18)}${(item.kappa_bootstrap === null ? '—' : share(item.kappa_bootstrap.skipped_share)).padEnd(9)}${figure(item.percent_agreement).padEnd(11)}${figure(item.failure_recall).padEnd(13)}${figure(item.pass_recall).padEnd(13)}${percent(item.base_rate).padEnd(7)}${item.false_accepts.join(', ') || 'none'}`
}
