import { describe, expect, test } from 'vitest'
import { boundAndMin, estimateGateName, estimateVerdict, MAX_PENDING_SHARE, type EstimateGate } from '../../../src/core/sample/estimate-gate.js'
import type { SplitEstimateFigures } from '../../../src/core/sample/fixture-estimate.js'
import { ppiMean, type PpiEstimate } from '../../../src/core/stats/ppi.js'

const N = 200
/** The judge accepts three cases in four; the human reverses it on one case in ten. */
const judge = (index: number): 0 | 1 => (index % 4 === 1 ? 0 : 1)
const human = (index: number): 0 | 1 => (index % 10 === 3 ? ((1 - judge(index)) as 0 | 1) : judge(index))

/** A split of N cases with every third of the first 180 sampled (60), the first `pending` of them without a human decision. */
function split(pending: number, judgeLabel: (index: number) => 0 | 1 | null = judge): SplitEstimateFigures {
  const sampled = Array.from({ length: 60 }, (_, j) => 3 * j)
  const result = ppiMean({
    judge: Array.from({ length: N }, (_, index) => judgeLabel(index)),
    sample: sampled.map((index, j) => ({ index, probability: 60 / N, human: j < pending ? null : human(index) })),
  })
  return { split: 'held_out', cases: N, sampled: 60, pending, outsideReviews: 0, judgeMissing: 0, result }
}

const gate = (min: number, split: EstimateGate['split'] = 'held_out'): EstimateGate => ({ judge: 'ix', split, min })

describe('the estimate gate', () => {
  test('passes at a lower bound equal to min, and fails just above it with the figures and digits that tell the two apart', () => {
    const figures = split(0)
    const result = figures.result as PpiEstimate
    expect(result.status).toBe('estimate')
    expect(estimateVerdict(figures, gate(result.low))).toMatchObject({ ok: true })
    expect(estimateVerdict(figures, gate(result.low)).todo).toBeUndefined()
    const above = result.low + 1e-7
    const failed = estimateVerdict(figures, gate(above))
    expect(failed.ok).toBe(false)
    expect(failed.todo).toBeUndefined()
    const [bound, least] = boundAndMin(result.low, above)
    expect(bound).not.toBe(least)
    expect(failed.message.split('\n')[0]).toBe(
      `PPI++ ${result.estimate.toFixed(3)}, 95% interval [${result.low.toFixed(3)}, ${result.high.toFixed(3)}]: the lower bound ${bound} is below ${least}, ` +
        `so the acceptance rate on held-out cases may be below ${above}; 60 of 200 cases sampled, 60 decided, 0 pending`,
    )
    expect(failed.message.split('\n')[1]).toBe(
      `human-only on the same sample ${result.classical.estimate.toFixed(3)} [${result.classical.low.toFixed(3)}, ${result.classical.high.toFixed(3)}]; ` +
        `judge-only ${result.judgeOnly.rate.toFixed(3)} (biased by the judge's errors); effective reviews ${result.effectiveReviews.toFixed(1)}`,
    )
  })

  test(`is todo with more than ${100 * MAX_PENDING_SHARE}% of the sampled cases pending, whatever the figures; decides at that share, giving the worst case`, () => {
    const over = estimateVerdict(split(7), gate(0))
    expect(over).toMatchObject({ ok: false, todo: true })
    expect(over.message).toMatch(
      /^the sample is incomplete: 7 of 60 sampled cases pending \(11\.7%, more than the 10% the gate allows\); review them; PPI\+\+ /,
    )
    expect(over.message).not.toContain('\n')
    const at = estimateVerdict(split(6), gate(0))
    expect(at.ok).toBe(true)
    expect(at.message).toMatch(/; 60 of 200 cases sampled, 54 decided, 6 pending; worst case over the 6 pending sampled cases \[0\.\d{3}, 0\.\d{3}\]$/)
  })

  test('waits (todo) on refusals that reviews resolve, and fails on a judge without a decision on every case', () => {
    const few = { ...split(0), result: ppiMean({ judge: Array.from({ length: N }, (_, index) => judge(index)), sample: [] }) }
    const waiting = estimateVerdict(few, gate(0.5))
    expect(waiting).toMatchObject({ ok: false, todo: true })
    expect(waiting.message).toMatch(/^no estimate: 0 sampled cases are decided \(0 pending\); an estimate needs at least 30: review more of the sample \(/)
    const missing = estimateVerdict(
      split(0, (index) => (index === 5 ? null : judge(index))),
      gate(0.5),
    )
    expect(missing).toEqual({ ok: false, message: expect.stringMatching(/^no estimate: 1 of 200 cases have no judge label .*run the judge on them/) })
  })

  test('is todo on development cases, which are no result, and fails on a fixture without a case of the split', () => {
    const development = estimateVerdict({ ...split(0), split: 'development' }, gate(0, 'development'))
    expect(development).toMatchObject({ ok: false, todo: true })
    expect(development.message).toMatch(/^development material: not a result beyond these examples: PPI\+\+ /)
    expect(estimateVerdict(undefined, gate(0.5))).toEqual({
      ok: false,
      message: 'the fixture has no held-out case: there is no rate to estimate; name the fixtures the gate checks with its fixtures globs',
    })
    expect(estimateGateName(gate(0.7))).toBe('acceptance rate on held-out cases (PPI++ with judge ix) is at least 0.7')
  })
})
