import { describe, expect, test } from 'vitest'
import { parseRateLimit, TokenBuckets } from '../../src/web/rate-limit.js'

// The rate limiter on a clock the test moves: no time passes unless the test says so.

function clocked(perSecond: number, burst: number) {
  const clock = { now: 0 }
  return { clock, buckets: new TokenBuckets({ perSecond, burst }, () => clock.now) }
}

describe('TokenBuckets', () => {
  test('a burst passes, the next request is refused with the seconds until one is allowed', () => {
    const { buckets } = clocked(2, 3)
    expect([buckets.take('a'), buckets.take('a'), buckets.take('a')]).toEqual([{ ok: true }, { ok: true }, { ok: true }])
    expect(buckets.take('a')).toEqual({ ok: false, retryAfter: 1 })
  })

  test('the bucket fills at the rate, up to the burst and no further', () => {
    const { clock, buckets } = clocked(2, 3)
    for (let i = 0; i < 3; i++) buckets.take('a')
    clock.now += 500
    expect(buckets.take('a')).toEqual({ ok: true })
    expect(buckets.take('a').ok).toBe(false)
    clock.now += 60_000
    const after = Array.from({ length: 4 }, () => buckets.take('a').ok)
    expect(after).toEqual([true, true, true, false])
  })

  test('each token has its own bucket', () => {
    const { buckets } = clocked(1, 1)
    expect(buckets.take('alice').ok).toBe(true)
    expect(buckets.take('alice').ok).toBe(false)
    expect(buckets.take('bob').ok).toBe(true)
  })

  test('Retry-After rounds up to whole seconds at a slow rate', () => {
    const { buckets } = clocked(0.25, 1)
    buckets.take('a')
    expect(buckets.take('a')).toEqual({ ok: false, retryAfter: 4 })
  })
})

describe('--rate-limit', () => {
  test('takes requests a second, in bursts of ten seconds’ worth', () => {
    expect(parseRateLimit('5')).toEqual({ perSecond: 5, burst: 50 })
  })

  test.each(['0', '-1', '1.5', 'fast', '', '1e9', '1e3', '0x10', ' 5', 'Infinity', 'NaN', '100001'])('refuses %j', (text) => {
    expect(() => parseRateLimit(text)).toThrow(
      `--rate-limit takes a whole number of requests a second per link, from 1 to 100000 (default 50), not ${JSON.stringify(text)}.`,
    )
  })
})
