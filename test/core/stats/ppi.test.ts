import { describe, expect, test } from 'vitest'
import { MIN_PPI_PER_LABEL, MIN_PPI_REVIEWS, ppiMean, type PpiEstimate, type PpiResult } from '../../../src/core/stats/ppi.js'
import type { PpiInput, PpiSampledCase } from '../../../src/core/stats/ppi-input.js'
import { createRandom } from '../../../src/core/stats/random.js'

/**
 * A split of 100 cases, the judge accepting the first 60; 40 of them drawn uniformly (π = 0.4): 20
 * the judge accepted, of which people accept 18, and 20 it rejected, of which people accept 4.
 * By hand: Ȳ = 22/40 = 0.55, f̄ on the sample 0.5, f̄ over the split 0.6; Σ(y − ȳ)² = 9.9,
 * Σ(y − ȳ)(f − f̄) = 18 − 40·0.55·0.5 = 7, Σ(f − f̄)² = 10, so λ = 7/10 and
 * θ̂ = 0.55 + 0.7·(0.6 − 0.5) = 0.62; v = (1 − 0.4)/40 · (9.9 − 2·0.7·7 + 0.49·10)/39 = 0.075/39.
 */
function handExample(): PpiInput {
  const judge = Array.from({ length: 100 }, (_, i) => (i < 60 ? 1 : 0))
  const sample: PpiSampledCase[] = []
  for (let k = 0; k < 20; k++) sample.push({ index: k, probability: 0.4, human: k < 18 ? 1 : 0 })
  for (let k = 0; k < 20; k++) sample.push({ index: 60 + k, probability: 0.4, human: k < 4 ? 1 : 0 })
  return { judge, sample }
}

function estimateOf(result: PpiResult): PpiEstimate {
  if (result.status !== 'estimate') throw new Error(`expected an estimate, got ${result.reason}: ${result.message}`)
  return result
}

const Z95 = 1.959963984540054

describe('ppiMean: the estimate', () => {
  test('a uniform sample, by hand: λ = 0.7, θ̂ = 0.62, v = 0.075/39 on ν = 1950/94.12 degrees of freedom, the human-only v = 0.6·9.9/(40·39), n_eff = 1/(1/132 + 1/100)', () => {
    const result = estimateOf(ppiMean(handExample()))
    expect(result.lambda).toBeCloseTo(0.7, 14)
    expect(result.estimate).toBeCloseTo(0.62, 14)
    expect(result.se).toBeCloseTo(Math.sqrt(0.075 / 39), 14)
    // The rectifier's deviations from its mean 0.2 are 0.1 (18 cases), −0.9 (2), 0.8 (4), −0.2 (16), each
    // case's term of v is ∝ their square, and Satterthwaite's ν = 2v²/var̂(v) = 2·5²/((40/39)·2.353) =
    // 1950/94.12 ≈ 20.7: scipy.stats.t.ppf(0.975, 1950 / 94.12) = 2.0813373233740258.
    expect(result.low).toBeCloseTo(0.62 - 2.0813373233740258 * Math.sqrt(0.075 / 39), 12)
    expect(result.high).toBeCloseTo(0.62 + 2.0813373233740258 * Math.sqrt(0.075 / 39), 12)
    expect(result.low).toBeLessThan(0.62 - Z95 * Math.sqrt(0.075 / 39))
    expect(result.classical.estimate).toBeCloseTo(0.55, 14)
    expect(result.classical.se).toBeCloseTo(Math.sqrt((0.6 * 9.9) / (40 * 39)), 14)
    // The human labels' deviations, 0.45 (22) and −0.55 (18), give ν = 2·9.9²/((40/39)·0.099) = 1930.5:
    // scipy.stats.t.ppf(0.975, 1930.5) = 1.9611935799671774, all but the normal quantile.
    expect(result.classical.low).toBeCloseTo(0.55 - 1.9611935799671774 * Math.sqrt((0.6 * 9.9) / (40 * 39)), 12)
    // s²_Y = 9.9/39 and v = (1 − m/100)·s²_Y/m at m reviews: v = 0.075/39 at 1/m = 0.075/9.9 + 1/100.
    expect(result.effectiveReviews).toBeCloseTo(1 / (1 / 132 + 1 / 100), 10)
    expect(result.judgeOnly).toEqual({ rate: 0.6, biased: true })
    expect(result).toMatchObject({
      status: 'estimate',
      estimand: 'split',
      level: 0.95,
      cases: 100,
      sampled: 40,
      decided: 40,
      pending: 0,
      complete: true,
      worstCase: null,
    })
  })

  test("the system's rate adds the spread of a rate over N cases, s²_Y/N = (9.9/39)/100, to both variances", () => {
    const result = estimateOf(ppiMean(handExample(), { estimand: 'system' }))
    expect(result.estimate).toBeCloseTo(0.62, 14)
    expect(result.se).toBeCloseTo(Math.sqrt(0.075 / 39 + 9.9 / 39 / 100), 14)
    expect(result.classical.se).toBeCloseTo(Math.sqrt((0.6 * 9.9) / (40 * 39) + 9.9 / 39 / 100), 14)
  })

  test('λ = 1 is the original PPI, θ̂ = Ȳ + f̄_N − f̄ = 0.65; λ = 0 is the human-only estimate', () => {
    const plain = estimateOf(ppiMean(handExample(), { lambda: 1 }))
    expect(plain.lambda).toBe(1)
    expect(plain.estimate).toBeCloseTo(0.65, 14)
    expect(plain.se).toBeCloseTo(Math.sqrt((0.6 * (9.9 - 14 + 10)) / (40 * 39)), 14)
    const human = estimateOf(ppiMean(handExample(), { lambda: 0 }))
    expect([human.estimate, human.se, human.low, human.high]).toEqual([human.classical.estimate, human.classical.se, human.classical.low, human.classical.high])
    expect(human.effectiveReviews).toBeCloseTo(40, 12)
  })

  test("the system's effective reviews are n·v_classical/v, with no correction for the N cases: a census of them is not exact", () => {
    const result = estimateOf(ppiMean(handExample(), { estimand: 'system' }))
    const spread = 9.9 / 39 / 100
    const expected = (40 * ((0.6 * 9.9) / (40 * 39) + spread)) / (0.075 / 39 + spread)
    expect(result.effectiveReviews).toBeCloseTo(expected, 10)
  })

  test("the split's effective reviews never reach its N cases while the interval has width, however good the judge", () => {
    // A judge that agrees with people on all but one of 45 drawn cases of 80: the rectifier barely varies.
    const judge = Array.from({ length: 80 }, (_, i) => (i % 4 === 0 ? 0 : 1))
    const sample = Array.from({ length: 45 }, (_, k) => ({ index: k, probability: 45 / 80, human: (k === 1 || k % 4 === 0 ? 0 : 1) as 0 | 1 }))
    const result = estimateOf(ppiMean({ judge, sample }))
    expect(result.high - result.low).toBeGreaterThan(0)
    expect(result.effectiveReviews).toBeGreaterThan(45)
    expect(result.effectiveReviews).toBeLessThan(80)
  })

  test('a wider level gives a wider interval around the same estimate', () => {
    const at95 = estimateOf(ppiMean(handExample()))
    const at99 = estimateOf(ppiMean(handExample(), { level: 0.99 }))
    expect(at99.estimate).toBe(at95.estimate)
    expect(at99.high - at99.low).toBeGreaterThan(at95.high - at95.low)
  })

  test('the interval is clipped to [0, 1]', () => {
    // A judge that never varies (λ = 0): 35 of 40 accepted, the 99.9% interval reaching past 1.
    const judge = Array.from({ length: 200 }, () => 1)
    const sample = Array.from({ length: 40 }, (_, k) => ({ index: k * 5, probability: 0.2, human: (k < 35 ? 1 : 0) as 0 | 1 }))
    const result = estimateOf(ppiMean({ judge, sample }, { level: 0.999 }))
    expect(result.lambda).toBe(0)
    expect(result.estimate + 3.2905267314919255 * result.se).toBeGreaterThan(1)
    expect(result.high).toBe(1)
    expect(result.classical.high).toBe(1)
  })

  test('the estimate uses the weights 1/π (Hájek): scaling every π alike leaves it unchanged; weighting a case more moves it toward that case', () => {
    const base = handExample()
    const scaled = { ...base, sample: base.sample.map((drawn) => ({ ...drawn, probability: drawn.probability / 2 })) }
    expect(estimateOf(ppiMean(scaled, { lambda: 0.5 })).estimate).toBeCloseTo(estimateOf(ppiMean(base, { lambda: 0.5 })).estimate, 14)
    // The judge-rejected cases drawn with half the probability stand for twice as many cases.
    const uneven = { ...base, sample: base.sample.map((drawn) => (drawn.index >= 60 ? { ...drawn, probability: 0.2 } : drawn)) }
    const human = estimateOf(ppiMean(uneven, { lambda: 0 }))
    expect(human.estimate).toBeCloseTo((18 * 2.5 + 4 * 5) / (20 * 2.5 + 20 * 5), 14)
  })

  test('a design stratified by the judge label (π_h = n_h/N_h) gives the stratified estimator Σ (N_h/N)·Ȳ_h, for every λ', () => {
    const judge = Array.from({ length: 300 }, (_, i) => (i < 200 ? 1 : 0))
    const sample: PpiSampledCase[] = []
    for (let k = 0; k < 40; k++) sample.push({ index: k * 5, probability: 40 / 200, human: k % 10 === 0 ? 0 : 1, stratum: 'accept' })
    for (let k = 0; k < 20; k++) sample.push({ index: 200 + k * 5, probability: 20 / 100, human: k % 4 === 0 ? 1 : 0, stratum: 'reject' })
    const expected = (200 / 300) * (36 / 40) + (100 / 300) * (5 / 20)
    for (const lambda of [0, 0.3, 1, 'tuned'] as const) expect(estimateOf(ppiMean({ judge, sample }, { lambda })).estimate).toBeCloseTo(expected, 14)
    // Within each stratum the judge never varies: it adds nothing the strata have not, and λ is 0.
    expect(estimateOf(ppiMean({ judge, sample })).lambda).toBe(0)
  })

  test('strata given narrow the interval when the rate differs between them', () => {
    const judge = Array.from({ length: 300 }, (_, i) => (i < 200 ? 1 : 0))
    const sample: PpiSampledCase[] = []
    for (let k = 0; k < 40; k++) sample.push({ index: k * 5, probability: 0.2, human: k % 10 === 0 ? 0 : 1, stratum: 'accept' })
    for (let k = 0; k < 20; k++) sample.push({ index: 200 + k * 5, probability: 0.2, human: k % 4 === 0 ? 1 : 0, stratum: 'reject' })
    const stratified = estimateOf(ppiMean({ judge, sample }, { lambda: 0 }))
    const pooled = estimateOf(ppiMean({ judge, sample: sample.map(({ stratum: _, ...drawn }) => drawn) }, { lambda: 0 }))
    expect(stratified.estimate).toBeCloseTo(pooled.estimate, 14)
    expect(stratified.se).toBeLessThan(pooled.se)
  })

  test('a case drawn with certainty (π = 1) adds no variance: a census of the split is its rate, exactly', () => {
    const judge = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? 0 : 1))
    const sample = judge.map((_, index) => ({ index, probability: 1, human: (index % 4 === 0 ? 0 : 1) as 0 | 1 }))
    const result = estimateOf(ppiMean({ judge, sample }))
    expect(result.estimate).toBeCloseTo(30 / 40, 14)
    expect([result.se, result.low, result.high, result.effectiveReviews]).toEqual([0, result.estimate, result.estimate, 40])
  })
})

describe('ppiMean: pending sampled cases', () => {
  function withPending(judge: number[], decided: number, pending: number, random: () => number): PpiInput {
    const sample: PpiSampledCase[] = []
    for (let j = 0; j < decided + pending; j++) {
      const index = j * 3
      const accepted = judge[index]! >= 0.5 ? 1 : 0
      const human = j >= decided ? null : random() < 0.15 ? 1 - accepted : accepted
      sample.push({ index, probability: 0.05 + 0.95 * random(), human: human as 0 | 1 | null, ...(j % 2 === 0 ? { stratum: 'a' } : { stratum: 'b' }) })
    }
    return { judge, sample }
  }

  test('are counted, mark the estimate incomplete and are never dropped silently', () => {
    const random = createRandom('pending')
    const judge = Array.from({ length: 150 }, () => (random() < 0.6 ? 1 : 0))
    const result = estimateOf(ppiMean(withPending(judge, 36, 4, random)))
    expect(result).toMatchObject({ sampled: 40, decided: 36, pending: 4, complete: false })
    expect(result.worstCase).not.toBeNull()
  })

  test('the worst case holds the interval of the complete sample at the same λ, for every labelling of the pending cases', () => {
    for (let seed = 0; seed < 80; seed++) {
      const random = createRandom(seed)
      const judge = Array.from({ length: 150 }, () => (random() < 0.6 ? 1 : random() < 0.5 ? 0.5 : 0))
      const pending = 1 + (seed % 6)
      const input = withPending(judge, 34, pending, random)
      for (const estimand of ['split', 'system'] as const) {
        const result = estimateOf(ppiMean(input, { estimand }))
        const bounds = result.worstCase!
        expect(bounds.low).toBeLessThanOrEqual(result.low)
        expect(bounds.high).toBeGreaterThanOrEqual(result.high)
        for (let labelling = 0; labelling < 2 ** pending; labelling++) {
          let k = 0
          const complete = input.sample.map((drawn) => (drawn.human === null ? { ...drawn, human: ((labelling >> k++) & 1) as 0 | 1 } : drawn))
          const filled = ppiMean({ judge, sample: complete }, { estimand, lambda: result.lambda })
          if (filled.status !== 'estimate') continue
          expect(filled.low, `seed ${seed}, labelling ${labelling}`).toBeGreaterThanOrEqual(bounds.low)
          expect(filled.high, `seed ${seed}, labelling ${labelling}`).toBeLessThanOrEqual(bounds.high)
        }
      }
    }
  })

  test('no worst case without pending cases, or when it is not asked for', () => {
    const random = createRandom('none')
    const judge = Array.from({ length: 150 }, () => (random() < 0.6 ? 1 : 0))
    expect(estimateOf(ppiMean(withPending(judge, 40, 0, random))).worstCase).toBeNull()
    expect(estimateOf(ppiMean(withPending(judge, 40, 3, random), { worstCase: false })).worstCase).toBeNull()
  })
})

describe('ppiMean: refusals, as data', () => {
  const refusal = (result: PpiResult) => (result.status === 'unsupported' ? { reason: result.reason, message: result.message } : result)

  test('a case without a judge label', () => {
    const input = handExample()
    const judge = input.judge.map((f, i) => (i === 70 || i === 95 ? null : f))
    expect(refusal(ppiMean({ ...input, judge }))).toMatchInlineSnapshot(`
      {
        "message": "2 of 100 cases have no judge label (the first is case 70): the judge's rate would not be over every case; run the judge on them",
        "reason": "judge-missing",
      }
    `)
  })

  test(`fewer than ${MIN_PPI_REVIEWS} decided sampled cases, pending ones not counted`, () => {
    const input = handExample()
    const sample = input.sample.map((drawn, j) => (j % 4 === 0 ? { ...drawn, human: null } : drawn))
    expect(ppiMean({ ...input, sample })).toMatchObject({ status: 'estimate', decided: 30, pending: 10 })
    const fewer = sample.map((drawn, j) => (j === 1 ? { ...drawn, human: null } : drawn))
    expect(refusal(ppiMean({ ...input, sample: fewer }))).toMatchInlineSnapshot(`
      {
        "message": "29 sampled cases are decided (11 pending); an estimate needs at least 30: review more of the sample",
        "reason": "too-few-reviews",
      }
    `)
  })

  test(`fewer than ${MIN_PPI_PER_LABEL} decided sampled cases of one human label`, () => {
    const input = handExample()
    const sample = input.sample.map((drawn) => ({ ...drawn, human: drawn.index === 79 ? 0 : 1 }) as const)
    expect(refusal(ppiMean({ ...input, sample }))).toMatchInlineSnapshot(`
      {
        "message": "39 of the 40 decided sampled cases have the human label 1 and 1 the label 0; an estimate needs at least 5 of each, or the normal approximation fails near 0 and 1: review more of the sample",
        "reason": "too-few-per-label",
      }
    `)
  })

  test('a stratum with fewer than 2 decided cases, pending ones not counted', () => {
    const input = handExample()
    const sample = input.sample.map((drawn, j) => ({ ...drawn, stratum: j === 0 ? 'lone' : 'rest' }))
    expect(refusal(ppiMean({ ...input, sample }))).toMatchInlineSnapshot(`
      {
        "message": "stratum "lone" has 1 decided sampled case; each stratum needs 2 for its variance: review more of it",
        "reason": "stratum-too-small",
      }
    `)
  })

  test('labels that do not vary: the human labels within every stratum, or the judge agreeing with every review', () => {
    const judge = Array.from({ length: 100 }, (_, i) => (i < 60 ? 1 : 0))
    const byJudge = (k: number): PpiSampledCase => ({
      index: k < 20 ? k : 40 + k,
      probability: 0.4,
      human: k < 20 ? 1 : 0,
      stratum: k < 20 ? 'accept' : 'reject',
    })
    const strata = Array.from({ length: 40 }, (_, k) => byJudge(k))
    expect(refusal(ppiMean({ judge, sample: strata }))).toMatchInlineSnapshot(`
      {
        "message": "the human labels do not vary within any stratum, so the normal interval would have no width: review more of the sample, or draw it with fewer strata",
        "reason": "degenerate-variance",
      }
    `)
    const agreeing = strata.map(({ stratum: _, ...drawn }) => drawn)
    expect(refusal(ppiMean({ judge, sample: agreeing }))).toMatchInlineSnapshot(`
      {
        "message": "the judge agrees with every decided review (human − λ·judge is constant within every stratum, λ = 1), so the sample cannot tell how often it errs and the interval would have no width: review more of the sample, or read the human-only interval",
        "reason": "degenerate-variance",
      }
    `)
    // With λ = 0.5 the rectified labels vary: an estimate.
    expect(ppiMean({ judge, sample: agreeing }, { lambda: 0.5 }).status).toBe('estimate')
  })
})

describe('ppiMean: malformed input throws a STATISTICS_INPUT error naming the value', () => {
  const base = handExample()
  test.each([
    ['a judge label outside [0, 1]', { ...base, judge: base.judge.map((f, i) => (i === 3 ? 2 : f)) }, {}],
    ['a sampled index outside the split', { ...base, sample: [...base.sample, { index: 100, probability: 0.4, human: 1 }] }, {}],
    ['a case drawn twice', { ...base, sample: [...base.sample, { index: 0, probability: 0.4, human: 1 }] }, {}],
    ['an inclusion probability of 0', { ...base, sample: base.sample.map((d, j) => (j === 2 ? { ...d, probability: 0 } : d)) }, {}],
    ['a human label of 0.5', { ...base, sample: base.sample.map((d, j) => (j === 2 ? { ...d, human: 0.5 } : d)) }, {}],
    ['strata for some cases only', { ...base, sample: base.sample.map((d, j) => (j === 5 ? { ...d, stratum: 'a' } : d)) }, {}],
    ['a λ above 1', base, { lambda: 1.5 }],
    ['an unknown estimand', base, { estimand: 'world' }],
    ['a level of 95', base, { level: 95 }],
  ])('%s', (_, input, options) => {
    expect(() => ppiMean(input as PpiInput, options as never)).toThrowErrorMatchingSnapshot()
  })
})
