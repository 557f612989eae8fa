import { compareFixtures, type CompareOptions } from '../core/compare/compare.js'
import { differenceLine, idList, interval, percent, points, pointsInterval, pValue, worstCaseLine } from '../core/compare/compare-figures.js'
import { scoreLine } from '../core/compare/compare-scored.js'
import type { CaseRow, CompareSection, CompareSide, CompareTask, PageComparison, PageFixture } from './protocol.js'

/**
 * The comparison view of the served fixtures `a` and `b`: {@link compareFixtures}'s figures, worded
 * as the CLI prints them, and a row per task with both decisions, the discordant pairs first (A
 * accepted and B rejected, then the reverse), each group in A's order. Read-only.
 */
export async function pageComparison(
  dirs: { readonly a: string; readonly b: string },
  overviews: { readonly a: PageFixture; readonly b: PageFixture },
  options: CompareOptions,
): Promise<PageComparison> {
  const comparison = await compareFixtures(dirs.a, dirs.b, options)
  const nouns = comparison.kind === 'criteria' ? { accepted: 'accepted', rejected: 'rejected' } : { accepted: 'passed', rejected: 'failed' }
  const discordant = new Map<string, CompareTask['discordant']>()
  for (const section of comparison.splits) {
    for (const id of section.discordant.a_accepted_b_rejected) discordant.set(id, 'a_accepted_b_rejected')
    for (const id of section.discordant.b_accepted_a_rejected) discordant.set(id, 'b_accepted_a_rejected')
  }
  const side = (row: CaseRow | undefined): CompareSide | null => (row === undefined ? null : { status: row.status, reason: row.reason, failed: row.failed })
  const rowsB = new Map(overviews.b.cases.map((row) => [row.id, row]))
  const idsA = new Set(overviews.a.cases.map((row) => row.id))
  const tasks: CompareTask[] = [
    ...overviews.a.cases.map((row) => ({ id: row.id, split: row.split, a: side(row), b: side(rowsB.get(row.id)), discordant: discordant.get(row.id) ?? null })),
    ...overviews.b.cases.filter((row) => !idsA.has(row.id)).map((row) => ({ id: row.id, split: row.split, a: null, b: side(row), discordant: null })),
  ]
  const rank = (task: CompareTask) => (task.discordant === 'a_accepted_b_rejected' ? 0 : task.discordant === 'b_accepted_a_rejected' ? 1 : 2)
  // A stable sort: each group keeps A's order.
  tasks.sort((left, right) => rank(left) - rank(right))

  const sections = comparison.splits.map((section): CompareSection => {
    const development = section.standing === 'development'
    const { acceptance } = section
    const decided = acceptance.n > 0
    const leaks = development
      ? []
      : comparison.leaks.map((leak) => {
          const sources = leak.development.map((match) => `${match.case} in ${match.fixture}`).join(', ')
          return `leak: held-out case ${leak.case} in ${leak.fixture} has ${comparison.kind === 'criteria' ? 'the question and answer text' : 'the spec'} of development case ${sources}`
        })
    return {
      split: section.split,
      standing: section.standing,
      label: section.label,
      coverage: section.coverage.line,
      difference: `${development ? 'development figures' : 'result'}: ${differenceLine(acceptance)}`,
      worstCase: worstCaseLine(section.worst_case, nouns),
      rates: decided
        ? `${nouns.accepted}: A ${acceptance.a.passed} of ${acceptance.n}, ${percent(acceptance.a.rate)} ${interval(acceptance.a.interval)}; B ${acceptance.b.passed} of ${acceptance.n}, ${percent(acceptance.b.rate)} ${interval(acceptance.b.interval)}`
        : null,
      table: decided ? acceptance.table : null,
      leaks,
      criteria:
        'criteria' in section && decided
          ? Object.entries(section.criteria).map(([criterion, item]) => ({
              criterion,
              cells: [
                `${item.a.passed}/${item.n}`,
                `${item.b.passed}/${item.n}`,
                item.difference === null ? '—' : points(item.difference),
                pointsInterval(item.difference_interval),
                pValue(item.mcnemar.p_value),
                idList(item.fixed_by_b),
                idList(item.broken_by_b),
              ],
            }))
          : [],
      scores: 'scores' in section ? scoreLine(section) : null,
    }
  })
  const notes = [
    `in A only: ${idList(comparison.unpaired.a_only)}; in B only: ${idList(comparison.unpaired.b_only)}`,
    ...comparison.split_mismatch.map((mismatch) => `not paired: ${mismatch.case} is ${mismatch.a} in A but ${mismatch.b} in B`),
    ...(comparison.kind === 'scored' ? comparison.spec_mismatch.map((id) => `not paired: ${id} has a different spec in A and in B`) : []),
  ]
  return {
    kind: comparison.kind,
    a: { fixture: overviews.a.index, ...comparison.a },
    b: { fixture: overviews.b.index, ...comparison.b },
    same:
      comparison.kind === 'criteria'
        ? `same rubric.json (SHA-256 ${comparison.rubric_sha256}) and source.txt (SHA-256 ${comparison.source_sha256})`
        : `same evaluation_rubric.json (SHA-256 ${comparison.rubric_sha256}); each fixture's debate system is compared, its baseline left out`,
    notes,
    nouns,
    itemHead: ['criterion', 'A meets', 'B meets', 'B − A', '95% interval', 'McNemar p', 'fixed by B', 'broken by B'],
    sections,
    tasks,
  }
}
