import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { compareFixtures, compareSplit } from '../../../src/core/compare/compare.js'
import { scoredComparison, type ScoredFixtureComparison } from '../../../src/core/kinds/scored/compare.js'
import { kindContext } from '../../../src/core/engine/fixture.js'
import { loadFixture } from '../../../src/core/registry.js'
import type { ScoredDecision } from '../../../src/core/kinds/scored/decision.js'
import { pairedDifference } from '../../../src/core/stats/intervals.js'
import { copyDebate, DEBATE } from '../../helpers/scored-copy.js'
import { ROOT } from '../../helpers/fixture-copy.js'

async function compareScored(dirA: string, dirB: string): Promise<ScoredFixtureComparison> {
  const comparison = await compareFixtures(dirA, dirB, { cwd: ROOT })
  if (comparison.kind !== 'scored') throw new Error('expected a scored comparison')
  return comparison
}

/** A decided scored case with the given mean: only what the comparison reads. */
function decided(id: string, status: 'accepted' | 'rejected', mean: number): ScoredDecision {
  return {
    id,
    split: 'held_out',
    status,
    reason: '',
    card: { dimensions: {}, applicable: 6, mean, verdict: status === 'accepted' ? 'pass' : 'fail', failures: [] },
    baseline: { status: 'not_reviewed' },
  }
}

describe('compareFixtures on scored fixtures', () => {
  test('the debate benchmark against itself: no difference, no interval below 10 cases, the pending case in coverage', async () => {
    const comparison = await compareScored(DEBATE, DEBATE)
    expect(comparison).toMatchObject({ kind: 'scored', split: 'all', seed: 'vitest-rubric', spec_mismatch: [], unpaired: { a_only: [], b_only: [] } })
    const development = comparison.splits.find((section) => section.split === 'development')!
    expect(development.coverage.line).toBe('9 of 10 tasks decided in both; 1 pending in A, 1 pending in B')
    expect(development.label).toBe('development material: not a result beyond these examples')
    expect(development.acceptance).toMatchObject({ n: 9, table: { both: 6, a_only: 0, b_only: 0, neither: 3 }, difference: 0 })
    expect(development.scores).toMatchObject({
      n: 9,
      difference: 0,
      se: 0,
      interval: null,
      interval_reason: 'cases to resample: 9, fewer than the 10 a bootstrap interval needs',
      bootstrap: null,
    })
    expect(development.scores.a_mean).toBeCloseTo(0.8474, 4)
  })

  test('refuses two scored fixtures whose evaluation_rubric.json differ', async () => {
    const copy = await copyDebate()
    const rubric = join(copy.dir, 'evaluation_rubric.json')
    await writeFile(rubric, `${await readFile(rubric, 'utf8')}\n`)
    await expect(compareFixtures(DEBATE, copy.dir, { cwd: ROOT })).rejects.toMatchObject({
      code: 'FIXTURES_NOT_COMPARABLE',
      summary: "the two fixtures' evaluation_rubric.json differ: a comparison needs the same rubric, byte for byte",
    })
  })

  test('does not pair a case whose spec differs: it is another task', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases.find((entry) => entry.id === 'never-terminates')!.spec.max_rounds += 1
    })
    const comparison = await compareScored(DEBATE, copy.dir)
    expect(comparison.spec_mismatch).toEqual(['never-terminates'])
    expect(comparison.splits.find((section) => section.split === 'development')!.coverage.paired).toBe(9)
  })
})

describe("the scored kind's comparison of a split", () => {
  test('the paired mean difference B − A, its SE by hand, and the baseline margin’s bootstrap over the pairs', async () => {
    // A's means 0.5 on twelve cases; B's 0.5 + 0.1·(i mod 3): differences 0, 0.1, 0.2 four times each.
    const pairs = Array.from({ length: 12 }, (_unused, i): [ScoredDecision, ScoredDecision] => [
      decided(`c${i}`, 'rejected', 0.5),
      decided(`c${i}`, i % 3 === 0 ? 'rejected' : 'accepted', 0.5 + 0.1 * (i % 3)),
    ])
    const context = kindContext(await loadFixture(DEBATE, { cwd: ROOT, kind: 'scored' }))
    const { scores, acceptance, discordant } = compareSplit('held_out', pairs, 0.95, (decided) =>
      scoredComparison.split(decided, context, { level: 0.95, seed: 'seed' }),
    )
    expect(scores.difference).toBeCloseTo(0.1, 12)
    // Σ(dᵢ − d̄)² = 8 · 0.01 = 0.08; SE = √(0.08 / (12 · 11)).
    expect(scores.se).toBeCloseTo(Math.sqrt(0.08 / 132), 12)
    const reference = pairedDifference(
      pairs.map(([a, b]) => [b.status === 'refused' || b.card === null ? 0 : b.card.mean!, a.status === 'refused' || a.card === null ? 0 : a.card.mean!]),
      { seed: 'seed' },
    )
    expect(scores.interval).toEqual([reference.low, reference.high])
    expect(scores.bootstrap).toEqual({ resampled: 'cases', cases: 12, replicates: 2000, seed: 'seed' })
    expect(acceptance.table).toEqual({ both: 0, a_only: 0, b_only: 8, neither: 4 })
    expect(discordant.b_accepted_a_rejected).toHaveLength(8)
  })
})
