import { describe, expect, test } from 'vitest'
import { activeRequest } from '../../helpers/draw-request.js'
import type { Split } from '../../../src/core/common/primitives.js'
import { drawSample, type Population } from '../../../src/core/sample/draw.js'
import { ACTIVE_FLOOR, activeProbabilities } from '../../../src/core/sample/draw-judge.js'
import { requireConfidences, type JudgeCaseDesign } from '../../../src/core/sample/judge-design.js'

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0)

/** n development cases; the judge rejects every third, is unsure (confidence 0.6) of `support` in every fifth, sure (0.95) elsewhere. */
function population(n: number, held = 0): Population {
  return {
    cases: Array.from({ length: n }, (_, index) => {
      const unsure = index % 5 === 0
      const judge: JudgeCaseDesign = {
        decision: index % 3 === 0 ? 'rejected' : 'accepted',
        uncertainty: unsure ? 0.4 : 0.05,
        leastSure: { criterion: unsure ? 'support' : 'command', confidence: unsure ? 0.6 : 0.95 },
      }
      return { id: `c${index}`, split: (index < n - held ? 'development' : 'held_out') as Split, answerSha256: null, judge }
    }),
    caseSetSha256: null,
  }
}

const request = activeRequest

describe('activeProbabilities', () => {
  test('πᵢ = n·(τ/N + (1 − τ)·uᵢ/Σu) when none reaches 1: they add up to n, and each is at least τ·n/N', () => {
    const u = [0, 0.1, 0.2, 0.4, 0.05, 0.25]
    const pi = activeProbabilities(u, 2)
    const total = sum(u)
    expect(pi.map((p, i) => p - 2 * (ACTIVE_FLOOR / 6 + ((1 - ACTIVE_FLOOR) * u[i]!) / total))).toEqual(u.map(() => expect.closeTo(0, 12)))
    expect(sum(pi)).toBeCloseTo(2, 12)
    expect(Math.min(...pi)).toBeCloseTo((ACTIVE_FLOOR * 2) / 6, 12)
  })

  test('caps at 1 and spreads the rest of n over the other cases, so that the sum is still n', () => {
    const u = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    const pi = activeProbabilities(u, 3)
    expect(pi[0]).toBe(1)
    expect(sum(pi)).toBeCloseTo(3, 12)
    // The nine others share the 2 left evenly: they have the same uncertainty.
    expect(pi.slice(1).every((p) => Math.abs(p - 2 / 9) < 1e-12)).toBe(true)
  })

  test('is uniform when the judge is sure of every case', () => {
    expect(activeProbabilities([0, 0, 0, 0], 2)).toEqual([0.5, 0.5, 0.5, 0.5])
  })
})

describe('drawSample: active', () => {
  test('draws each case on its own with its probability, records them, the judge, the floor, the expected size and the least-sure criterion', () => {
    const { sample } = drawSample(undefined, population(200), request(40, '1'))
    const pi = activeProbabilities(
      population(200).cases.map((entry) => entry.judge!.uncertainty),
      40,
    )
    expect(sample.draws[0]).toMatchObject({ method: 'active', judge: 'ix', floor: ACTIVE_FLOOR, expected_size: 40, size: sample.cases.length })
    expect(sample.draws[0]).not.toHaveProperty('strata')
    for (const drawn of sample.cases) {
      const index = Number(drawn.id.slice(1))
      expect(drawn.probability).toBe(pi[index])
      expect(drawn.stratum).toBeNull()
      expect(drawn.least_sure).toEqual(index % 5 === 0 ? { criterion: 'support', confidence: 0.6 } : { criterion: 'command', confidence: 0.95 })
    }
  })

  test('draws each case with its inclusion probability over seeds', () => {
    const cases = population(20)
    const pi = activeProbabilities(
      cases.cases.map((entry) => entry.judge!.uncertainty),
      5,
    )
    const counts = new Array<number>(20).fill(0)
    const seeds = 4000
    for (let seed = 0; seed < seeds; seed++)
      for (const drawn of drawSample(undefined, cases, request(5, String(seed))).sample.cases) counts[Number(drawn.id.slice(1))]!++
    // Each share within 4 standard errors of its π over 4,000 draws.
    for (const [i, count] of counts.entries()) expect(Math.abs(count / seeds - pi[i]!)).toBeLessThan(4 * Math.sqrt((pi[i]! * (1 - pi[i]!)) / seeds) + 1e-9)
  })
})

describe('drawSample: stratified by the judge', () => {
  test('by decision: strata split × decision, proportional allocation with two a stratum at least, π = n_h/N_h', () => {
    const { sample } = drawSample(undefined, population(120, 20), request(30, '4', { method: 'stratified', strata: 'decision' }))
    expect(sample.draws[0]).toMatchObject({ method: 'stratified', strata: 'decision', judge: 'ix', size: 30 })
    const sizes = new Map<string, number>()
    for (const entry of population(120, 20).cases) {
      const key = `${entry.split}/${entry.judge!.decision}`
      sizes.set(key, (sizes.get(key) ?? 0) + 1)
    }
    const drawnIn = new Map<string, number>()
    for (const drawn of sample.cases) drawnIn.set(drawn.stratum!, (drawnIn.get(drawn.stratum!) ?? 0) + 1)
    expect([...drawnIn.keys()].sort()).toEqual(['development/accepted', 'development/rejected', 'held_out/accepted', 'held_out/rejected'])
    for (const [stratum, n] of drawnIn) {
      expect(n).toBeGreaterThanOrEqual(2)
      expect(sample.cases.filter((drawn) => drawn.stratum === stratum).every((drawn) => drawn.probability === n / sizes.get(stratum)!)).toBe(true)
    }
    // Proportional: development/accepted (66 of 120 cases) gets about 30·66/120 = 16.5.
    expect(Math.abs(drawnIn.get('development/accepted')! - 16.5)).toBeLessThanOrEqual(1)
    expect(sample.cases.every((drawn) => drawn.least_sure === undefined)).toBe(true)
  })

  test('by criterion: the stratum is the criterion the judge is least sure of, within the split', () => {
    const { sample } = drawSample(undefined, population(100), request(20, '4', { method: 'stratified', strata: 'criterion' }))
    expect(new Set(sample.cases.map((drawn) => drawn.stratum))).toEqual(new Set(['development/support', 'development/command']))
    for (const drawn of sample.cases) expect(drawn.stratum).toBe(`development/${drawn.least_sure!.criterion}`)
  })

  test('by criterion: a stratum of one case is merged into the largest of its split, recorded in the draw, and its case drawn as one of it', () => {
    // Case c7 is the only one the judge is least sure of `clarity` in: 90 development cases are 18
    // `support`, 71 `command` and 1 `clarity`; the 10 held out are 2 `support` and 8 `command`.
    const odd = population(100, 10)
    const cases = odd.cases.map((entry) =>
      entry.id === 'c7' ? { ...entry, judge: { ...entry.judge!, leastSure: { criterion: 'clarity', confidence: 0.5 } } } : entry,
    )
    const { sample } = drawSample(undefined, { ...odd, cases }, request(30, '4', { method: 'stratified', strata: 'criterion' }))
    expect(sample.draws[0]!.merged_strata).toEqual({ 'development/clarity': 'development/command' })
    expect(new Set(sample.cases.map((drawn) => drawn.stratum))).toEqual(
      new Set(['development/support', 'development/command', 'held_out/support', 'held_out/command']),
    )
    const command = sample.cases.filter((drawn) => drawn.stratum === 'development/command')
    expect(command.every((drawn) => drawn.probability === command.length / 72)).toBe(true)
    // Drawn whole, c7 is a case of the merged stratum; it keeps the criterion it was least sure of.
    const census = drawSample(undefined, { ...odd, cases }, request(100, '4', { method: 'stratified', strata: 'criterion' })).sample
    expect(census.cases.find((drawn) => drawn.id === 'c7')).toMatchObject({ stratum: 'development/command', least_sure: { criterion: 'clarity' } })
  })

  test('no merge is recorded when every stratum has two cases', () => {
    const { sample } = drawSample(undefined, population(100), request(20, '4', { method: 'stratified', strata: 'criterion' }))
    expect(sample.draws[0]).not.toHaveProperty('merged_strata')
  })

  test('is drawn once: an extension is refused, and --new draws again', () => {
    const byDecision = { method: 'stratified', strata: 'decision' } as const
    const first = drawSample(undefined, population(50), request(10, '1', byDecision)).sample
    expect(() => drawSample(first, population(50), request(5, '2', byDecision))).toThrow(
      /the sample was drawn stratified by the judge's decision within each split, by the judge's labels as they were at the draw; it cannot be extended/,
    )
    expect(drawSample(first, population(50), request(10, '2', { ...byDecision, fresh: true })).sample.draws).toHaveLength(1)
  })

  test('a size below two a stratum is a usage error naming the least size', () => {
    expect(() => drawSample(undefined, population(120, 20), request(7, '4', { method: 'stratified', strata: 'decision' }))).toThrow(
      /at least 2 cases \(or all\) of each of the 4 strata with cases none of which is drawn yet, 8 in all, and --size is 7/,
    )
  })
})

describe('requireConfidences', () => {
  test('refuses a judge none of whose current labels gives a confidence, with SAMPLE_NO_CONFIDENCE naming its file', () => {
    const design = { judge: 'plain', file: 'lab/judges/plain.json', cases: new Map(), confidences: 0, unlabelled: 0 }
    expect(() => requireConfidences(design, 'an active draw')).toThrow(expect.objectContaining({ code: 'SAMPLE_NO_CONFIDENCE', file: 'lab/judges/plain.json' }))
    expect(() => requireConfidences({ ...design, confidences: 1 }, 'an active draw')).not.toThrow()
  })
})

describe('drawSample: a copied design', () => {
  test('is not extended alone: the copy would no longer be one draw with the sample it copies', () => {
    const plain = population(50).cases.map(({ judge: _, ...entry }) => entry)
    const first = drawSample(undefined, { cases: plain, caseSetSha256: null }, request(10, '1', { method: 'uniform', judge: undefined })).sample
    const copy = { ...first, draws: first.draws.map((draw) => ({ ...draw, like: { file: 'a/sample.json', sha256: '0'.repeat(64) } })) }
    expect(() => drawSample(copy, { cases: plain, caseSetSha256: null }, request(5, '2', { method: 'uniform', judge: undefined }))).toThrow(
      /the sample copies the design of a\/sample\.json \(`sample --like`\); extended alone, the two would no longer be one draw of the tasks/,
    )
  })
})

test('a size beyond the cases is a usage error for the designs drawn by the judge too', () => {
  for (const more of [{}, { method: 'stratified', strata: 'decision' }] as const) {
    expect(() => drawSample(undefined, population(20), request(21, '1', more))).toThrow(
      /--size must be a whole number from 1 to the 20 cases not drawn yet; found 21/,
    )
  }
})
