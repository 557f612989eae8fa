import { plural } from '../core/common/primitives.js'
import type { Colors } from '../core/common/colors.js'
import type { FixtureEstimate, SplitEstimateFigures } from '../core/sample/fixture-estimate.js'
import type { EstimateRefusal } from '../run/estimates.js'

const rate = (value: number) => value.toFixed(3)
const range = (value: { readonly low: number; readonly high: number }) => `[${rate(value.low)}, ${rate(value.high)}]`

/** Which judge, and why that one: `judge ix`, `judge ix (the first by name of ix, kw)`. */
export function judgeText(estimate: FixtureEstimate): string {
  return estimate.judgeChosen === 'first' ? `judge ${estimate.judge} (the first by name of ${estimate.judges.join(', ')})` : `judge ${estimate.judge}`
}

/** What the estimate rests on: `judge ix · lab/sample.json: 60 cases, uniform`. */
function headText(estimate: FixtureEstimate): string {
  return `${judgeText(estimate)} · ${estimate.sample.file}: ${plural(estimate.sample.cases, 'case')}, ${estimate.sample.method}`
}

/** `56 of 60 sampled decided, 4 pending`. */
function countsText(split: SplitEstimateFigures): string {
  return `${split.result.decided} of ${split.sampled} sampled decided, ${split.pending} pending`
}

/** One split in one line: the PPI++ estimate and interval beside the human-only and judge-only figures, or why there is none. */
export function splitEstimateText(split: SplitEstimateFigures): string {
  const { result } = split
  if (result.status === 'unsupported') return `no estimate: ${result.message}`
  const worst = result.worstCase === null ? '' : ` (worst case over them ${range(result.worstCase)})`
  return (
    `PPI++ ${rate(result.estimate)} ${range(result)} · human-only ${rate(result.classical.estimate)} ${range(result.classical)} · ` +
    `judge-only ${rate(result.judgeOnly.rate)} (biased) · ${countsText(split)}${worst} · effective reviews ${result.effectiveReviews.toFixed(1)}`
  )
}

/** The terminal block: what the estimate rests on, then one line per split. */
export function estimateLines(estimate: FixtureEstimate | EstimateRefusal, colors: Colors): string[] {
  if ('error' in estimate) return [`    estimate            ${colors.red('no estimate')}: ${estimate.error.split('\n')[0] ?? ''}`]
  const lines = [`    estimate            ${headText(estimate)} · acceptance rate over every case, 95% intervals`]
  for (const split of estimate.splits) {
    const text = splitEstimateText(split)
    lines.push(`      ${split.split.padEnd(18)}${split.result.status === 'unsupported' ? colors.yellow(text) : text}`)
  }
  if (estimate.changedAnswers > 0)
    lines.push(`      ${''.padEnd(18)}${colors.yellow(`${plural(estimate.changedAnswers, 'sampled case')} changed since the draw: reviewed again`)}`)
  if (estimate.populationChanged !== null) {
    const { atDraw, now } = estimate.populationChanged
    lines.push(
      `      ${''.padEnd(18)}${colors.yellow(`the cases changed since the last draw (${atDraw} then, ${now} now): the inclusion probabilities describe the cases as they were`)}`,
    )
  }
  return lines
}

/** The job summary's table: one row per split. */
export function estimateMarkdown(fixture: string, estimate: FixtureEstimate | EstimateRefusal, escapeText: (text: string) => string): string[] {
  if ('error' in estimate) return ['', `**Estimate** of \`${fixture}\`: no estimate: ${escapeText(estimate.error.split('\n')[0] ?? '')}`]
  const lines = [
    '',
    `**Estimate** of \`${fixture}\`: the acceptance rate over every case, judge-assisted (PPI++), ${escapeText(headText(estimate))}; 95% intervals.`,
    '',
    '| split | cases | sampled | decided | pending | PPI++ | 95% interval | human-only | judge-only (biased) | effective reviews |',
    '|---|--:|--:|--:|--:|--:|---|---|--:|--:|',
  ]
  for (const split of estimate.splits) {
    const { result } = split
    const head = `| ${split.split} | ${split.cases} | ${split.sampled} | ${result.decided} | ${split.pending} |`
    lines.push(
      result.status === 'unsupported'
        ? `${head} no estimate: ${escapeText(result.message)} |||||`
        : `${head} ${rate(result.estimate)} | ${range(result)}${result.worstCase === null ? '' : `, worst case ${range(result.worstCase)}`} | ${rate(result.classical.estimate)} ${range(result.classical)} | ${rate(result.judgeOnly.rate)} | ${result.effectiveReviews.toFixed(1)} |`,
    )
  }
  return lines
}
