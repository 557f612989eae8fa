import type { CardRecord, ScoredRecord } from '../core/scored/record.js'
import { formatFigure, formatThreshold } from '../core/scored/dimensions/score.js'
import { formatReviewCoverage } from './format.js'

/**
 * The human-readable report of a scored fixture: thresholds, one row of scores per case with the
 * baseline's mean beside it, why cases fail or await manual review, refusals, the per-dimension
 * means of both systems and the two benchmark checks.
 */
export function formatScoredRecord(record: ScoredRecord): string {
  const { fixture, coverage, benchmark } = record
  const { thresholds } = benchmark
  const dimensions = Object.keys(benchmark.system.dimensionMeans)
  const labels = dimensions.map((_, index) => `D${index + 1}`)
  const lines = [
    `${fixture.name} (${fixture.dir}; rubric ${fixture.rubric})`,
    `  origin: ${fixture.origin}`,
    `  ${formatReviewCoverage(coverage)}`,
    `  rule: a case passes with mean ≥ ${formatThreshold(thresholds.overallCasePass)} and no applicable dimension below ${formatThreshold(thresholds.perDimensionPass)}; ` +
      `scoreable with at least ${thresholds.minApplicable} of ${dimensions.length} dimensions applicable`,
    `  dimensions: ${dimensions.map((name, index) => `${labels[index]} ${name}`).join(', ')}`,
  ]
  const ids = Object.keys(record.decisions)
  const idWidth = Math.max(4, ...ids.map((id) => id.length))
  const header = ['case'.padEnd(idWidth), 'status  ', ...labels.map((label) => label.padEnd(6)), 'mean  ', 'baseline (mean, rule)']
  lines.push(`  ${header.join(' ')}`.trimEnd())
  for (const [id, decision] of Object.entries(record.decisions)) {
    const baseline =
      decision.baseline.status === 'scored'
        ? `${cell(decision.baseline.mean)} ${(decision.baseline.verdict ?? '').replace('_', ' ')}`
        : decision.baseline.status.replace('_', ' ')
    const row = [id.padEnd(idWidth), decision.status.padEnd(8), ...dimensions.map((name) => scoreCell(decision, name)), cell(decision.mean).padEnd(6), baseline]
    lines.push(`  ${row.join(' ')}`)
  }
  const notes = Object.entries(record.decisions).filter(([, decision]) => decision.status !== 'accepted')
  if (notes.length > 0) {
    lines.push('  why:')
    for (const [id, decision] of notes) lines.push(`    ${id}: ${decision.status} — ${decision.reason}`)
  }
  if (coverage.pending > 0) lines.push('  Pending cases stay outside the benchmark figures: they are neither passes nor failures.')
  for (const refused of coverage.refusedCases) {
    lines.push(`  refused ${refused.id}:`, ...refused.message.split('\n').map((line) => `    ${line}`))
  }
  for (const [id, decision] of Object.entries(record.decisions)) {
    if (decision.status !== 'refused' && decision.baseline.status === 'refused') {
      lines.push(`  baseline refused for ${id}:`, ...decision.baseline.error.message.split('\n').map((line) => `    ${line}`))
    }
  }
  lines.push(`  per-dimension means (debate / baseline):`)
  dimensions.forEach((name, index) => {
    lines.push(`    ${labels[index]} ${name}: ${cell(benchmark.system.dimensionMeans[name] ?? null)} / ${cell(benchmark.baseline.dimensionMeans[name] ?? null)}`)
  })
  lines.push(
    `  benchmark passes: ${benchmark.gates.benchmark.passed ? 'yes' : 'no'} — ${benchmark.gates.benchmark.message}`,
    `  beats the trivial baseline by ≥ ${formatThreshold(thresholds.baselineMargin)}: ${benchmark.gates.baseline.passed ? 'yes' : 'no'} — ${benchmark.gates.baseline.message}`,
  )
  return lines.join('\n')
}

function scoreCell(card: CardRecord, name: string): string {
  if (card.scores === null) return '-'.padEnd(6)
  const score = card.scores[name]
  return (score === null || score === undefined ? 'N/A' : formatFigure(score)).padEnd(6)
}

function cell(value: number | null): string {
  return value === null ? '-' : formatFigure(value)
}
