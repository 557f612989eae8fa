import { describe, expect, test } from 'vitest'
import {
  MIN_PPI_DISCORDANT,
  ppiDifference,
  type PpiDifferenceEstimate,
  type PpiDifferenceInput,
  type PpiDifferenceResult,
} from '../../../src/core/stats/ppi-difference.js'
import { ppiMean } from '../../../src/core/stats/ppi.js'
import { createRandom, type Random } from '../../../src/core/stats/random.js'

function estimateOf(result: PpiDifferenceResult): PpiDifferenceEstimate {
  if (result.status !== 'estimate') throw new Error(`expected an estimate, got ${result.reason}: ${result.message}`)
  return result
}

/** A paired split of `cases` tasks: A accepted in 70%, B in 72%, the judge right on 85% of answers; `size` tasks drawn uniformly, `pending` of them with a side pending. */
function pairedSplit(random: Random, cases: number, size: number, pending = 0): PpiDifferenceInput {
  const human = Array.from({ length: cases }, () => {
    const u = random()
    return u < 0.62 ? ([1, 1] as const) : u < 0.7 ? ([1, 0] as const) : u < 0.8 ? ([0, 1] as const) : ([0, 0] as const)
  })
  const judged = (y: 0 | 1) => (random() < 0.85 ? y : 1 - y)
  const judge = { a: human.map(([a]) => judged(a)), b: human.map(([, b]) => judged(b)) }
  const indexes = Array.from({ length: cases }, (_, i) => i)
  for (let k = 0; k < size; k++) {
    const j = k + Math.floor(random() * (cases - k))
    ;[indexes[k], indexes[j]] = [indexes[j]!, indexes[k]!]
  }
  const sample = indexes.slice(0, size).map((index, k) => {
    const [a, b] = human[index]!
    // The pending ones: A's side, B's side or both, in turn.
    const side = k < pending ? k % 3 : -1
    return { index, probability: size / cases, a: side === 0 || side === 2 ? null : a, b: side === 1 || side === 2 ? null : b }
  })
  return { judge, sample }
}

describe('ppiDifference: the estimate', () => {
  test('with A rejected everywhere (by people and by the judge) B − A is B’s rate: the same figures as ppiMean on B alone', () => {
    const random = createRandom('reduces')
    const split = pairedSplit(random, 600, 150)
    const zeros = split.judge.a.map(() => 0)
    const input = { judge: { a: zeros, b: split.judge.b }, sample: split.sample.map((pair) => ({ ...pair, a: 0 as const })) }
    for (const estimand of ['split', 'system'] as const) {
      const difference = estimateOf(ppiDifference(input, { estimand }))
      const rate = ppiMean({ judge: split.judge.b, sample: split.sample.map(({ index, probability, b }) => ({ index, probability, human: b })) }, { estimand })
      if (rate.status !== 'estimate') throw new Error(rate.message)
      expect(difference.lambda).toBe(rate.lambda)
      for (const key of ['estimate', 'se', 'low', 'high'] as const) {
        expect(difference[key]).toBeCloseTo(rate[key], 14)
        expect(difference.classical[key]).toBeCloseTo(rate.classical[key], 14)
      }
      expect(difference.effectiveReviews).toBeCloseTo(rate.effectiveReviews, 10)
      expect(difference.judgeOnly).toEqual({ a: 0, b: rate.judgeOnly.rate, difference: rate.judgeOnly.rate, biased: true })
    }
  })

  test('λ = 0 is the human-only difference: the mean of Y_B − Y_A over the decided pairs, with the uniform design’s (1 − n/N)·s²/n', () => {
    const input = pairedSplit(createRandom('classical'), 500, 100)
    const result = estimateOf(ppiDifference(input, { lambda: 0 }))
    const d = input.sample.map((pair) => pair.b! - pair.a!)
    const mean = d.reduce((sum, x) => sum + x, 0) / d.length
    const s2 = d.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (d.length - 1)
    expect(result.estimate).toBeCloseTo(mean, 14)
    expect(result.se).toBeCloseTo(Math.sqrt(((1 - 100 / 500) * s2) / 100), 14)
    expect([result.estimate, result.se, result.low, result.high]).toEqual([
      result.classical.estimate,
      result.classical.se,
      result.classical.low,
      result.classical.high,
    ])
    expect(result.discordant).toBe(d.filter((x) => x !== 0).length)
  })

  test('a judge that reads both answers well narrows the interval of B − A, worth more pairs than were reviewed', () => {
    const result = estimateOf(ppiDifference(pairedSplit(createRandom('narrower'), 4000, 300)))
    expect(result.lambda).toBeGreaterThan(0)
    expect(result.high - result.low).toBeLessThan(result.classical.high - result.classical.low)
    expect(result.effectiveReviews).toBeGreaterThan(result.decided)
  })

  test('the worst case holds the interval of the complete sample at the same λ, for every labelling of the pending sides', () => {
    let checked = 0
    for (let seed = 0; seed < 40; seed++) {
      const random = createRandom(`worst ${seed}`)
      const pending = 1 + (seed % 5)
      const input = pairedSplit(random, 400, 120, pending)
      for (const estimand of ['split', 'system'] as const) {
        const found = ppiDifference(input, { estimand })
        // A draw with too few discordant pairs now and then: refused, so nothing to bound.
        if (found.status !== 'estimate') continue
        checked++
        const result = found
        const bounds = result.worstCase!
        expect(bounds.low).toBeLessThanOrEqual(result.low)
        expect(bounds.high).toBeGreaterThanOrEqual(result.high)
        const sides = input.sample
          .flatMap((pair, j) => [pair.a === null ? ([j, 'a'] as const) : null, pair.b === null ? ([j, 'b'] as const) : null])
          .filter((side) => side !== null)
        for (let labelling = 0; labelling < 2 ** sides.length; labelling++) {
          const sample = input.sample.map((pair) => ({ ...pair }))
          sides.forEach(([j, side], k) => {
            sample[j]![side] = ((labelling >> k) & 1) as 0 | 1
          })
          const filled = ppiDifference({ judge: input.judge, sample }, { estimand, lambda: result.lambda })
          if (filled.status !== 'estimate') continue
          expect(filled.low, `seed ${seed}, labelling ${labelling}`).toBeGreaterThanOrEqual(bounds.low)
          expect(filled.high, `seed ${seed}, labelling ${labelling}`).toBeLessThanOrEqual(bounds.high)
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(70)
  })
})

describe('ppiDifference: refusals, as data', () => {
  const refusal = (result: PpiDifferenceResult) => (result.status === 'unsupported' ? { reason: result.reason, message: result.message } : result)
  const base = () => pairedSplit(createRandom('refusals'), 400, 60)

  test("a task without a judge label of one system's answer", () => {
    const input = base()
    expect(refusal(ppiDifference({ ...input, judge: { a: input.judge.a, b: input.judge.b.map((f, i) => (i === 7 ? null : f)) } }))).toMatchInlineSnapshot(`
      {
        "message": "1 of 400 tasks have no judge label of B's answer (the first is task 7): the judge's difference would not be over every task; run the judge on them",
        "reason": "judge-missing",
      }
    `)
  })

  test('fewer than 30 sampled tasks decided in both systems: a task with one side pending is not decided', () => {
    const input = base()
    const sample = input.sample.map((pair, j) => (j < 31 ? { ...pair, b: null } : pair))
    expect(refusal(ppiDifference({ ...input, sample }))).toMatchInlineSnapshot(`
      {
        "message": "29 sampled tasks are decided in both systems (31 pending); an estimate needs at least 30: review more of the sample, in both",
        "reason": "too-few-reviews",
      }
    `)
  })

  test(`fewer than ${MIN_PPI_DISCORDANT} decided pairs decided differently by people in A and in B`, () => {
    const input = base()
    let kept = 0
    // Every discordant pair but nine made concordant.
    const sample = input.sample.map((pair) => (pair.a !== pair.b && kept++ >= 9 ? { ...pair, b: pair.a } : pair))
    const result = ppiDifference({ ...input, sample })
    expect(result.status === 'unsupported' && result.reason).toBe('too-few-discordant')
    expect(result.status === 'unsupported' && result.message).toMatch(
      /^9 of the 60 decided sampled tasks are decided differently in A and in B; an estimate needs at least 10 such pairs/,
    )
  })

  test('a stratum with one decided task, and a judge whose B − A matches every decided pair', () => {
    const input = base()
    const strata = { ...input, sample: input.sample.map((pair, j) => ({ ...pair, stratum: j === 0 ? 'lone' : 'rest' })) }
    expect(refusal(ppiDifference(strata))).toMatchObject({ reason: 'stratum-too-small' })
    const judge = { a: [...input.judge.a], b: [...input.judge.b] }
    for (const pair of input.sample) {
      judge.a[pair.index] = pair.a!
      judge.b[pair.index] = pair.b!
    }
    expect(refusal(ppiDifference({ judge, sample: input.sample }))).toMatchObject({ reason: 'degenerate-variance' })
  })

  test('malformed input throws, naming the value', () => {
    const input = base()
    expect(() => ppiDifference({ ...input, judge: { a: input.judge.a, b: input.judge.b.slice(1) } })).toThrow(
      'ppiDifference: judge.a and judge.b must label the same tasks; found 400 and 399 labels',
    )
    expect(() => ppiDifference({ ...input, judge: { a: input.judge.a.map((f, i) => (i === 3 ? -1 : f)), b: input.judge.b } })).toThrow(
      'ppiDifference: judge.a[3] must be a number in [0, 1] or null; found -1',
    )
    const twice = [...input.sample, input.sample[0]!]
    expect(() => ppiDifference({ ...input, sample: twice })).toThrow(`ppiDifference: sample[60].index ${input.sample[0]!.index} is drawn twice`)
    expect(() => ppiDifference({ ...input, sample: input.sample.map((pair, j) => (j === 2 ? { ...pair, b: 2 as 1 } : pair)) })).toThrow(
      'ppiDifference: sample[2].b must be 1, 0 or null (pending); found 2',
    )
  })
})
