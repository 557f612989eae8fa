import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ErrorAnswer } from './protocol.js'

// A token bucket per token: each token may send `perSecond` requests a second on average, and up
// to `burst` at once after a pause. The page itself sends a handful of requests on a load and one
// or two per case opened or saved, so the defaults are far above what any reviewer's page needs:
// they limit a script or a stolen link, not a person.

export interface RateLimit {
  /** Requests a second each token may send, on average. */
  readonly perSecond: number
  /** Requests a token may send at once, after a pause. */
  readonly burst: number
}

/** The default: 50 requests a second, bursts of 500 (a script driving the page through a browser stays below it too). */
export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 50, burst: 500 }

/** What {@link TokenBuckets.take} decided: let the request through, or refuse it for `retryAfter` seconds. */
export type Admission = { readonly ok: true } | { readonly ok: false; readonly retryAfter: number }

/** One bucket per key (a token), each filled at `perSecond` up to `burst`. `now` is in milliseconds. */
export class TokenBuckets {
  readonly #limit: RateLimit
  readonly #now: () => number
  readonly #buckets = new Map<string, { tokens: number; at: number }>()

  constructor(limit: RateLimit, now: () => number = () => performance.now()) {
    if (!(limit.perSecond > 0) || !(limit.burst >= 1))
      throw new Error(`a rate limit needs a positive rate and a burst of at least 1, not ${JSON.stringify(limit)}.`)
    this.#limit = limit
    this.#now = now
  }

  /** Takes one request from `key`'s bucket, if it holds one. */
  take(key: string): Admission {
    const now = this.#now()
    const bucket = this.#buckets.get(key) ?? { tokens: this.#limit.burst, at: now }
    bucket.tokens = Math.min(this.#limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.#limit.perSecond)
    bucket.at = now
    this.#buckets.set(key, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return { ok: true }
    }
    return { ok: false, retryAfter: Math.max(1, Math.ceil((1 - bucket.tokens) / this.#limit.perSecond)) }
  }
}

/**
 * Takes one request from the token's bucket; when it is empty, answers `429` with `Retry-After`
 * and returns `false`. The keys are the tokens the server accepted (never a refused one), so the
 * buckets are as many as the people served.
 */
export function admit(buckets: TokenBuckets, limit: RateLimit, token: string, request: IncomingMessage, response: ServerResponse): boolean {
  const admission = buckets.take(token)
  if (admission.ok) return true
  request.resume()
  const answer: ErrorAnswer = {
    error: {
      code: 'RATE_LIMITED',
      message: `too many requests with this link: at most ${limit.perSecond} a second (bursts of ${limit.burst}); retry in ${admission.retryAfter} s. A script must pace its requests; serve --rate-limit raises the limit.`,
    },
  }
  response
    .writeHead(429, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'retry-after': String(admission.retryAfter),
    })
    .end(JSON.stringify(answer))
  return false
}

/** The highest `--rate-limit`: requests a second per token. */
export const MAX_RATE_LIMIT = 100_000

/** Reads `--rate-limit <n>`, in decimal digits: `n` requests a second per token, in bursts of ten seconds' worth. */
export function parseRateLimit(text: string): RateLimit {
  const perSecond = /^[0-9]{1,16}$/.test(text) ? Number(text) : Number.NaN
  if (!(perSecond >= 1 && perSecond <= MAX_RATE_LIMIT))
    throw new Error(
      `--rate-limit takes a whole number of requests a second per link, from 1 to ${MAX_RATE_LIMIT} (default ${DEFAULT_RATE_LIMIT.perSecond}), not ${JSON.stringify(text)}.`,
    )
  return { perSecond, burst: perSecond * 10 }
}
