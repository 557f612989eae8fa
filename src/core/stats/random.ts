import { StatisticsInputError } from './errors.js'

/** A source of floats uniform in [0, 1). */
export type Random = () => number

const TWO_POW_32 = 2 ** 32

/**
 * FNV-1a (32 bit) of the UTF-8 bytes of `text`, as an unsigned integer.
 *
 * UTF-8 rather than UTF-16 code units so that the hash is the one other FNV-1a implementations
 * publish for the same text.
 */
export function hashString(text: string): number {
  let hash = 0x811c9dc5
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/** Reduces a seed to 32 bits: strings and non-integers by hashing, integers by folding their high bits in. */
function seedBits(seed: number | string): number {
  if (typeof seed === 'string') return hashString(seed)
  if (!Number.isFinite(seed)) {
    throw new StatisticsInputError(`a random seed must be a finite number or a string; found ${String(seed)}`)
  }
  // A fractional seed would otherwise be truncated, so that 1 and 1.5 would give one sequence.
  if (!Number.isInteger(seed)) return hashString(String(seed))
  const low = seed >>> 0
  const high = Math.floor(seed / TWO_POW_32) >>> 0
  return (low ^ Math.imul(high, 0x9e3779b1)) >>> 0
}

/**
 * One step of a 32-bit splitmix: a Weyl sequence (step 0x9e3779b9) through a xor-shift-multiply
 * finaliser (shifts 16/15/15, from Wellons' hash prospector), so that nearby seeds give unrelated
 * generator states.
 */
function splitmix32(state: { value: number }): number {
  state.value = (state.value + 0x9e3779b9) >>> 0
  let z = state.value
  z = Math.imul(z ^ (z >>> 16), 0x21f0aaad)
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97)
  return (z ^ (z >>> 15)) >>> 0
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k))
}

/**
 * A seeded generator of floats in [0, 1): xoshiro128** (Blackman & Vigna), its 128-bit state filled
 * by splitmix32 from the 32-bit seed. Only 32-bit integer arithmetic (`Math.imul`, shifts) is
 * used, so a seed gives the same sequence on every platform and Node version.
 *
 * A string seed is hashed with FNV-1a over its UTF-8 bytes; an integer seed keeps its low 32 bits
 * with its high bits folded in.
 */
export function createRandom(seed: number | string): Random {
  const expand = { value: seedBits(seed) }
  let s0 = splitmix32(expand)
  let s1 = splitmix32(expand)
  let s2 = splitmix32(expand)
  let s3 = splitmix32(expand)
  // The all-zero state is the one fixed point of xoshiro; splitmix32 cannot give four zeros, but be sure.
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1
  return () => {
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0
    const t = s1 << 9
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotl(s3, 11)
    return result / TWO_POW_32
  }
}

/**
 * A uniform index in `0 … n − 1` drawn from `random`. The bias from scaling a 32-bit float is below
 * n / 2³², negligible for the sample sizes of a review.
 */
export function randomIndex(random: Random, n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > TWO_POW_32) {
    throw new StatisticsInputError(`randomIndex needs a whole number n between 1 and 2^32; found ${String(n)}`)
  }
  return Math.floor(random() * n)
}
