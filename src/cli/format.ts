import type { Coverage, CoverageCounts } from '../core/coverage.js'
import type { CriteriaRecord } from '../core/criteria/record.js'
import { SPLITS } from '../core/criteria/schemas.js'
import type { FixtureRecord } from '../core/fixture.js'
import { formatScoredRecord } from './format-scored.js'

type RecordOfKind<K extends FixtureRecord['fixture']['kind']> = Extract<FixtureRecord, { fixture: { kind: K } }>

/** One formatter per kind: a new kind does not compile until it has one. */
const FORMATTERS: { readonly [K in FixtureRecord['fixture']['kind']]: (record: RecordOfKind<K>) => string } = {
  criteria: (record) => formatCriteriaRecord(record),
  scored: (record) => formatScoredRecord(record),
}

/** The human-readable report of one evaluated fixture, whatever its kind. */
export function formatFixtureRecord(record: FixtureRecord): string {
  // The kind sits on record.fixture, where a switch cannot narrow the record itself.
  const format = FORMATTERS[record.fixture.kind] as (record: FixtureRecord) => string
  return format(record)
}

/** The human-readable report of one evaluated fixture. */
export function formatCriteriaRecord(record: CriteriaRecord): string {
  const { fixture, coverage } = record
  const lines = [
    `${fixture.name} (${fixture.dir}; rubric ${fixture.rubric})`,
    `  origin: ${fixture.origin}`,
    `  ${formatReviewCoverage(coverage)}`,
  ]
  const usedSplits = SPLITS.filter((split) => coverage.splits[split].candidates > 0)
  if (usedSplits.length > 1) {
    for (const split of usedSplits) lines.push(`    ${split}: ${formatReviewCoverage(coverage.splits[split])}`)
  }
  lines.push('  decisions:')
  for (const [id, decision] of Object.entries(record.decisions)) {
    const split = usedSplits.length > 1 ? ` [${decision.split}]` : ''
    const reason = decision.reason === '' ? '' : ` (${decision.reason})`
    lines.push(`    ${id}${split}: ${decision.status}${reason}`)
  }
  if (coverage.pending > 0) lines.push('  Pending cases stay outside the graded figures: they are neither passes nor failures.')
  for (const refused of coverage.refusedCases) {
    lines.push(`  refused ${refused.id}:`, ...refused.message.split('\n').map((line) => `    ${line}`))
  }
  return lines.join('\n')
}

/** `6 graded of 8 candidates; 2 pending; 0 refused — accepted 3, rejected 3`. */
export function formatReviewCoverage(counts: CoverageCounts | Coverage): string {
  const head = `review coverage: ${counts.graded} graded of ${counts.candidates} candidates; ${counts.pending} pending; ${counts.refused} refused`
  return counts.outcomes === null
    ? `${head} — no completed reviews, so no quality figure`
    : `${head} — accepted ${counts.outcomes.accepted}, rejected ${counts.outcomes.rejected}`
}
