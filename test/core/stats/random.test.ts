import { describe, expect, test } from 'vitest'
import { RubricError } from '../../../src/core/common/errors.js'
import { StatisticsInputError } from '../../../src/core/stats/errors.js'
import { createRandom, hashString, randomIndex } from '../../../src/core/stats/random.js'

// A second implementation of the same generators, in BigInt arithmetic masked to 32 bits: the
// seeding step (a Weyl sequence of step 0x9e3779b9 through a 16/15/15 xor-shift-multiply
// finaliser) and xoshiro128** written from Blackman & Vigna's reference C (prng.di.unimi.it). It
// shares no code, and no Math.imul or >>> trick, with the module under test.
const MASK = (1n << 32n) - 1n
const mul = (a: bigint, b: bigint) => (a * b) & MASK
const rotl = (x: bigint, k: bigint) => ((x << k) | (x >> (32n - k))) & MASK

function referenceSequence(seed32: number, count: number): number[] {
  let state = BigInt(seed32)
  const splitmix = () => {
    state = (state + 0x9e3779b9n) & MASK
    let z = state
    z = mul(z ^ (z >> 16n), 0x21f0aaadn)
    z = mul(z ^ (z >> 15n), 0x735a2d97n)
    return z ^ (z >> 15n)
  }
  const s = [splitmix(), splitmix(), splitmix(), splitmix()] as [bigint, bigint, bigint, bigint]
  const out: number[] = []
  for (let i = 0; i < count; i++) {
    out.push(Number(mul(rotl(mul(s[1], 5n), 7n), 9n)) / 2 ** 32)
    const t = (s[1] << 9n) & MASK
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 11n)
  }
  return out
}

function take(random: () => number, count: number): number[] {
  return Array.from({ length: count }, () => random())
}

describe('hashString', () => {
  test('is FNV-1a over UTF-8, as in the published FNV test vectors', () => {
    // Noll's FNV test suite: FNV-1a 32 of "" is the offset basis, of "a" 0xe40c292c, of "foobar" 0xbf9cf968.
    expect(hashString('')).toBe(0x811c9dc5)
    expect(hashString('a')).toBe(0xe40c292c)
    expect(hashString('foobar')).toBe(0xbf9cf968)
  })

  test('hashes the UTF-8 bytes, not UTF-16 code units', () => {
    // "é" is the two bytes c3 a9 in UTF-8; FNV-1a by hand: ((basis ^ 0xc3)·p ^ 0xa9)·p mod 2³².
    const p = 0x01000193n
    const byHand = Number((((((0x811c9dc5n ^ 0xc3n) * p) & MASK) ^ 0xa9n) * p) & MASK)
    expect(hashString('é')).toBe(byHand)
  })
})

describe('createRandom', () => {
  test('matches an independent BigInt implementation of splitmix32 + xoshiro128**', () => {
    for (const seed of [0, 1, 42, 0xffffffff, 123456789]) {
      expect(take(createRandom(seed), 1000)).toEqual(referenceSequence(seed, 1000))
    }
  })

  test('a string seed is its FNV-1a hash', () => {
    expect(take(createRandom('judge-calibration'), 200)).toEqual(referenceSequence(hashString('judge-calibration'), 200))
  })

  test('the same seed repeats the sequence; different seeds do not', () => {
    expect(take(createRandom(7), 50)).toEqual(take(createRandom(7), 50))
    expect(take(createRandom(7), 50)).not.toEqual(take(createRandom(8), 50))
    expect(take(createRandom('7'), 50)).not.toEqual(take(createRandom(7), 50))
  })

  test('seeds that differ only above 32 bits, or in their fraction, give different sequences', () => {
    expect(take(createRandom(1), 20)).not.toEqual(take(createRandom(2 ** 32 + 1), 20))
    expect(take(createRandom(1), 20)).not.toEqual(take(createRandom(1.5), 20))
  })

  test('draws lie in [0, 1) and spread evenly over ten bins', () => {
    const random = createRandom('uniformity')
    const bins = new Array<number>(10).fill(0)
    const draws = 100_000
    let outside = 0
    for (let i = 0; i < draws; i++) {
      const x = random()
      if (!(x >= 0 && x < 1)) outside++
      else bins[Math.floor(x * 10)]! += 1
    }
    expect(outside).toBe(0)
    // Pearson's χ² with 9 degrees of freedom; its 0.999 quantile is 27.88.
    const expected = draws / 10
    const chiSquare = bins.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0)
    expect(chiSquare).toBeLessThan(27.88)
  })

  test('refuses a seed that is not a finite number or a string', () => {
    expect(() => createRandom(Number.NaN)).toThrow(StatisticsInputError)
    // One error model: a statistic's refusal is a RubricError with its documented code and fix.
    expect(() => createRandom(Number.NaN)).toThrow(RubricError)
    expect(() => createRandom(Number.NaN)).toThrow(expect.objectContaining({ code: 'STATISTICS_INPUT', hint: expect.stringContaining('docs/statistics.md') }))
    expect(() => createRandom(Number.POSITIVE_INFINITY)).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: a random seed must be a finite number or a string; found Infinity]`,
    )
  })
})

describe('randomIndex', () => {
  test('gives every index in 0 … n − 1 and nothing else', () => {
    const random = createRandom(3)
    const seen = new Set<number>()
    for (let i = 0; i < 2000; i++) seen.add(randomIndex(random, 7))
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5, 6])
  })

  test('is floor(random() · n)', () => {
    const draws = take(createRandom(11), 100)
    const random = createRandom(11)
    expect(draws.map(() => randomIndex(random, 13))).toEqual(draws.map((x) => Math.floor(x * 13)))
  })

  test('refuses n that is not a positive whole number', () => {
    const random = createRandom(1)
    expect(() => randomIndex(random, 0)).toThrow(StatisticsInputError)
    expect(() => randomIndex(random, 2.5)).toThrowErrorMatchingInlineSnapshot(
      `[StatisticsInputError: randomIndex needs a whole number n between 1 and 2^32; found 2.5]`,
    )
  })
})
