import { isOneOf, plural, SPLITS } from '../../core/common/primitives.js'
import { evaluateFixture } from '../../core/engine/evaluate.js'
import { loadFixture } from '../../core/registry.js'
import type { CriterionEstimate } from '../../core/sample/criterion-estimate.js'
import { estimateFixture, type EstimateReport, type SplitEstimate } from '../../core/sample/estimate.js'
import { MIN_PPI_PER_LABEL, MIN_PPI_REVIEWS, type RateInterval } from '../../core/stats/ppi.js'
import { oneDir, requiredOption, stringOption, usage, type Command } from '../command.js'
import { checkReviewer } from '../../core/engine/authoring/authors.js'

/** `vitest-rubric estimate <dir> --judge <name> [--split <split>] [--json]`: the judge-assisted acceptance rate of each split. */
export const estimate: Command = {
  name: 'estimate',
  summary: "the acceptance rate of each split over all its cases, from a judge's decisions and the reviewed sample",
  help: `Usage: vitest-rubric estimate <dir> --judge <name> [--split <split>] [--json]

Estimates the acceptance rate of each split over ALL its cases, with a 95% interval, by
prediction-powered inference (PPI++): the judge's decision on every case (its labels under the
fixture's decision rule: accepted 1, rejected 0), corrected by the human decisions of the cases
drawn by \`vitest-rubric sample\` (sample.json), each weighted by its inclusion probability.
Beside it: the human-only interval on the same sample; the judge-only rate, which is biased by
the judge's errors and never an estimate; the effective number of reviews (how many reviews,
sampled alike, the human-only interval would need to be as narrow); the sampled cases still
pending, with the interval's worst case over them; and how many reviewed cases outside the
sample were left out, since they were not drawn at random. Sampled cases whose answer changed
after the draw are named. Where the estimate cannot be trusted (fewer than ${MIN_PPI_REVIEWS} decided sampled
cases, fewer than ${MIN_PPI_PER_LABEL} of either decision, a case without a current judge decision) it says
why instead of giving a number.

After each split's acceptance rate, each criterion's meets rate by the same estimator, as a
table: the judge's rating of the criterion on every case (meets 1, does_not_meet 0; uncertain,
missing and stale labels are counted, and refuse the estimate) and the sampled cases' adopted
reviews' rating of it (uncertain: pending for that criterion only). Each interval is a 95%
interval on its own, with no correction for the number of criteria. A scored fixture has no
such table. Definitions: docs/statistics.md.

Options:
  --judge <name>     the judge whose labels (judges/<name>.json) are used (required)
  --split <split>    only this split: development or held_out (default: every split with cases)
  --json             print the report as JSON

Exit codes: 0 when reported (an estimate refused for too few reviews is reported, not an
error); 1 when the fixture is refused or has no sample.json (SAMPLE_MISSING) or an invalid one
(SAMPLE_INVALID); 2 on a usage error (a judge without labels).`,
  options: { judge: { type: 'string' }, split: { type: 'string' }, json: { type: 'boolean', default: false } },
  async run({ values, positionals }, io) {
    const dir = oneDir('estimate', positionals)
    const judge = checkReviewer(
      requiredOption('estimate', values, 'judge', 'estimate needs --judge <name>: the judge whose decisions cover every case.'),
      '--judge',
    )
    const split = stringOption(values, 'split')
    if (split !== undefined && !isOneOf(SPLITS, split)) {
      throw usage('estimate', `--split takes ${SPLITS.map((name) => JSON.stringify(name)).join(' or ')}, not ${JSON.stringify(split)}.`)
    }
    const evaluation = evaluateFixture(await loadFixture(dir, { cwd: io.cwd }))
    const report = await estimateFixture(evaluation, { judge, split, cwd: io.cwd })
    io.stdout(values['json'] === true ? JSON.stringify(report, null, 2) : formatEstimate(report))
    return 0
  },
}

const rate = (value: number) => value.toFixed(3)
const range = (value: { readonly low: number; readonly high: number }) => `[${rate(value.low)}, ${rate(value.high)}]`
const withInterval = (value: RateInterval) => `${rate(value.estimate)} ${range(value)}`

function splitLines(item: SplitEstimate): string[] {
  const { result } = item
  if (item.cases === 0) return [`  ${item.split}: no cases: nothing to estimate (the fixture holds no ${item.split} case)`]
  const lines = [`  ${item.split}: ${plural(item.cases, 'case')}, ${item.sampled} sampled (${result.decided} decided, ${result.pending} pending)`]
  if (result.status === 'unsupported') lines.push(`    no estimate: ${result.message}`)
  else {
    lines.push(
      `    judge-assisted (PPI++)     ${withInterval(result)}  95% interval, λ = ${result.lambda.toFixed(3)}`,
      `    human-only, same sample    ${withInterval(result.classical)}`,
      `    judge-only                 ${rate(result.judgeOnly.rate)}  biased by the judge's errors: not an estimate`,
      `    effective reviews          ${result.effectiveReviews.toFixed(1)} (from ${result.decided} decided)`,
    )
    if (result.worstCase !== null) lines.push(`    worst case over the ${plural(result.pending, 'pending sampled case')}: ${range(result.worstCase)}`)
  }
  if (item.pending.length > 0) {
    lines.push(
      `    pending sampled cases: ${item.pending.map((entry) => (entry.status === 'pending' ? entry.id : `${entry.id} (refused: ${entry.reason})`)).join(', ')}`,
    )
  }
  if (item.judgeMissing.length > 0) {
    const shown = item.judgeMissing.slice(0, 10).join(', ')
    lines.push(
      `    without a current decision of the judge: ${plural(item.judgeMissing.length, 'case')} (${shown}${item.judgeMissing.length > 10 ? ', …' : ''})`,
    )
  }
  lines.push(
    item.outsideReviews === 0
      ? '    no reviewed case outside the sample'
      : `    left out: ${plural(item.outsideReviews, 'reviewed case')} outside the sample (not drawn at random, so not used: the reviews stay valid as reviews)`,
  )
  if (item.criteria !== null) lines.push(...criterionLines(item.criteria))
  return lines
}

/** Each criterion's meets rate as a row: the estimate beside the human-only and judge-only figures, or why there is none. */
function criterionLines(criteria: Readonly<Record<string, CriterionEstimate>>): string[] {
  const names = Object.keys(criteria)
  if (names.length === 0) return []
  const width = Math.max('criterion'.length, ...names.map((name) => name.length)) + 2
  const lines = [
    `    meets rate by criterion (each its own 95% interval, no multiplicity correction):`,
    `      ${'criterion'.padEnd(width)}${'PPI++'.padEnd(23)}${'human-only'.padEnd(23)}${'judge-only (biased)'.padEnd(21)}${'effective reviews'.padEnd(19)}pending`,
  ]
  for (const [name, result] of Object.entries(criteria)) {
    const gaps = [
      result.judgeUncertain > 0 ? `${result.judgeUncertain} uncertain` : '',
      result.judgeMissing > 0 ? `${result.judgeMissing} missing` : '',
      result.judgeStale > 0 ? `${result.judgeStale} stale` : '',
    ].filter((gap) => gap !== '')
    const judgeGaps = gaps.length === 0 ? '' : `  (judge labels: ${gaps.join(', ')})`
    if (result.status === 'unsupported') {
      lines.push(`      ${name.padEnd(width)}no estimate: ${result.message}${judgeGaps}`)
      continue
    }
    lines.push(
      `      ${name.padEnd(width)}${withInterval(result).padEnd(23)}${withInterval(result.classical).padEnd(23)}${rate(result.judgeOnly.rate).padEnd(21)}${result.effectiveReviews.toFixed(1).padEnd(19)}${result.pending}${judgeGaps}`,
    )
  }
  return lines
}

/** The report as text: per split, the estimate beside the human-only and judge-only figures, and what was left out. */
export function formatEstimate(report: EstimateReport): string {
  const lines = [
    `${report.name} (${report.dir}) · judge ${report.judge} (${report.judgeFile}) · ${report.sample.file}: ${plural(report.sample.cases, 'case')}, ${report.sample.method}, ${plural(report.sample.draws, 'draw')}`,
  ]
  if (report.populationChanged !== null) {
    lines.push(
      `  the cases changed since the last draw (${report.populationChanged.atDraw} then, ${report.populationChanged.now} now): the inclusion probabilities describe the cases as they were; draw a new sample with \`vitest-rubric sample ${report.dir} --size <n> --seed <s> --new\``,
    )
  }
  for (const item of report.splits) lines.push(...splitLines(item))
  if (report.changedAnswers.length > 0) {
    lines.push(`  answers changed since the draw: ${report.changedAnswers.map((entry) => `${entry.id} (${entry.split})`).join(', ')}`)
  }
  if (report.missingCases.length > 0) lines.push(`  sampled cases no longer in the fixture, left out: ${report.missingCases.join(', ')}`)
  return lines.join('\n')
}
