import { describe, expect, test } from 'vitest'
import { activeRequest } from '../../helpers/draw-request.js'
import type { Split } from '../../../src/core/common/primitives.js'
import { compareCodePoints } from '../../../src/core/json/canonical-json.js'
import { activeExtensionProbabilities } from '../../../src/core/sample/draw-active.js'
import { drawSample, type Population } from '../../../src/core/sample/draw.js'
import { ACTIVE_FLOOR, activeProbabilities } from '../../../src/core/sample/draw-judge.js'
import type { JudgeCaseDesign } from '../../../src/core/sample/judge-design.js'
import type { SampleFile } from '../../../src/core/sample/sample-file.js'

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0)

/** n development cases; the judge is unsure (confidence 0.6) of every fifth case from `offset` on, sure (0.95) of the others. */
function population(n: number, offset = 0): Population {
  return {
    cases: Array.from({ length: n }, (_, index) => {
      const unsure = index % 5 === offset
      const judge: JudgeCaseDesign = {
        decision: 'accepted',
        uncertainty: unsure ? 0.4 : 0.05,
        leastSure: { criterion: unsure ? 'support' : 'command', confidence: unsure ? 0.6 : 0.95 },
      }
      return { id: `c${index}`, split: 'development' as Split, answerSha256: null, judge }
    }),
    caseSetSha256: null,
  }
}

const request = activeRequest

/** πᵢ = n·(τ/N + (1 − τ)·uᵢ/Σu), written out for a design where none reaches 1. */
const uncapped = (u: readonly number[], scale: number) => u.map((ui) => scale * (ACTIVE_FLOOR / u.length + ((1 - ACTIVE_FLOOR) * ui) / sum(u)))
const uncertainties = (cases: Population) => cases.cases.map((entry) => entry.judge!.uncertainty)

describe('extending an active sample', () => {
  // Phase 1 by the labels at the draw; phase 2 by labels that changed since: now unsure of c1, c6, … instead of c0, c5, ….
  const before = population(20)
  const now = population(20, 1)
  const pi1 = uncapped(uncertainties(before), 6)
  const shares2 = uncapped(uncertainties(now), 1)
  // s₂ so that phase 2 adds 3 cases in expectation: Σ (1 − π1ᵢ)·s₂·shareᵢ = 3.
  const s2 = 3 / sum(shares2.map((share, i) => (1 - pi1[i]!) * share))
  const pi2 = shares2.map((share) => s2 * share)
  const combined = pi1.map((p, i) => 1 - (1 - p) * (1 - pi2[i]!))

  test('phase 2 draws by the current labels, adds the size asked in expectation, and each case gets 1 − (1 − π1)(1 − π2)', () => {
    expect(Math.max(...pi1, ...pi2)).toBeLessThan(1)
    const first = drawSample(undefined, before, request(6, '1')).sample
    const { sample, drawn } = drawSample(first, now, request(3, '2'))
    // Every case of phase 1 stays, with the combined probability.
    expect(sample.cases.slice(0, first.cases.length).map((entry) => entry.id)).toEqual(first.cases.map((entry) => entry.id))
    for (const entry of sample.cases) expect(entry.probability).toBeCloseTo(combined[Number(entry.id.slice(1))]!, 12)
    expect(drawn.every((entry) => entry.draw === 1 && !first.cases.some((old) => old.id === entry.id))).toBe(true)
    expect(sample.draws[1]).toMatchObject({ method: 'active', judge: 'ix', expected_size: 3, floor: ACTIVE_FLOOR, size: drawn.length })
    // Every case's combined probability is recorded, in the code-point order of the ids (c0, c1, c10, …).
    const ids = now.cases.map((entry) => entry.id).sort(compareCodePoints)
    expect(sample.draws[1]!.inclusion_probabilities).toEqual(ids.map((id) => expect.closeTo(combined[Number(id.slice(1))]!, 12)))
    expect(sum(pi2.map((p, i) => (1 - pi1[i]!) * p))).toBeCloseTo(3, 12)
  })

  test('each case is in the sample after two phases with its combined probability, over 4,000 pairs of seeds', () => {
    const counts = new Array<number>(20).fill(0)
    const seeds = 4000
    for (let seed = 0; seed < seeds; seed++) {
      const first = drawSample(undefined, before, request(6, `a${seed}`)).sample
      for (const entry of drawSample(first, now, request(3, `b${seed}`)).sample.cases) counts[Number(entry.id.slice(1))]!++
    }
    // Each share within 4 standard errors of its combined probability.
    for (const [i, count] of counts.entries()) {
      const p = combined[i]!
      expect(Math.abs(count / seeds - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / seeds) + 1e-9)
    }
  })

  test('the probabilities follow the ids, not the order of cases.json', () => {
    const first = drawSample(undefined, before, request(6, '1')).sample
    const reordered = { ...now, cases: [...now.cases].reverse() }
    const byId = (sample: SampleFile) => Object.fromEntries(sample.cases.map((entry) => [entry.id, entry.probability]))
    const extended = byId(drawSample(first, reordered, request(3, '2')).sample)
    for (const [id, probability] of Object.entries(extended)) expect(probability).toBeCloseTo(combined[Number(id.slice(1))]!, 12)
  })

  test('a case drawn for certain stays at 1 and takes no share of phase 2; the rest is capped at 1 and spread as in a first draw', () => {
    const u = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    const first = activeProbabilities(u, 3)
    expect(first[0]).toBe(1)
    const { phase, combined: both } = activeExtensionProbabilities(first, [0, 1, 0, 0, 0, 0, 0, 0, 0, 0], 3)
    expect(phase[0]).toBe(0)
    expect(both[0]).toBe(1)
    expect(phase[1]).toBe(1)
    expect(sum(phase.map((p, i) => (1 - first[i]!) * p))).toBeCloseTo(3, 12)
    expect(both.every((p, i) => p >= first[i]!)).toBe(true)
  })

  test('can be extended again: a third phase starts from the combined probabilities', () => {
    const first = drawSample(undefined, before, request(6, '1')).sample
    const second = drawSample(first, now, request(3, '2')).sample
    const third = drawSample(second, now, request(2, '3')).sample
    expect(third.draws).toHaveLength(3)
    const { combined: again } = activeExtensionProbabilities(combined, uncertainties(now), 2)
    for (const entry of third.cases) expect(entry.probability).toBeCloseTo(again[Number(entry.id.slice(1))]!, 12)
    expect(third.cases.slice(0, second.cases.length).map((entry) => entry.id)).toEqual(second.cases.map((entry) => entry.id))
  })
})

describe('extending an active sample: refusals', () => {
  const first = drawSample(undefined, population(20), request(6, '1')).sample

  test('a sample written without every case’s probability is drawn once, and --new draws again', () => {
    const old: SampleFile = { ...first, draws: first.draws.map(({ inclusion_probabilities: _, ...draw }) => draw) }
    expect(() => drawSample(old, population(20), request(3, '2'))).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: lab/sample.json: the sample was drawn actively (by the judge's uncertainty), by the judge's labels as they were at the draw; it cannot be extended, as more draws would need the probabilities the first gave every case under the labels as they are now.
        expected: --new, to draw a new sample in its place
        fix:      draw a new, larger sample with --new (the reviews made stay valid as reviews, and count when their cases are drawn again).]
    `)
    expect(drawSample(old, population(20), request(6, '2', { fresh: true })).sample.draws).toHaveLength(1)
  })

  test('another judge, another method, changed cases and a size beyond what is left are refused', () => {
    expect(() => drawSample(first, population(20), request(3, '2', { judge: 'kw' }))).toThrow(
      /the sample was drawn by judge ix's uncertainty, and an extension draws by the same judge's current labels; --judge kw was given/,
    )
    expect(() => drawSample(first, population(20), request(3, '2', { method: 'uniform', judge: undefined }))).toThrow(
      /the sample was drawn actively \(by the judge's uncertainty\), and an extension keeps its design/,
    )
    expect(() => drawSample(first, population(21), request(3, '2'))).toThrow(expect.objectContaining({ code: 'SAMPLE_POPULATION_CHANGED' }))
    // Σ(1 − π) = 20 − 6 = 14 cases left in expectation.
    expect(() => drawSample(first, population(20), request(15, '2'))).toThrow(
      /--size, the expected number of cases an extension of an active sample adds, must be a whole number from 1 to 14/,
    )
  })
})
