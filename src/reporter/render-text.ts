import type { Colors } from './colors.js'
import type { FixtureFigures, RubricFigures, SplitFigures } from './figures.js'
import { renderBenchmark } from './render-benchmark.js'
import { NO_CASES, outcomeWords, type OutcomeWords } from './words.js'

/** The terminal block: per fixture and in total, execution and review coverage kept apart. */
export function renderText(figures: RubricFigures, colors: Colors): string {
  const lines = ['', colors.bold(' Rubric coverage'), '']
  if (figures.fixtures.length === 0) {
    lines.push('  no fixture directories found', '')
    return lines.join('\n')
  }
  for (const fixture of figures.fixtures) lines.push(...renderFixture(fixture, colors), '')
  if (figures.fixtures.length > 1) {
    lines.push(colors.bold(`  total · ${figures.fixtures.length} fixtures`))
    const words = outcomeWords(figures.fixtures.filter((fixture) => fixture.error === null).map((fixture) => fixture.kind))
    for (const row of figures.total) lines.push(...renderSplit(row, words, colors))
    lines.push('')
  }
  return lines.join('\n')
}

function renderFixture(fixture: FixtureFigures, colors: Colors): string[] {
  if (fixture.error !== null) {
    return [colors.bold(`  ${fixture.fixture}`), `    ${colors.red('fixture refused')}: ${fixture.error.message.split('\n')[0] ?? ''}`]
  }
  const lines = [`  ${colors.bold(fixture.fixture)} ${colors.dim(`· ${fixture.name} (${fixture.kind})`)}`]
  const words = outcomeWords([fixture.kind])
  if (fixture.splits.length === 0) lines.push(`    ${colors.yellow(NO_CASES)}`)
  for (const row of fixture.splits) lines.push(...renderSplit(row, words, colors))
  lines.push(...listed('pending', fixture.pendingCases.map((item) => `${item.id} [${item.split}]: ${item.reason}`)))
  lines.push(...listed('refused', fixture.refusedCases.map((item) => `${item.id} [${item.split}]: ${firstLine(item.message)}`)))
  const criteria = fixture.criteria
    .filter((row) => row.failed > 0 || row.uncertain > 0)
    .map((row) => `${row.criterion}: ${[row.failed > 0 ? `${row.failed} failed` : '', row.uncertain > 0 ? `${row.uncertain} uncertain` : ''].filter(Boolean).join(', ')}`)
  if (fixture.criteria.length > 0) lines.push(`    criteria   ${criteria.length === 0 ? 'no failed or uncertain ratings' : criteria.join(' · ')}`)
  if (fixture.benchmark !== null) lines.push(...renderBenchmark(fixture.benchmark, colors))
  for (const check of fixture.checks) {
    lines.push(`    ${check.ok ? colors.green('✓') : colors.red('✗')} ${check.name}: ${firstLine(check.message)}`)
  }
  return lines
}

function renderSplit(row: SplitFigures, words: OutcomeWords, colors: Colors): string[] {
  const { execution, review } = row
  const outcomes =
    review.outcomes === null
      ? colors.yellow('no completed reviews: no quality figure')
      : `${colors.green(`${review.outcomes.accepted} ${words.positive}`)} · ${colors.red(`${review.outcomes.rejected} ${words.negative}`)} of ${review.graded} ${words.graded}`
  return [
    `    ${row.split}`,
    `      execution coverage  ${execution.executed} of ${execution.candidates} cases executed · ${execution.todo} todo · ${execution.filtered} filtered out`,
    `      review coverage     ${review.graded} of ${review.candidates} ${words.graded} · ${colors.yellow(`${review.pending} ${words.pending}`)} · ${review.refused} refused`,
    `      outcomes            ${outcomes}`,
  ]
}

function listed(label: string, items: readonly string[]): string[] {
  return items.map((item, index) => `    ${index === 0 ? label.padEnd(10) : ' '.repeat(10)} ${item}`)
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? ''
}
