import type { BenchmarkFigures, SystemFigures } from '../core/scored/benchmark.js'
import type { Colors } from './colors.js'

/**
 * The benchmark section of a scored fixture: per-dimension means for the system and the baseline,
 * the pass fraction, the mean, the margin over the baseline and the unscoreable count.
 */
export function renderBenchmark(benchmark: BenchmarkFigures, colors: Colors): string[] {
  const { system, baseline, thresholds } = benchmark
  const dimensions = [...new Set([...Object.keys(system.dimensionMeans), ...Object.keys(baseline.dimensionMeans)])]
  const width = Math.max(28, ...dimensions.map((name) => name.length + 2))
  const row = (label: string, left: string, right: string) => `      ${label.padEnd(width)}${left.padStart(10)}${right.padStart(12)}`
  return [
    `    ${'benchmark'.padEnd(width + 2)}${'system'.padStart(10)}${'baseline'.padStart(12)}`,
    ...dimensions.map((name) => row(name, figure(system.dimensionMeans[name]), figure(baseline.dimensionMeans[name]))),
    row('pass fraction', figure(system.passFraction), figure(baseline.passFraction)),
    row('passed / scoreable', ratio(system), ratio(baseline)),
    row('mean', figure(system.mean), figure(baseline.mean)),
    row('unscoreable (manual review)', String(system.unscoreable), String(baseline.unscoreable)),
    ...(system.notReviewed + baseline.notReviewed + system.refused + baseline.refused > 0
      ? [
          row('not reviewed', String(system.notReviewed), String(baseline.notReviewed)),
          row('refused', String(system.refused), String(baseline.refused)),
        ]
      : []),
    `      margin over the baseline ${benchmark.margin === null ? 'unknown' : figure(benchmark.margin)} (${marginVerdict(benchmark, colors)}, at least ${thresholds.baselineMargin.toFixed(2)} needed)`,
  ]
}

function figure(value: number | null | undefined): string {
  return value === null || value === undefined ? 'N/A' : value.toFixed(4)
}

function ratio(figures: SystemFigures): string {
  return `${figures.passed} / ${figures.scoreable}`
}

function marginVerdict(benchmark: BenchmarkFigures, colors: Colors): string {
  return benchmark.gates.baseline.passed ? colors.green('enough') : colors.red('not enough')
}
