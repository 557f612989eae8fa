import { intervalSuffix } from './interval-text.js'
import { judgeAssistedLines } from '../core/compare/compare-judge-text.js'
import { points, pointsInterval, worstCaseLine } from '../core/compare/compare-figures.js'
import type { ComparisonGateReport } from '../core/compare/gate.js'
import { isOriginPlaceholder } from '../core/common/origin.js'
import { plural } from '../core/common/primitives.js'
import { rateText } from '../core/common/rate-percent.js'
import { kindNamed } from '../core/registry.js'
import { checkOutcome, type CheckOutcome, type CoverageRow, type RubricFigures } from './figures.js'
import { NO_CASES } from './render-text.js'
import type { Outcomes } from '../core/contract/results.js'
import { estimateMarkdown } from './render-estimate.js'

/** The same figures as Markdown tables, for a CI job summary. */
export function renderMarkdown(figures: RubricFigures): string {
  const lines = [
    '## Rubric coverage',
    '',
    '| fixture | split | executed | todo | filtered | graded | pending | refused | outcomes |',
    '|---|---|--:|--:|--:|--:|--:|--:|---|',
  ]
  const named = figures.projects > 1
  for (const fixture of figures.fixtures) {
    const label = `\`${fixture.fixture}\`${named ? ` [${fixture.project || 'default'}]` : ''}`
    if (fixture.status === 'refused') {
      lines.push(`| ${label} | — | refused: ${escapeMarkdown(firstLine(fixture.error.message))} ||||||||`)
      continue
    }
    if (fixture.total.execution.candidates === 0) {
      lines.push(`| ${label} | — | ${NO_CASES} ||||||||`)
      continue
    }
    lines.push(tableRow(label, fixture.total, fixture.kind))
    if (fixture.splits.length > 1) for (const row of fixture.splits) lines.push(tableRow('', row, fixture.kind))
  }
  if (figures.total !== null) {
    const { execution, review, outcomes } = figures.total
    const text = Object.entries(outcomes)
      .map(([kind, counts]) => `${kind}: ${outcomeText(kind, counts ?? null)}`)
      .join('; ')
    lines.push(
      `| **total** | all | ${execution.executed}/${execution.candidates} | ${execution.todo} | ${execution.filtered} | ${review.graded}/${review.candidates} | ${review.pending} | ${review.refused} | ${text} |`,
    )
  }
  const loaded = figures.fixtures.filter((fixture) => fixture.status === 'loaded')
  if (loaded.length > 0) {
    lines.push('', '**Who made the judgements** (`annotations.json › origin`):', '')
    for (const fixture of loaded) lines.push(`- \`${fixture.fixture}\`: ${fixture.origin === null ? 'not given' : escapeMarkdown(fixture.origin)}`)
  }
  const pending = figures.fixtures.flatMap((fixture) =>
    fixture.status === 'refused'
      ? []
      : fixture.pendingCases.map((item) => `- \`${fixture.fixture}\` ${item.id} (${item.split}): ${escapeMarkdown(item.reason)}`),
  )
  if (pending.length > 0) lines.push('', '**Pending review** (neither passed nor failed):', '', ...pending)
  const refused = figures.fixtures.flatMap((fixture) =>
    fixture.status === 'refused'
      ? []
      : fixture.refusedCases.map((item) => `- \`${fixture.fixture}\` ${item.id} (${item.split}): ${escapeMarkdown(firstLine(item.message))}`),
  )
  if (refused.length > 0) lines.push('', '**Refused** (binding or provenance errors, not decisions):', '', ...refused)
  for (const fixture of figures.fixtures) {
    if (fixture.status === 'loaded') for (const line of kindNamed(fixture.kind).present.markdownLines(fixture.fixture, fixture.plan.summary)) lines.push(line)
  }
  for (const fixture of figures.fixtures) {
    if (fixture.status !== 'loaded' || fixture.checks.length === 0) continue
    lines.push('', `**Checks** of \`${fixture.fixture}\`:`, '')
    for (const check of fixture.checks) {
      const outcome = checkOutcome(check)
      lines.push(`- ${CHECK_MARKS[outcome]} ${outcome}: ${escapeMarkdown(check.name)}: ${escapeMarkdown(firstLine(check.message))}`)
    }
  }
  for (const fixture of figures.fixtures) {
    if (fixture.status !== 'loaded' || fixture.agreement === null) continue
    const { agreement } = fixture
    lines.push(
      '',
      `**Review agreement** of \`${fixture.fixture}\` (${agreement.reviewers.join(', ')}; ${agreement.level} α):`,
      '',
      '| item | α | 95% interval | cases | disagreements |',
      '|---|--:|---|--:|---|',
    )
    for (const [name, item] of Object.entries(agreement.items)) {
      const alpha = item.alpha === null ? `no figure: ${escapeMarkdown(item.reason ?? '')}` : item.alpha.toFixed(3)
      const interval = item.alpha_ci === null ? '—' : `${item.alpha_ci[0].toFixed(3)} – ${item.alpha_ci[1].toFixed(3)}${intervalSuffix(item.alpha_bootstrap)}`
      lines.push(`| ${escapeMarkdown(name)} | ${alpha} | ${interval} | ${item.units} | ${escapeMarkdown(item.disagreements.join(', ')) || '—'} |`)
    }
  }
  for (const fixture of figures.fixtures) {
    if (fixture.status !== 'loaded' || fixture.calibration === null) continue
    for (const [name, judge] of Object.entries(fixture.calibration.judges)) {
      lines.push(
        '',
        `**Judge calibration** of \`${fixture.fixture}\`: \`${escapeMarkdown(name)}\` (${isOriginPlaceholder(judge.origin) ? 'origin not given' : escapeMarkdown(judge.origin)}), ${plural(judge.cases, 'case')}; ${plural(judge.stale, 'stale label')} excluded.`,
        '',
      )
      lines.push('| criterion | n | κ | 95% interval | failure recall | pass recall | false accepts |', '|---|--:|--:|---|--:|--:|---|')
      const figure = (value: number | null) => (value === null ? '—' : value.toFixed(3))
      for (const [id, item] of Object.entries(judge.criteria)) {
        const interval = item.kappa_ci === null ? '—' : `${item.kappa_ci[0].toFixed(3)} – ${item.kappa_ci[1].toFixed(3)}${intervalSuffix(item.kappa_bootstrap)}`
        lines.push(
          `| ${escapeMarkdown(id)} | ${item.n} | ${item.kappa === null ? `no kappa: ${escapeMarkdown(item.kappa_reason ?? '')}` : figure(item.kappa)} | ${interval} | ${figure(item.failure_recall)} | ${figure(item.pass_recall)} | ${escapeMarkdown(item.false_accepts.join(', ')) || '—'} |`,
        )
      }
      const { predictions } = judge
      if (predictions.pending > 0)
        lines.push(
          '',
          `Prediction, not review coverage: the judge predicts ${predictions.accepted} accepted, ${predictions.rejected} rejected of ${plural(predictions.pending, 'pending case')}.`,
        )
    }
  }
  for (const fixture of figures.fixtures) {
    if (fixture.status === 'loaded' && fixture.estimate !== null) lines.push(...estimateMarkdown(fixture.fixture, fixture.estimate, escapeMarkdown))
  }
  for (const fixture of figures.fixtures) {
    if (fixture.status !== 'loaded') continue
    for (const report of fixture.comparisons) lines.push(...comparisonMarkdown(fixture.fixture, report))
  }
  return `${lines.join('\n')}\n`
}

const CHECK_MARKS: Readonly<Record<CheckOutcome, string>> = { passed: '✓', failed: '✗', todo: '○' }

/** One compare gate's report: its outcome, the paired figures and the discordant cases. */
function comparisonMarkdown(fixture: string, report: ComparisonGateReport): string[] {
  const outcome = { passed: 'passed', failed: 'failed', todo: 'todo' }[report.status]
  const lines = [
    '',
    `**Comparison** of \`${fixture}\` (B) against \`${report.against}\` (A), ${report.split === 'held_out' ? 'held-out' : 'development'} cases: ${outcome}, ${escapeMarkdown(report.name)}.`,
  ]
  if (report.label !== null) lines.push('', `_${report.label}_`)
  if (report.judge_assisted !== null) {
    lines.push('', ...judgeAssistedLines(report.judge_assisted.split, report.judge_assisted.judge).map((line) => `- ${escapeMarkdown(line)}`))
  }
  const { acceptance, discordant, outcomes } = report
  const { accepted, rejected } = outcomes
  if (acceptance === null || discordant === null || acceptance.difference === null) {
    lines.push('', escapeMarkdown(firstLine(report.message)))
    return lines
  }
  const { table } = acceptance
  lines.push(
    '',
    `| pairs | A ${accepted} | B ${accepted} | B − A | 95% interval | both ${accepted} | A only | B only | both ${rejected} |`,
    '|--:|--:|--:|--:|---|--:|--:|--:|--:|',
    `| ${acceptance.n} | ${acceptance.a.passed} | ${acceptance.b.passed} | ${points(acceptance.difference)} | ${pointsInterval(acceptance.difference_interval)} | ${table.both} | ${table.a_only} | ${table.b_only} | ${table.neither} |`,
    '',
    `${escapeMarkdown(report.coverage ?? '')}. A ${accepted}, B ${rejected}: ${escapeMarkdown(discordant.a_accepted_b_rejected.join(', ')) || 'none'}; B ${accepted}, A ${rejected}: ${escapeMarkdown(discordant.b_accepted_a_rejected.join(', ')) || 'none'}.`,
  )
  const worst = report.worst_case === null ? null : worstCaseLine(report.worst_case, outcomes)
  if (worst !== null) lines.push('', `${escapeMarkdown(worst)}.`)
  // The gate's reading of the figures: the bound against the margin, and whether it holds regardless of the undecided pairs.
  if (report.label === null) lines.push('', escapeMarkdown(firstLine(report.message)))
  return lines
}

function tableRow(label: string, row: CoverageRow, kind: string): string {
  const { execution, review } = row
  return `| ${label} | ${row.split} | ${execution.executed}/${execution.candidates} | ${execution.todo} | ${execution.filtered} | ${review.graded}/${review.candidates} | ${review.pending} | ${review.refused} | ${outcomeText(kind, review.outcomes)} |`
}

function outcomeText(kind: string, outcomes: Outcomes | null): string {
  if (outcomes === null) return '—'
  const { words } = kindNamed(kind).present
  return `${outcomes.accepted} ${words.positive}, ${outcomes.rejected} ${words.negative}; ${rateText(outcomes, words.positive)}`
}

function escapeMarkdown(text: string): string {
  return text.replace(/\|/g, '\\|')
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? ''
}
