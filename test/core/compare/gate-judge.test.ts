import { describe, expect, test } from 'vitest'
import type { JudgeAssistedSplit } from '../../../src/core/compare/compare-judge.js'
import { judgeAssistedVerdict } from '../../../src/core/compare/gate-judge.js'
import { ppiDifference, type PpiDifferenceInput } from '../../../src/core/stats/ppi-difference.js'
import { createRandom } from '../../../src/core/stats/random.js'

/** 500 tasks, B a little better than A, a judge right on 90% of answers; `size` of them drawn uniformly and decided in both. */
function input(size: number): PpiDifferenceInput {
  const random = createRandom(`gate ${size}`)
  const human = Array.from({ length: 500 }, () => {
    const u = random()
    return u < 0.6 ? ([1, 1] as const) : u < 0.7 ? ([1, 0] as const) : u < 0.82 ? ([0, 1] as const) : ([0, 0] as const)
  })
  const judged = (y: 0 | 1) => (random() < 0.9 ? y : 1 - y)
  return {
    judge: { a: human.map(([a]) => judged(a)), b: human.map(([, b]) => judged(b)) },
    sample: Array.from({ length: size }, (_, k) => ({ index: 2 * k, probability: size / 500, a: human[2 * k]![0], b: human[2 * k]![1] })),
  }
}

function section(result: JudgeAssistedSplit['result'], split: JudgeAssistedSplit['split'] = 'held_out'): JudgeAssistedSplit {
  const gaps = { missing: 0, stale: 0, undecided: 0 }
  return {
    split,
    standing: split === 'held_out' ? 'result' : 'development',
    label: null,
    tasks: result.cases,
    sampled: result.sampled,
    pending: [],
    outside_reviews: 0,
    judge_gaps: { a: gaps, b: gaps },
    samples_differ: { a_only: [], b_only: [], design: [] },
    result,
  }
}

describe('the compare gate with a judge', () => {
  test('passes when the PPI++ lower bound clears −margin with every sampled pair decided, and fails when it does not, saying so', () => {
    const result = ppiDifference(input(200))
    if (result.status !== 'estimate') throw new Error(result.message)
    const passed = judgeAssistedVerdict(section(result), 'ix', { split: 'held_out', margin: Math.max(0, -result.low) })
    expect(passed.status).toBe('passed')
    expect(passed.holds_regardless).toBe(true)
    expect(passed.message).toContain('(judge-assisted, PPI++, judge ix): the lower bound')
    expect(passed.message).toContain('every sampled pair is decided; 200 of 500 tasks drawn in both samples, 200 decided in both, 0 pending')
    const failed = judgeAssistedVerdict(section(result), 'ix', { split: 'held_out', margin: -result.low - 0.0001 })
    expect(failed.status).toBe('failed')
    expect(failed.message.split('\n')).toHaveLength(3)
    expect(failed.message.split('\n')[2]).toMatch(/^human-only, same sample: B − A = .* points, interval \[.*\]; judge-only \(biased\): B − A = .* points$/)
  })

  test('waits (todo) while the sample is too small to estimate, and on development cases', () => {
    const small = ppiDifference(input(20))
    expect(small).toMatchObject({ status: 'unsupported', reason: 'too-few-reviews' })
    const waiting = judgeAssistedVerdict(section(small), 'ix', { split: 'held_out', margin: 0.05 })
    expect(waiting.status).toBe('todo')
    expect(waiting.message).toMatch(/^no judge-assisted estimate of B − A \(judge ix, too-few-reviews\): 20 sampled tasks are decided in both systems/)
    const result = ppiDifference(input(200))
    expect(judgeAssistedVerdict(section(result, 'development'), 'ix', { split: 'development', margin: 1 }).status).toBe('todo')
  })

  test('fails on a refusal more reviews cannot cure: samples that are not one draw, a stale or missing judge decision', () => {
    const counts = { cases: 500, sampled: 0, decided: 0, pending: 0 }
    for (const reason of ['samples-differ', 'judge-stale', 'judge-missing'] as const) {
      const verdict = judgeAssistedVerdict(section({ status: 'unsupported', reason, message: 'why', ...counts }), 'ix', { split: 'held_out', margin: 0.05 })
      expect(verdict, reason).toMatchObject({ status: 'failed', holds_regardless: null })
      expect(verdict.message).toBe(
        `no judge-assisted estimate of B − A (judge ix, ${reason}): why; 0 of 500 tasks drawn in both samples, 0 decided in both, 0 pending`,
      )
    }
  })
})
