import { compareFixtures, type CompareOptions, type FixtureComparison } from '../core/compare/compare.js'
import { differenceLine, idList, interval, percent, points, pointsInterval, pValue, worstCaseLine } from '../core/compare/compare-figures.js'
import { scoreLine } from '../core/compare/compare-scored.js'
import type { CaseRow, PageFixture } from './page-data.js'

/** One side of a task in the comparison view: its decision in that fixture, and the criteria it failed. */
export interface CompareSide {
  readonly status: CaseRow['status']
  readonly reason: string
  readonly failed: readonly string[]
}

/** A task of the comparison view's table: both systems' decisions, discordant pairs first. */
export interface CompareTask {
  readonly id: string
  readonly split: string
  /** `null`: the case is in the other fixture only. */
  readonly a: CompareSide | null
  readonly b: CompareSide | null
  /** A decided pair the systems disagree on: which way. */
  readonly discordant: 'a_accepted_b_rejected' | 'b_accepted_a_rejected' | null
}

/** One split's figures as the comparison view shows them, worded as `vitest-rubric compare` words them. */
export interface CompareSection {
  readonly split: string
  readonly standing: 'result' | 'development'
  /** The development label, or `null` for held-out cases. */
  readonly label: string | null
  readonly coverage: string
  /** `result: B − A = …` (held-out) or `development figures: …`. */
  readonly difference: string
  /** `worst case for B: …`: the undecided pairs counted against B; `null` when every pair is decided. */
  readonly worstCase: string | null
  /** Each system's rate with its interval; `null` without a decided pair. */
  readonly rates: string | null
  /** The paired 2×2 table; `null` without a decided pair. */
  readonly table: { readonly both: number; readonly a_only: number; readonly b_only: number; readonly neither: number } | null
  readonly leaks: readonly string[]
  /** Per criterion (criteria fixtures with decided pairs): the row `compare` prints. */
  readonly criteria: readonly { readonly criterion: string; readonly cells: readonly string[] }[]
  /** The mean score line (scored fixtures). */
  readonly scores: string | null
}

/** The comparison view of two served fixtures: what `compareFixtures` gives, and each task's two decisions. */
export interface PageComparison {
  readonly kind: FixtureComparison['kind']
  readonly a: { readonly fixture: number; readonly name: string; readonly dir: string; readonly cases: number }
  readonly b: { readonly fixture: number; readonly name: string; readonly dir: string; readonly cases: number }
  /** What the two fixtures share, byte for byte. */
  readonly same: string
  readonly notes: readonly string[]
  /** The words of each decision: accepted and rejected, or passed and failed (scored). */
  readonly nouns: { readonly accepted: string; readonly rejected: string }
  readonly sections: readonly CompareSection[]
  readonly tasks: readonly CompareTask[]
}

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
    sections,
    tasks,
  }
}
