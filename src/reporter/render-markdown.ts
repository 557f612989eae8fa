import type { BenchmarkFigures } from '../core/scored/benchmark.js'
import type { RubricFigures, SplitFigures } from './figures.js'
import { NO_CASES, outcomeWords } from './words.js'

/** The same figures as Markdown tables, for a CI job summary. */
export function renderMarkdown(figures: RubricFigures): string {
  const words = outcomeWords(figures.fixtures.filter((fixture) => fixture.error === null).map((fixture) => fixture.kind))
  const lines = [
    '## Rubric coverage',
    '',
    `| fixture | split | executed | todo | filtered | ${words.graded} | pending | refused | ${words.positive} | ${words.negative} |`,
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  ]
  for (const fixture of figures.fixtures) {
    if (fixture.error !== null) {
      lines.push(`| \`${fixture.fixture}\` | — | refused: ${escape(fixture.error.message.split('\n')[0] ?? '')} |||||||||`)
      continue
    }
    if (fixture.splits.length === 0) lines.push(`| \`${fixture.fixture}\` | — | ${NO_CASES} |||||||||`)
    for (const row of fixture.splits) lines.push(tableRow(`\`${fixture.fixture}\``, row))
  }
  if (figures.fixtures.length > 1) for (const row of figures.total) lines.push(tableRow('**total**', row))
  const pending = figures.fixtures.flatMap((fixture) => fixture.pendingCases.map((item) => `- \`${fixture.fixture}\` ${item.id} (${item.split}): ${escape(item.reason)}`))
  if (pending.length > 0) lines.push('', '**Pending review** (neither passed nor failed):', '', ...pending)
  const refused = figures.fixtures.flatMap((fixture) =>
    fixture.refusedCases.map((item) => `- \`${fixture.fixture}\` ${item.id} (${item.split}): ${escape(item.message.split('\n')[0] ?? '')}`),
  )
  if (refused.length > 0) lines.push('', '**Refused** (binding or provenance errors, not decisions):', '', ...refused)
  for (const fixture of figures.fixtures) {
    if (fixture.benchmark !== null) lines.push('', ...benchmarkTable(fixture.fixture, fixture.benchmark))
  }
  return `${lines.join('\n')}\n`
}

function benchmarkTable(name: string, benchmark: BenchmarkFigures): string[] {
  const { system, baseline } = benchmark
  const figure = (value: number | null | undefined) => (value === null || value === undefined ? 'N/A' : value.toFixed(4))
  const dimensions = [...new Set([...Object.keys(system.dimensionMeans), ...Object.keys(baseline.dimensionMeans)])]
  return [
    `**Benchmark \`${name}\`**: margin over the baseline ${figure(benchmark.margin)} (at least ${benchmark.thresholds.baselineMargin.toFixed(2)} needed); benchmark gate ${benchmark.gates.benchmark.passed ? 'passed' : 'failed'}, baseline margin ${benchmark.gates.baseline.passed ? 'passed' : 'failed'}.`,
    '',
    '| | system | baseline |',
    '|---|--:|--:|',
    ...dimensions.map((dimension) => `| ${dimension} | ${figure(system.dimensionMeans[dimension])} | ${figure(baseline.dimensionMeans[dimension])} |`),
    `| pass fraction | ${figure(system.passFraction)} (${system.passed}/${system.scoreable}) | ${figure(baseline.passFraction)} (${baseline.passed}/${baseline.scoreable}) |`,
    `| mean | ${figure(system.mean)} | ${figure(baseline.mean)} |`,
    `| unscoreable (manual review) | ${system.unscoreable} | ${baseline.unscoreable} |`,
  ]
}

function tableRow(label: string, row: SplitFigures): string {
  const { execution, review } = row
  const outcomes = review.outcomes === null ? ['—', '—'] : [review.outcomes.accepted, review.outcomes.rejected]
  return `| ${label} | ${row.split} | ${execution.executed}/${execution.candidates} | ${execution.todo} | ${execution.filtered} | ${review.graded}/${review.candidates} | ${review.pending} | ${review.refused} | ${outcomes.join(' | ')} |`
}

function escape(text: string): string {
  return text.replace(/\|/g, '\\|')
}
