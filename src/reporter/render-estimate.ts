import type { Colors } from '../core/common/colors.js'
import { estimateHead, estimateWarnings, rateRange, splitEstimateText } from '../core/sample/estimate-text.js'
import type { FixtureEstimate } from '../core/sample/fixture-estimate.js'
import type { EstimateRefusal } from '../run/estimates.js'

const rate = (value: number) => value.toFixed(3)

/** The terminal block: what the estimate rests on, then one line per split. */
export function estimateLines(estimate: FixtureEstimate | EstimateRefusal, colors: Colors): string[] {
  if ('error' in estimate) return [`    estimate            ${colors.red('no estimate')}: ${estimate.error.split('\n')[0] ?? ''}`]
  const lines = [`    estimate            ${estimateHead(estimate)} · acceptance rate over every case, 95% intervals`]
  for (const split of estimate.splits) {
    const text = splitEstimateText(split)
    lines.push(`      ${split.split.padEnd(18)}${split.result.status === 'unsupported' ? colors.yellow(text) : text}`)
  }
  for (const warning of estimateWarnings(estimate)) lines.push(`      ${''.padEnd(18)}${colors.yellow(warning)}`)
  return lines
}

/** The job summary's table: one row per split. */
export function estimateMarkdown(fixture: string, estimate: FixtureEstimate | EstimateRefusal, escapeText: (text: string) => string): string[] {
  if ('error' in estimate) return ['', `**Estimate** of \`${fixture}\`: no estimate: ${escapeText(estimate.error.split('\n')[0] ?? '')}`]
  const lines = [
    '',
    `**Estimate** of \`${fixture}\`: the acceptance rate over every case, judge-assisted (PPI++), ${escapeText(estimateHead(estimate))}; 95% intervals.`,
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
        : `${head} ${rate(result.estimate)} | ${rateRange(result)}${result.worstCase === null ? '' : `, worst case ${rateRange(result.worstCase)}`} | ${rate(result.classical.estimate)} ${rateRange(result.classical)} | ${rate(result.judgeOnly.rate)} | ${result.effectiveReviews.toFixed(1)} |`,
    )
  }
  for (const warning of estimateWarnings(estimate)) lines.push('', escapeText(warning))
  return lines
}
