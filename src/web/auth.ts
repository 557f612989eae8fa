import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

// How a request proves it comes from the page's user: the token (in the URL serve printed, or the
// header the page sends), or the cookie a one-time link set. The link is what `serve --open` hands
// to the browser launcher, whose command line other local users can read: its code works once and
// for a minute, so reading it afterwards gains nothing, and the token itself never leaves the
// process except on serve's own output.

/** How long a one-time link stays valid, in milliseconds. */
const CODE_LIFETIME = 60_000

/** Single-use codes, each exchanged once for the token cookie. */
export class OpenCodes {
  readonly #expiries = new Map<string, number>()

  issue(): string {
    const code = randomBytes(24).toString('base64url')
    this.#expiries.set(code, Date.now() + CODE_LIFETIME)
    return code
  }

  /** Whether `code` was issued and is still unused and unexpired; it cannot be redeemed again either way. */
  redeem(code: string): boolean {
    const expiry = this.#expiries.get(code)
    this.#expiries.delete(code)
    return expiry !== undefined && Date.now() <= expiry
  }
}

/** The cookie's name: a browser keeps cookies per host, not per port, so two servers' cookies must not collide. */
function cookieName(port: number): string {
  return `vitest-rubric-${port}`
}

/** The `Set-Cookie` value: unreadable by scripts, never sent from another site, for this server's paths. */
export function tokenCookie(port: number, token: string): string {
  return `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`
}

export function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * Whether the request carries the token: in the query or the header, or else in the cookie. A
 * cookie is sent by the browser on its own, so a request that has only the cookie must also come
 * from the page itself (or be typed in the address bar), never from another page.
 */
export function isAuthorized(request: IncomingMessage, query: URLSearchParams, port: number, token: string): boolean {
  return givenTokens(request, query, port).some((given) => sameToken(given, token))
}

/**
 * The tokens the request carries, as {@link isAuthorized} reads them: the one in the query or the
 * header alone when there is one, else each cookie of this server's name (none from another site).
 */
export function givenTokens(request: IncomingMessage, query: URLSearchParams, port: number): readonly string[] {
  const given = query.get('token') ?? request.headers['x-rubric-token']
  if (given !== undefined) return typeof given === 'string' ? [given] : []
  const fetchSite = request.headers['sec-fetch-site']
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') return []
  const prefix = `${cookieName(port)}=`
  return (request.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((cookie) => cookie.startsWith(prefix))
    .map((cookie) => cookie.slice(prefix.length))
}
