import type { IncomingMessage, ServerResponse } from 'node:http'
import { givenTokens, isAuthorized, OpenCodes, tokenCookie } from './auth.js'
import type { PublicOrigin } from './public-origin.js'
import { admit, TokenBuckets, type RateLimit } from './rate-limit.js'
import { RequestError } from './request.js'
import { headers, isLoopback } from './respond.js'
import { viewerOf, type Person } from './team.js'
import type { TeamTokens } from './team-tokens.js'
import type { Viewer } from './viewer.js'

// Who may ask the server anything, checked before any route runs: a Host naming the server itself
// (against DNS rebinding), the token (or a person's, with a team), an Origin of the server's own,
// and the token's rate limit. `/open`, which exchanges a one-time code for the token's cookie, is
// the one path answered before the token is checked.

/** Who a request that was let in comes from. */
export interface Caller {
  /** With a team, the person the request's token names: who views and who saves, whatever the request says. */
  readonly person: Person | undefined
  /** The token the request carried: the single token, or the person's. */
  readonly token: string
}

export interface AdmissionOptions {
  readonly token: string
  readonly team: TeamTokens | undefined
  readonly publicOrigin: PublicOrigin | undefined
  readonly rateLimit: RateLimit
}

export class Admission {
  readonly #codes = new OpenCodes()
  readonly #buckets: TokenBuckets
  #port = 0
  #hosts: ReadonlySet<string> = new Set()
  #origins: ReadonlySet<string> = new Set()

  constructor(readonly options: AdmissionOptions) {
    this.#buckets = new TokenBuckets(options.rateLimit)
  }

  /** The address the server listens on, once it does: the Hosts and Origins accepted from then on (none before). */
  listening(host: string, port: number): void {
    this.#port = port
    const shownHost = host.includes(':') ? `[${host}]` : host
    const { publicOrigin } = this.options
    this.#hosts = new Set(
      publicOrigin !== undefined
        ? [publicOrigin.host]
        : [`${shownHost}:${port}`, ...(isLoopback(host) ? [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`] : [])].map((name) => name.toLowerCase()),
    )
    this.#origins = new Set(publicOrigin !== undefined ? [publicOrigin.origin] : [...this.#hosts].map((name) => `http://${name}`))
  }

  /** A one-time link's code, exchanged at `/open` for the single token's cookie. */
  issueCode(): string {
    return this.#codes.issue()
  }

  /** Refuses a request whose Host does not name this server. */
  checkHost(request: IncomingMessage): void {
    if (!this.#hosts.has((request.headers.host ?? '').toLowerCase())) throw new RequestError('BAD_HOST', 'the Host header does not name this server.')
  }

  /** `GET /open?code=`: a one-time link sets the single token's cookie. With a team, every link is a person's own, and none works. */
  openLink(url: URL, response: ServerResponse): void {
    if (this.options.team !== undefined || !this.#codes.redeem(url.searchParams.get('code') ?? ''))
      throw new RequestError('BAD_CODE', 'this link was used already or has expired: open the URL vitest-rubric serve printed.')
    response
      .writeHead(303, {
        ...headers('text/plain; charset=utf-8'),
        location: '/',
        'set-cookie': `${tokenCookie(this.#port, this.options.token)}${this.options.publicOrigin === undefined ? '' : '; Secure'}`,
      })
      .end('The review page is at /.')
  }

  /**
   * Who the request comes from, once its token, its Origin and its token's rate limit let it in;
   * `undefined` when the rate limit answered it. A person's request is seen as theirs from the
   * moment their token is known, so that a later refusal is worded for them.
   */
  async admit(request: IncomingMessage, response: ServerResponse, url: URL, seen: { viewer: Viewer }): Promise<Caller | undefined> {
    const { team, token } = this.options
    const person = team === undefined ? undefined : await this.#personOf(team, request, url)
    if (person === undefined ? team !== undefined || !isAuthorized(request, url.searchParams, this.#port, token) : false)
      throw new RequestError('BAD_TOKEN', 'a valid token is required: open the URL vitest-rubric serve printed.')
    if (person !== undefined) seen.viewer = viewerOf(person.person)
    const origin = request.headers.origin
    if (origin !== undefined && !this.#origins.has(origin.toLowerCase())) throw new RequestError('BAD_ORIGIN', 'requests from another origin are refused.')
    const caller: Caller = { person: person?.person, token: person?.token ?? token }
    return admit(this.#buckets, this.options.rateLimit, caller.token, request, response) ? caller : undefined
  }

  /** The person a team member's request comes from, and the token that names them; `undefined` for anyone else. */
  async #personOf(team: TeamTokens, request: IncomingMessage, url: URL): Promise<{ person: Person; token: string } | undefined> {
    for (const token of givenTokens(request, url.searchParams, this.#port)) {
      const person = await team.personOf(token)
      if (person !== undefined) return { person, token }
    }
    return undefined
  }
}
