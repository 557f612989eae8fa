import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { caseDecisionChanges, recordCases, recordDecisions, recordWithout } from '../../../src/core/engine/decision-record.js'
import { evaluateFixture } from '../../../src/core/engine/evaluate.js'
import { loadFixture } from '../../../src/core/registry.js'
import { chunkRange, planChunkOfEvaluation, planChunkTests, planFixtureTests, type PlanOptions } from '../../../src/core/engine/plan.js'
import { copyFixture, ROOT } from '../../helpers/fixture-copy.js'

describe('chunkRange', () => {
  test('deals the cases in order into chunks that differ by at most one case, every case in exactly one', () => {
    for (let cases = 0; cases <= 40; cases++) {
      for (let count = 1; count <= 12; count++) {
        const ranges = Array.from({ length: count }, (_, offset) => chunkRange(cases, { index: offset + 1, count }))
        expect(ranges[0]!.start).toBe(0)
        expect(ranges.at(-1)!.end).toBe(cases)
        for (const [offset, range] of ranges.slice(1).entries()) expect(range.start).toBe(ranges[offset]!.end)
        const sizes = ranges.map((range) => range.end - range.start)
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1)
      }
    }
  })
})

describe('planChunkTests', () => {
  /** The chunks' cases put back together, and their coverages, beside the whole fixture's plan. */
  async function chunksAndWhole(dir: string, count: number, options: PlanOptions = {}) {
    const fixture = await loadFixture(dir, { cwd: ROOT })
    const whole = planFixtureTests(evaluateFixture(fixture, options.panel === undefined ? {} : { panel: options.panel }), options)
    const chunks = Array.from({ length: count }, (_, offset) => planChunkTests(fixture, { index: offset + 1, count }, options))
    return { whole, chunks }
  }

  test('each chunk decides its cases exactly as the plan of the whole fixture does, refused ones included', async () => {
    const fixture = await copyFixture()
    await fixture.editCases((cases) => {
      cases.cases[2]!.input.question = 'How do I roll back production?'
    })
    for (const count of [1, 2, 3, 8]) {
      const { whole, chunks } = await chunksAndWhole(fixture.dir, count)
      expect(chunks.flatMap((chunk) => chunk.cases)).toEqual(whole.cases)
      expect(chunks.map((chunk) => chunk.chunk)).toEqual(Array.from({ length: count }, (_, offset) => ({ index: offset + 1, count })))
      expect(chunks.reduce((sum, chunk) => sum + chunk.coverage.candidates, 0)).toBe(whole.coverage.candidates)
      expect(chunks.flatMap((chunk) => chunk.coverage.pendingCases)).toEqual(whole.coverage.pendingCases)
      expect(chunks.flatMap((chunk) => chunk.coverage.refusedCases)).toEqual(whole.coverage.refusedCases)
      expect(chunks.reduce((sum, chunk) => sum + chunk.coverage.graded, 0)).toBe(whole.coverage.graded)
    }
  })

  test('a scored fixture and the several-reviewer rule decide alike in chunks', async () => {
    const scored = await chunksAndWhole(join(ROOT, 'fixtures/debate-benchmark'), 4)
    expect(scored.chunks.flatMap((chunk) => chunk.cases)).toEqual(scored.whole.cases)
    // With a minimum of independent reviews, every case waits for them, in a chunk as in the whole.
    const panel = await chunksAndWhole(join(ROOT, 'fixtures/docuctl-rollback'), 3, { panel: { minReviews: 1 } })
    expect(panel.chunks.flatMap((chunk) => chunk.cases)).toEqual(panel.whole.cases)
    expect(panel.whole.cases.map((planned) => planned.status)).toEqual(Array(8).fill('pending'))
  })
})

describe('planChunkOfEvaluation', () => {
  test("a chunk sliced from the whole fixture's decisions is the chunk planChunkTests decides on its own", async () => {
    const copy = await copyFixture()
    await copy.editCases((cases) => {
      cases.cases[2]!.input.question = 'How do I roll back production?'
    })
    for (const [dir, options] of [
      [copy.dir, {}],
      [join(ROOT, 'fixtures/debate-benchmark'), {}],
      [join(ROOT, 'fixtures/docuctl-rollback'), { panel: { minReviews: 1 } }],
    ] as const) {
      const fixture = await loadFixture(dir, { cwd: ROOT })
      const evaluation = evaluateFixture(fixture, 'panel' in options ? { panel: options.panel } : {})
      for (const count of [1, 3, 5]) {
        for (let index = 1; index <= count; index++) {
          const chunk = { index, count }
          expect(planChunkOfEvaluation(evaluation, chunk)).toEqual(planChunkTests(fixture, chunk, options))
        }
      }
    }
  })
})

describe('a chunk against the decision record', () => {
  test("caseDecisionChanges names only the chunk's cases that differ; recordWithout leaves what the whole fixture compares", async () => {
    const fixture = await loadFixture(join(ROOT, 'fixtures/docuctl-rollback'), { cwd: ROOT })
    const recorded = recordDecisions(planFixtureTests(evaluateFixture(fixture)))
    const chunk = planChunkTests(fixture, { index: 2, count: 3 })
    const current = recordCases(chunk.cases)
    expect(caseDecisionChanges(recorded, current)).toBeNull()
    const changed = { ...current, 'missing-verification': { ...current['missing-verification']!, status: 'accepted', reason: '' } }
    expect(caseDecisionChanges(recorded, changed)).toEqual({
      changes: ['missing-verification: rejected (verification) → accepted'],
      recorded: { decisions: { 'missing-verification': recorded.decisions['missing-verification'] } },
      current: { decisions: { 'missing-verification': changed['missing-verification'] } },
    })
    // A case the record lacks is a change too, shown as null on the record's side.
    const { ['negation']: _, ...withoutNegation } = recorded.decisions
    expect(caseDecisionChanges({ ...recorded, decisions: withoutNegation }, current)?.recorded).toEqual({ decisions: { negation: null } })
    expect(Object.keys(recordWithout(recorded, current).decisions)).toEqual(Object.keys(recorded.decisions).filter((id) => !(id in current)))
  })
})
