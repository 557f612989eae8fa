import type { RubricFigures, SplitFigures } from './figures.js'

/** The same figures as a Markdown table, for a CI job summary. */
export function renderMarkdown(figures: RubricFigures): string {
  const lines = [
    '## Rubric coverage',
    '',
    '| fixture | split | executed | todo | filtered | graded | pending | refused | accepted | rejected |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  ]
  for (const fixture of figures.fixtures) {
    if (fixture.error !== null) {
      lines.push(`| \`${fixture.fixture}\` | — | refused: ${escape(fixture.error.message.split('\n')[0] ?? '')} |||||||||`)
      continue
    }
    for (const row of fixture.splits) lines.push(tableRow(`\`${fixture.fixture}\``, row))
  }
  if (figures.fixtures.length > 1) for (const row of figures.total) lines.push(tableRow('**total**', row))
  const pending = figures.fixtures.flatMap((fixture) => fixture.pendingCases.map((item) => `- \`${fixture.fixture}\` ${item.id} (${item.split}): ${escape(item.reason)}`))
  if (pending.length > 0) lines.push('', '**Pending review** (neither passed nor failed):', '', ...pending)
  const refused = figures.fixtures.flatMap((fixture) =>
    fixture.refusedCases.map((item) => `- \`${fixture.fixture}\` ${item.id} (${item.split}): ${escape(item.message.split('\n')[0] ?? '')}`),
  )
  if (refused.length > 0) lines.push('', '**Refused** (binding or provenance errors, not decisions):', '', ...refused)
  return `${lines.join('\n')}\n`
}

function tableRow(label: string, row: SplitFigures): string {
  const { execution, review } = row
  const outcomes = review.outcomes === null ? ['—', '—'] : [review.outcomes.accepted, review.outcomes.rejected]
  return `| ${label} | ${row.split} | ${execution.executed}/${execution.candidates} | ${execution.todo} | ${execution.filtered} | ${review.graded}/${review.candidates} | ${review.pending} | ${review.refused} | ${outcomes.join(' | ')} |`
}

function escape(text: string): string {
  return text.replace(/\|/g, '\\|')
}
