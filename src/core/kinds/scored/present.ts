import { plural } from '../../common/primitives.js'
import { showScoredCase } from './show.js'
import type { Colors } from '../../common/colors.js'
import type { DecisionJson, EvaluationJson } from '../../contract/results.js'
import type { KindPresentation } from '../../contract/kind.js'
import type { BenchmarkFigures, SystemFigures } from './benchmark.js'
import type { CaseVerdict, ScoreCard } from './case-rule.js'
import type { BaselineOutcome, ScoredDecision } from './decision.js'
import { formatFigure, formatThreshold } from './dimensions/score.js'
import { formatCardFailure } from './messages.js'
import type { RubricRules, ScoredRubric } from './rubric.js'

/** The name of the benchmark gate's test. */
export const BENCHMARK_CHECK = 'benchmark passes'

/** The name of the baseline comparison's test, with the margin read from the rubric: `beats the trivial baseline by ≥ 0.10`. */
export function baselineCheckName(rules: RubricRules): string {
  return `beats the trivial baseline by ≥ ${formatThreshold(rules.baselineMargin)}`
}

/** Scores by dimension, in the rubric's order; `null` for N/A. */
export function scoresOf(card: ScoreCard): Record<string, number | null> {
  return Object.fromEntries(Object.entries(card.dimensions).map(([name, dimension]) => [name, dimension.score]))
}

/** One system's card as JSON; every field `null` (and no failures) when there is no card. */
export interface CardJson {
  /** What the per-case rule makes of the case: `pass`, `fail` or `manual_review`. */
  readonly verdict: CaseVerdict | null
  /** Scores by dimension, in the rubric's order; `null` for N/A. */
  readonly scores: Readonly<Record<string, number | null>> | null
  readonly mean: number | null
  readonly applicable: number | null
  /** How each score was reached, or why it is N/A. */
  readonly details: Readonly<Record<string, string>> | null
  readonly failures: readonly string[]
}

/** The baseline on one case as JSON. */
export type BaselineJson =
  | ({ readonly status: 'scored' } & CardJson)
  | { readonly status: 'not_reviewed' }
  | { readonly status: 'refused'; readonly reason: string; readonly error: { readonly code: string; readonly message: string } }

/** One case of a scored fixture as `evaluate --json` prints it: the debate system's decision and card, the baseline beside it. */
export type ScoredDecisionJson = DecisionJson &
  CardJson & {
    readonly baseline: BaselineJson
    readonly error?: { readonly code: string; readonly message: string }
  }

export function cardJson(card: ScoreCard | null): CardJson {
  if (card === null) return { verdict: null, scores: null, mean: null, applicable: null, details: null, failures: [] }
  return {
    verdict: card.verdict,
    scores: scoresOf(card),
    mean: card.mean,
    applicable: card.applicable,
    details: Object.fromEntries(Object.entries(card.dimensions).map(([name, dimension]) => [name, dimension.detail])),
    failures: card.failures,
  }
}

export function baselineJson(outcome: BaselineOutcome): BaselineJson {
  switch (outcome.status) {
    case 'scored':
      return { status: 'scored', ...cardJson(outcome.card) }
    case 'not_reviewed':
      return { status: 'not_reviewed' }
    case 'refused':
      return { status: 'refused', reason: outcome.reason, error: outcome.error }
  }
}

/** How a scored fixture's decisions are shown: in tests, as JSON, in `status` and in reports. */
export const scoredPresentation: KindPresentation<ScoredRubric, ScoredDecision, BenchmarkFigures> = {
  rubricName: ({ files }) => `${files.rubric?.name ?? 'evaluation_rubric.json'}@sha256:${(files.rubric?.sha256 ?? '').slice(0, 12)}`,
  plannedCase(decision, context) {
    switch (decision.status) {
      case 'accepted':
        return { detail: { scores: scoresOf(decision.card) } }
      case 'rejected':
        return { detail: { scores: scoresOf(decision.card) }, message: formatCardFailure(decision.card, context.rubric.rules) }
      case 'pending':
        return { detail: decision.card === null ? {} : { scores: scoresOf(decision.card) } }
      case 'refused':
        return { detail: {}, message: decision.error.message }
    }
  },
  checks: (benchmark, { rubric }) => [
    { name: BENCHMARK_CHECK, ok: benchmark.gates.benchmark.passed, message: benchmark.gates.benchmark.message },
    { name: baselineCheckName(rubric.rules), ok: benchmark.gates.baseline.passed, message: benchmark.gates.baseline.message },
  ],
  decisionJson(decision) {
    const baseline = baselineJson(decision.baseline)
    if (decision.status === 'refused') return { ...cardJson(null), baseline, error: decision.error }
    return { ...cardJson(decision.card), baseline }
  },
  summaryJson: (benchmark) => ({ key: 'benchmark', value: benchmark }),
  pendingFindings(decision) {
    if (decision.status !== 'pending') return []
    return decision.card === null ? [{ group: 'unreviewed', detail: 'no debate review' }] : [{ group: 'manual-review', detail: decision.reason }]
  },
  refusals(decision) {
    const messages = decision.status === 'refused' ? [decision.error.message] : []
    // A refused case refuses its baseline with the same error: one message, not two.
    if (decision.baseline.status === 'refused' && !messages.includes(decision.baseline.error.message)) messages.push(decision.baseline.error.message)
    return messages
  },
  extraFindings(decision) {
    const { baseline } = decision
    // A refused case refuses its baseline with the same error: that is one refusal, not the baseline review's.
    const refusedWithCase = decision.status === 'refused' && baseline.status === 'refused' && baseline.error.message === decision.error.message
    if (baseline.status === 'refused' && !refusedWithCase) return [{ group: 'refused', detail: `baseline review: ${firstLine(baseline.error.message)}` }]
    if (baseline.status === 'not_reviewed') return [{ group: 'unreviewed', detail: 'no baseline review' }]
    return []
  },
  pendingGroups: {
    unreviewed: {
      title: 'unreviewed',
      action:
        'review the outputs: `vitest-rubric review {dir} --case <id> --system debate` and `--system baseline` (on a terminal it asks; from a script, --from <review.json>)',
    },
    'manual-review': { title: 'manual review', action: 'too few dimensions apply: a person decides this case (it stays pending)' },
  },
  words: { positive: 'passed', negative: 'failed', graded: 'scored', pending: 'pending (manual review or no review)' },
  evaluationLines: scoredEvaluationLines,
  reportLines: (_cases, benchmark, colors) => renderBenchmark(benchmark, colors),
  markdownLines: (name, benchmark) => benchmarkTable(name, benchmark),
  showCase: showScoredCase,
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!
}

/**
 * The body of `evaluate`'s report for a scored fixture: thresholds, one row of scores per case with
 * the baseline's mean beside it, why cases fail or await manual review, refusals, the per-dimension
 * means of both systems and the two benchmark checks.
 */
function scoredEvaluationLines(json: EvaluationJson): string[] {
  // Cast: a scored evaluation's JSON holds its summary under benchmark (summaryJson).
  const benchmark = json['benchmark'] as BenchmarkFigures
  // Cast: each decision of a scored evaluation's JSON is a scored one (decisionJson).
  const decisions = json.decisions as Readonly<Record<string, ScoredDecisionJson>>
  const { coverage } = json
  const { thresholds } = benchmark
  const dimensions = Object.keys(benchmark.system.dimensionMeans)
  const labels = dimensions.map((_, index) => `D${index + 1}`)
  const lines = [
    `  rule: a case passes with mean ≥ ${formatThreshold(thresholds.overallCasePass)} and no applicable dimension below ${formatThreshold(thresholds.perDimensionPass)}; ` +
      `scoreable with at least ${thresholds.minApplicable} of ${plural(dimensions.length, 'dimension')} applicable`,
    `  dimensions: ${dimensions.map((name, index) => `${labels[index]} ${name}`).join(', ')}`,
  ]
  // A loop, not Math.max(...ids): a spread of every case id overflows the call stack on a large benchmark.
  let idWidth = 4
  for (const id of Object.keys(decisions)) idWidth = Math.max(idWidth, id.length)
  const header = ['case'.padEnd(idWidth), 'status  ', ...labels.map((label) => label.padEnd(6)), 'mean  ', 'baseline (mean, rule)']
  lines.push(coverage.candidates === 0 ? '  decisions: none yet (no cases)' : `  ${header.join(' ')}`.trimEnd())
  for (const [id, decision] of Object.entries(decisions)) {
    const baseline =
      decision.baseline.status === 'scored'
        ? `${cell(decision.baseline.mean)} ${(decision.baseline.verdict ?? '').replace('_', ' ')}`
        : decision.baseline.status.replace('_', ' ')
    const row = [id.padEnd(idWidth), decision.status.padEnd(8), ...dimensions.map((name) => scoreCell(decision, name)), cell(decision.mean).padEnd(6), baseline]
    lines.push(`  ${row.join(' ')}`)
  }
  const notes = Object.entries(decisions).filter(([, decision]) => decision.status !== 'accepted')
  if (notes.length > 0) {
    lines.push('  why:')
    for (const [id, decision] of notes) lines.push(`    ${id}: ${decision.status} — ${decision.reason}`)
  }
  if (coverage.pending > 0) lines.push('  Pending cases stay outside the benchmark figures: they are neither passes nor failures.')
  for (const refused of coverage.refusedCases) {
    lines.push(`  refused ${refused.id}:`, ...refused.message.split('\n').map((line) => `    ${line}`))
  }
  for (const [id, decision] of Object.entries(decisions)) {
    if (decision.status !== 'refused' && decision.baseline.status === 'refused') {
      lines.push(`  baseline refused for ${id}:`, ...decision.baseline.error.message.split('\n').map((line) => `    ${line}`))
    }
  }
  lines.push(`  per-dimension means (debate / baseline):`)
  dimensions.forEach((name, index) => {
    lines.push(
      `    ${labels[index]} ${name}: ${cell(benchmark.system.dimensionMeans[name] ?? null)} / ${cell(benchmark.baseline.dimensionMeans[name] ?? null)}`,
    )
  })
  lines.push(
    `  benchmark passes: ${benchmark.gates.benchmark.passed ? 'yes' : 'no'} — ${benchmark.gates.benchmark.message}`,
    `  beats the trivial baseline by ≥ ${formatThreshold(thresholds.baselineMargin)}: ${benchmark.gates.baseline.passed ? 'yes' : 'no'} — ${benchmark.gates.baseline.message}`,
  )
  for (const line of uncertaintyLines(benchmark)) lines.push(`  ${line}`)
  return lines
}

/**
 * The benchmark's figures with their uncertainty: the pass fraction's Wilson interval, the mean's
 * standard error, and the margin paired case by case with its bootstrap interval.
 */
export function uncertaintyLines(benchmark: BenchmarkFigures): string[] {
  const { system, baseline, paired, thresholds } = benchmark
  const interval = (value: readonly [number, number] | null) =>
    value === null ? 'no interval' : `95% interval [${formatFigure(value[0])}, ${formatFigure(value[1])}]`
  const se = (value: number | null) => (value === null ? 'no SE (fewer than two cases)' : `SE ${formatFigure(value)}`)
  const lines = [
    `pass fraction ${cell(system.passFraction)}, Wilson ${interval(system.passInterval)} over ${system.scoreable} scoreable cases`,
    `mean score ${cell(system.mean)}, ${se(system.meanSe)}; baseline ${cell(baseline.mean)}, ${se(baseline.meanSe)}`,
  ]
  if (paired.mean === null) lines.push('paired margin: no case is scoreable for both systems')
  else {
    const clears =
      paired.lowerBoundClears === null
        ? ''
        : `; its lower bound ${paired.lowerBoundClears ? 'also clears' : 'does not clear'} ${formatThreshold(thresholds.baselineMargin)}`
    lines.push(
      `paired margin ${formatFigure(paired.mean)} over ${plural(paired.n, 'case')} scoreable for both, ${se(paired.se)}, paired bootstrap ${interval(paired.interval)}${clears}`,
    )
  }
  lines.push(
    `the baseline gate compares ${benchmark.marginGate === 'lower-bound' ? "the paired interval's lower bound (marginGate: lower-bound)" : 'the point estimate, as the rubric states it'}`,
  )
  return lines
}

function scoreCell(card: CardJson, name: string): string {
  if (card.scores === null) return '-'.padEnd(6)
  const score = card.scores[name]
  return (score === null || score === undefined ? 'N/A' : formatFigure(score)).padEnd(6)
}

function cell(value: number | null): string {
  return value === null ? '-' : formatFigure(value)
}

/**
 * The benchmark section of the reporter's block: per-dimension means for the system and the
 * baseline, the pass fraction, the mean, the margin over the baseline and the unscoreable count.
 */
function renderBenchmark(benchmark: BenchmarkFigures, colors: Colors): string[] {
  const { system, baseline, thresholds } = benchmark
  const dimensions = [...new Set([...Object.keys(system.dimensionMeans), ...Object.keys(baseline.dimensionMeans)])]
  let width = 28
  for (const name of dimensions) width = Math.max(width, name.length + 2)
  const row = (label: string, left: string, right: string) => `      ${label.padEnd(width)}${left.padStart(10)}${right.padStart(12)}`
  return [
    `    ${'benchmark'.padEnd(width + 2)}${'system'.padStart(10)}${'baseline'.padStart(12)}`,
    ...dimensions.map((name) => row(name, figure(system.dimensionMeans[name]), figure(baseline.dimensionMeans[name]))),
    row('pass fraction', figure(system.passFraction), figure(baseline.passFraction)),
    row('passed / scoreable', ratio(system), ratio(baseline)),
    row('mean', figure(system.mean), figure(baseline.mean)),
    row('unscoreable (manual review)', String(system.unscoreable), String(baseline.unscoreable)),
    ...(system.notReviewed + baseline.notReviewed + system.refused + baseline.refused > 0
      ? [row('not reviewed', String(system.notReviewed), String(baseline.notReviewed)), row('refused', String(system.refused), String(baseline.refused))]
      : []),
    `      margin over the baseline ${benchmark.margin === null ? 'unknown' : figure(benchmark.margin)} (${benchmark.gates.baseline.passed ? colors.green('enough') : colors.red('not enough')}, at least ${thresholds.baselineMargin.toFixed(2)} needed)`,
    ...uncertaintyLines(benchmark).map((line) => `      ${line}`),
  ]
}

function figure(value: number | null | undefined): string {
  return value === null || value === undefined ? 'N/A' : value.toFixed(4)
}

function ratio(figures: SystemFigures): string {
  return `${figures.passed} / ${figures.scoreable}`
}

/** The benchmark as Markdown, for a CI job summary. */
function benchmarkTable(name: string, benchmark: BenchmarkFigures): string[] {
  const { system, baseline } = benchmark
  const dimensions = [...new Set([...Object.keys(system.dimensionMeans), ...Object.keys(baseline.dimensionMeans)])]
  return [
    '',
    `**Benchmark \`${name}\`**: margin over the baseline ${figure(benchmark.margin)} (at least ${benchmark.thresholds.baselineMargin.toFixed(2)} needed); benchmark gate ${benchmark.gates.benchmark.passed ? 'passed' : 'failed'}, baseline margin ${benchmark.gates.baseline.passed ? 'passed' : 'failed'}.`,
    '',
    '| | system | baseline |',
    '|---|--:|--:|',
    ...dimensions.map((dimension) => `| ${dimension} | ${figure(system.dimensionMeans[dimension])} | ${figure(baseline.dimensionMeans[dimension])} |`),
    `| pass fraction | ${figure(system.passFraction)} (${system.passed}/${system.scoreable}) | ${figure(baseline.passFraction)} (${baseline.passed}/${baseline.scoreable}) |`,
    `| mean | ${figure(system.mean)} | ${figure(baseline.mean)} |`,
    `| unscoreable (manual review) | ${system.unscoreable} | ${baseline.unscoreable} |`,
    '',
    ...uncertaintyLines(benchmark).map((line) => `- ${line}`),
  ]
}
