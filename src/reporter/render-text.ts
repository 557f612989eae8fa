import { judgeAssistedLines } from '../core/compare/compare-judge-text.js'
import { isOriginPlaceholder } from '../core/common/origin.js'
import { plural } from '../core/common/primitives.js'
import type { AgreementFigures } from './figures.js'
import type { CalibrationReport } from '../core/engine/calibration.js'
import { points, pointsInterval, worstCaseLine } from '../core/compare/compare-figures.js'
import type { ComparisonGateReport } from '../core/compare/gate.js'
import type { Colors } from '../core/common/colors.js'
import type { OutcomeWords } from '../core/contract/kind.js'
import { kindNamed } from '../core/registry.js'
import {
  checkOutcome,
  type CheckOutcome,
  type CoverageRow,
  type ExecutionCounts,
  type FixtureFigures,
  type RubricFigures,
  type TotalFigures,
} from './figures.js'
import { rateText } from '../core/common/rate-percent.js'
import type { Outcomes } from '../core/contract/results.js'
import { estimateLines } from './render-estimate.js'
import { intervalSuffix, unreliableText } from './interval-text.js'

/** What a fixture without cases (just scaffolded) shows in place of its figures. */
export const NO_CASES = 'no cases yet: nothing executed, nothing graded, no quality figure'

/**
 * The terminal block: per fixture, its total and then each split, execution coverage kept apart
 * from review coverage and outcomes; then the total over fixtures, outcomes kept per kind.
 */
export function renderText(figures: RubricFigures, colors: Colors): string {
  const lines = ['', colors.bold(' Rubric coverage'), '']
  if (figures.fixtures.length === 0) {
    lines.push('  no fixture directories found', '')
    return lines.join('\n')
  }
  for (const fixture of figures.fixtures) {
    for (const line of renderFixture(fixture, figures.projects > 1, colors)) lines.push(line)
    lines.push('')
  }
  if (figures.total !== null) lines.push(...renderTotal(figures.total, colors), '')
  return lines.join('\n')
}

function title(fixture: FixtureFigures, named: boolean): string {
  return named ? `${fixture.fixture} [${fixture.project || 'default'}]` : fixture.fixture
}

function renderFixture(fixture: FixtureFigures, named: boolean, colors: Colors): string[] {
  if (fixture.status === 'refused') {
    return [colors.bold(`  ${title(fixture, named)}`), `    ${colors.red('fixture refused')}: ${firstLine(fixture.error.message)}`]
  }
  const definition = kindNamed(fixture.kind)
  const { words } = definition.present
  const lines = [
    `  ${colors.bold(title(fixture, named))} ${colors.dim(`· ${fixture.name} (${fixture.kind})`)}`,
    `    origin              ${fixture.origin ?? colors.yellow('not given (annotations.json › origin): `vitest-rubric origin <dir> --set` says who or what made the judgements')}`,
  ]
  if (fixture.total.execution.candidates === 0) lines.push(`    ${colors.yellow(NO_CASES)}`)
  else {
    lines.push(...coverageRows(fixture.total, words, colors, '    '))
    const only = fixture.splits.length === 1 ? fixture.splits[0] : undefined
    if (only !== undefined && only.split !== 'development') lines.push(`    split               every case is ${only.split}`)
    if (fixture.splits.length > 1) {
      for (const row of fixture.splits) lines.push(`    ${row.split}`, ...coverageRows(row, words, colors, '      '))
    }
  }
  // Loops rather than spreads: a fixture may list more pending cases than a call takes arguments.
  for (const line of listed(
    'pending',
    fixture.pendingCases.map((item) => `${item.id} [${item.split}]: ${item.reason}`),
  ))
    lines.push(line)
  for (const line of listed(
    'refused',
    fixture.refusedCases.map((item) => `${item.id} [${item.split}]: ${firstLine(item.message)}`),
  ))
    lines.push(line)
  for (const line of listed(
    'note',
    fixture.notes.map((note) => `on ${note.file}: ${note.text}`),
  ))
    lines.push(line)
  for (const line of definition.present.reportLines(fixture.plan.cases, fixture.plan.summary, colors)) lines.push(line)
  if (fixture.agreement !== null) for (const line of agreementLines(fixture.agreement, colors)) lines.push(line)
  if (fixture.calibration !== null) for (const line of calibrationLines(fixture.calibration, colors)) lines.push(line)
  if (fixture.estimate !== null) lines.push(...estimateLines(fixture.estimate, colors))
  for (const check of fixture.checks) {
    const outcome = checkOutcome(check)
    lines.push(`    ${checkMark(outcome, colors)} ${check.name}${outcome === 'todo' ? ' (todo)' : ''}: ${firstLine(check.message)}`)
  }
  for (const report of fixture.comparisons) for (const line of comparisonLines(report, colors)) lines.push(line)
  return lines
}

/** The compare gate's block: the split's paired figures against fixture A, the discordant cases, and the check's outcome. */
export function comparisonLines(report: ComparisonGateReport, colors: Colors): string[] {
  const indent = ' '.repeat(24)
  const lines = [`    comparison          against ${report.against} · ${report.split} · margin ${(100 * report.margin).toFixed(1)} points`]
  if (report.label !== null) lines.push(`${indent}${colors.yellow(report.label)}`)
  const { acceptance, discordant, outcomes } = report
  if (report.coverage !== null) lines.push(`${indent}${report.coverage}`)
  if (acceptance !== null && acceptance.difference !== null) {
    const { table } = acceptance
    lines.push(
      `${indent}B − A = ${points(acceptance.difference)} points, 95% interval ${pointsInterval(acceptance.difference_interval)} (Newcombe, paired) · A ${acceptance.a.passed} of ${acceptance.n} · B ${acceptance.b.passed} of ${acceptance.n}`,
      `${indent}paired table: both ${outcomes.accepted} ${table.both}, A only ${table.a_only}, B only ${table.b_only}, both ${outcomes.rejected} ${table.neither}`,
    )
  }
  const worst = report.worst_case === null ? null : worstCaseLine(report.worst_case, outcomes)
  if (worst !== null) lines.push(`${indent}${worst}`)
  if (report.judge_assisted !== null) {
    for (const line of judgeAssistedLines(report.judge_assisted.split, report.judge_assisted.judge)) lines.push(`${indent}${line}`)
  }
  if (discordant !== null) {
    const list = (ids: readonly string[]) => (ids.length === 0 ? 'none' : ids.join(', '))
    lines.push(
      `${indent}A ${outcomes.accepted}, B ${outcomes.rejected}: ${list(discordant.a_accepted_b_rejected)}`,
      `${indent}B ${outcomes.accepted}, A ${outcomes.rejected}: ${list(discordant.b_accepted_a_rejected)}`,
    )
  }
  lines.push(`    ${checkMark(report.status, colors)} ${report.name}${report.status === 'todo' ? ' (todo)' : ''}: ${firstLine(report.message)}`)
  return lines
}

/** The mark of a check's outcome: a todo is neither a pass nor a failure. */
function checkMark(outcome: CheckOutcome, colors: Colors): string {
  return { passed: colors.green('✓'), failed: colors.red('✗'), todo: colors.yellow('○') }[outcome]
}

function renderTotal(total: TotalFigures, colors: Colors): string[] {
  const { execution, review } = total
  const kinds = Object.entries(total.outcomes)
  const outcomes = kinds.map(([kind, counts]) => {
    const words = kindNamed(kind).present.words
    const text = outcomeText(counts ?? null, words, colors)
    return kinds.length === 1 ? text : `${kind}: ${text}`
  })
  return [
    colors.bold(`  total · ${plural(total.fixtures, 'fixture')}`),
    `    execution coverage  ${executionText(execution)}`,
    `    review coverage     ${review.graded} of ${review.candidates} graded · ${colors.yellow(`${review.pending} pending`)} · ${review.refused} refused`,
    `    outcomes            ${outcomes.length === 0 ? colors.yellow('no completed reviews: no quality figure') : outcomes.join('; ')}`,
  ]
}

function coverageRows(row: CoverageRow, words: OutcomeWords, colors: Colors, indent: string): string[] {
  const { review } = row
  return [
    `${indent}execution coverage  ${executionText(row.execution)}`,
    `${indent}review coverage     ${review.graded} of ${review.candidates} ${words.graded} · ${colors.yellow(`${review.pending} ${words.pending}`)} · ${review.refused} refused`,
    `${indent}outcomes            ${outcomeText(review.outcomes, words, colors)}`,
  ]
}

function executionText(execution: ExecutionCounts): string {
  return `${execution.executed} of ${plural(execution.candidates, 'case')} executed · ${execution.todo} todo · ${execution.filtered} filtered out`
}

function outcomeText(outcomes: Outcomes | null, words: OutcomeWords, colors: Colors): string {
  if (outcomes === null) return colors.yellow('no completed reviews: no quality figure')
  const graded = outcomes.accepted + outcomes.rejected
  return `${colors.green(`${outcomes.accepted} ${words.positive}`)} · ${colors.red(`${outcomes.rejected} ${words.negative}`)} of ${graded} ${words.graded} · ${rateText(outcomes, words.positive)}`
}

function listed(label: string, items: readonly string[]): string[] {
  return items.map((item, index) => `    ${index === 0 ? label.padEnd(10) : ' '.repeat(10)} ${item}`)
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? ''
}

/** The width of a block's label column: 18, or the longest label and two spaces when that is wider. */
function labelWidth(labels: readonly string[]): number {
  return Math.max(18, ...labels.map((label) => label.length + 2))
}

/** The review agreement block: alpha with its interval per item, the cases it rests on, and the disagreements still pending. */
function agreementLines(agreement: AgreementFigures, colors: Colors): string[] {
  const lines = [
    `    review agreement    ${plural(agreement.reviewers.length, 'reviewer')} (${agreement.reviewers.join(', ')}) · ${plural(agreement.cases, 'case')} · ${agreement.level} α`,
  ]
  const width = labelWidth(Object.keys(agreement.items))
  for (const [name, item] of Object.entries(agreement.items)) {
    const figure =
      item.alpha === null
        ? colors.dim(`no figure: ${item.reason ?? ''}`)
        : `α ${item.alpha.toFixed(3)}${item.alpha_ci === null ? '' : ` [${item.alpha_ci[0].toFixed(3)}, ${item.alpha_ci[1].toFixed(3)}]${intervalSuffix(item.alpha_bootstrap)}`} · ${plural(item.units, 'case')}${item.disagreements.length === 0 ? '' : ` · ${item.disagreements.length} disagreeing`}`
    lines.push(`      ${name.padEnd(width)}${figure}`)
  }
  for (const [name, item] of Object.entries(agreement.items)) {
    const unreliable = unreliableText(name, item.alpha_bootstrap)
    if (unreliable !== null) lines.push(`      ${colors.yellow(unreliable)}`)
  }
  for (const [index, item] of agreement.pendingDisagreements.entries())
    lines.push(`      ${(index === 0 ? 'disagreements' : '').padEnd(width)}${colors.yellow(item.id)}: ${item.reason}`)
  return lines
}

/** The judge calibration block: per judge and criterion, kappa with its interval, n, failure recall and the false accepts; then stale labels and the predictions. */
function calibrationLines(calibration: CalibrationReport, colors: Colors): string[] {
  const lines: string[] = []
  const figure = (value: number | null) => (value === null ? '—' : value.toFixed(3))
  for (const [name, judge] of Object.entries(calibration.judges)) {
    lines.push(
      `    judge calibration   ${name} (${isOriginPlaceholder(judge.origin) ? 'origin not given' : judge.origin}) · ${plural(judge.cases, 'case')} with a current review and label`,
    )
    const width = labelWidth(Object.keys(judge.criteria))
    for (const [id, item] of Object.entries(judge.criteria)) {
      const kappa =
        item.kappa === null
          ? colors.dim(`no kappa: ${item.kappa_reason ?? ''}`)
          : `κ ${figure(item.kappa)}${item.kappa_ci === null ? '' : ` [${figure(item.kappa_ci[0])}, ${figure(item.kappa_ci[1])}]${intervalSuffix(item.kappa_bootstrap)}`}`
      const accepts = item.false_accepts.length === 0 ? '0 false accepts' : colors.red(`false accepts: ${item.false_accepts.join(', ')}`)
      lines.push(`      ${id.padEnd(width)}${kappa} · n ${item.n} · failure recall ${figure(item.failure_recall)} · ${accepts}`)
    }
    for (const [id, item] of Object.entries(judge.criteria)) {
      const unreliable = unreliableText(id, item.kappa_bootstrap)
      if (unreliable !== null) lines.push(`      ${colors.yellow(unreliable)}`)
    }
    if (judge.stale > 0) {
      const reasons = [...new Set(judge.stale_cases.map((label) => label.reason))]
      lines.push(`      ${'stale'.padEnd(width)}${colors.yellow(`${plural(judge.stale, 'label')} excluded: ${reasons.join('; ')}`)}`)
    }
    const { predictions } = judge
    if (predictions.pending > 0) {
      lines.push(
        `      ${'prediction'.padEnd(width)}${colors.dim(`not review coverage: the judge predicts ${predictions.accepted} accepted, ${predictions.rejected} rejected of ${plural(predictions.pending, 'pending case')}`)}`,
      )
    }
  }
  return lines
}
