import { RubricError } from '../core/common/errors.js'
import { compareKindFixtures, type CompareOptions } from '../core/compare/compare.js'
import type { Decision } from '../core/contract/decision.js'
import { comparisonText } from '../core/compare/compare-text.js'
import { kinds, type FixtureComparison } from '../core/registry.js'
import type { CaseRow, CompareSection, CompareSide, CompareTask, PageComparison, PageFixture } from './protocol.js'

/**
 * The comparison view of the served fixtures `a` and `b`: {@link compareFixtures}'s figures in the
 * words `compare` prints ({@link comparisonText}), and a row per task with both decisions, the discordant pairs first (A
 * accepted and B rejected, then the reverse), each group in A's order. Read-only.
 */
export async function pageComparison(
  dirs: { readonly a: string; readonly b: string },
  overviews: { readonly a: PageFixture; readonly b: PageFixture },
  options: CompareOptions & { readonly shown?: { readonly a: readonly Decision[]; readonly b: readonly Decision[] } },
  judge?: string,
): Promise<PageComparison> {
  const { comparison, refused } = await compared(dirs, options, judge)
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

  const text = comparisonText(comparison)
  return {
    kind: comparison.kind,
    a: { fixture: overviews.a.index, ...comparison.a },
    b: { fixture: overviews.b.index, ...comparison.b },
    same: text.same,
    notes: refused === null ? text.notes : [...text.notes, refused],
    nouns: text.nouns,
    itemHead: [...text.itemHead],
    sections: text.splits.map(({ discordant: _, ...section }): CompareSection => section),
    tasks,
  }
}

/**
 * The comparison, with the judge's judge-assisted figures when a judge is named (`serve --judge`).
 * A fixture without a sample or the judge's labels leaves them out, and says why, rather than the view.
 */
async function compared(
  dirs: { readonly a: string; readonly b: string },
  options: CompareOptions & { readonly shown?: { readonly a: readonly Decision[]; readonly b: readonly Decision[] } },
  judge: string | undefined,
): Promise<{ comparison: FixtureComparison; refused: string | null }> {
  // Cast: a shipped kind's comparison is built by its own definition, so it is that kind's member of the union.
  const compareFixtures = async (a: string, b: string, each: typeof options) => (await compareKindFixtures(a, b, { ...each, kinds })) as FixtureComparison
  if (judge === undefined) return { comparison: await compareFixtures(dirs.a, dirs.b, options), refused: null }
  try {
    return { comparison: await compareFixtures(dirs.a, dirs.b, { ...options, judge }), refused: null }
  } catch (error) {
    if (!(error instanceof RubricError)) throw error
    const refused = `no judge-assisted figures (judge ${judge}): ${error.message.split('\n')[0] ?? ''}`
    return { comparison: await compareFixtures(dirs.a, dirs.b, options), refused }
  }
}
