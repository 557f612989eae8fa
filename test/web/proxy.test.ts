import { request as httpRequest } from 'node:http'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { parsePublicOrigin } from '../../src/web/public-origin.js'
import { behindNginx, findNginx } from '../helpers/nginx.js'
import { raw, servedCopy, type RawResponse } from '../helpers/served-fixture.js'
import { servedTeam } from '../helpers/served-team.js'

// `serve --public-origin` behind Debian's nginx, configured as docs/review-page.md says, on
// loopback: the checks of a team's server hold through the proxy. Plain HTTP between the test and
// nginx (the TLS lines of the documented configuration are dropped); the Host is the public one.

const PUBLIC = 'review.example.org'
const publicOrigin = parsePublicOrigin(`https://${PUBLIC}`)
const CASE = 'not-reviewed'
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const nginx = findNginx()
if (nginx === undefined)
  console.warn('test/web/proxy.test.ts: nginx is not installed, so the tests through it are skipped: `apt-get install -y nginx` runs them.')

const ROUTES: readonly { readonly method: 'GET' | 'POST'; readonly path: string; readonly body?: string }[] = [
  { method: 'GET', path: '/' },
  { method: 'GET', path: '/assets/page.js' },
  { method: 'GET', path: '/api/overview' },
  { method: 'GET', path: '/api/version' },
  { method: 'GET', path: '/api/events' },
  { method: 'GET', path: `/api/case?fixture=0&id=${CASE}` },
  { method: 'GET', path: '/api/compare?a=0&b=0' },
  { method: 'GET', path: '/api/next?fixture=0' },
  { method: 'POST', path: '/api/release', body: JSON.stringify({ fixture: 0, id: CASE }) },
  { method: 'GET', path: '/api/assignments' },
  { method: 'POST', path: '/api/review', body: save({ reviewer: 'alice' }) },
  { method: 'POST', path: '/api/adjudicate', body: save({ adjudicator: 'dana' }) },
]

function save(extra: Record<string, unknown>, versions: Record<string, string | null> = {}): string {
  const draft = Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: 'Checked.', answer_span: '' }]))
  return JSON.stringify({ fixture: 0, id: CASE, versions, replace: false, draft, ...extra })
}

const errorOf = (answer: RawResponse) => (JSON.parse(answer.body) as { error: { code: string; message: string } }).error

/** A request to nginx, as a browser at the public origin sends it, with `headers` added (or overriding). */
function via(port: number, path: string, token: string | undefined, options: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { host: PUBLIC, ...(token === undefined ? {} : { 'x-rubric-token': token }), ...options.headers }
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  return raw(port, path, { method: options.method ?? 'GET', headers, ...(options.body === undefined ? {} : { body: options.body }) })
}

/** The first bytes of the event stream through nginx: they arrive while the stream stays open, unbuffered. */
function firstEvent(port: number, token: string): Promise<{ status: number; type: string | undefined; text: string }> {
  return new Promise((done, fail) => {
    const request = httpRequest({ host: '127.0.0.1', port, path: '/api/events', headers: { host: PUBLIC, 'x-rubric-token': token } }, (response) => {
      response.once('data', (chunk: Buffer) => {
        done({ status: response.statusCode ?? 0, type: response.headers['content-type'], text: chunk.toString('utf8') })
        request.destroy()
      })
    })
    request.on('error', fail)
    request.end()
  })
}

describe.skipIf(nginx === undefined)('serve --team --public-origin behind nginx', () => {
  test('every route refuses a missing or wrong personal token and the single token; a person’s own passes', async () => {
    const team = await servedTeam(undefined, { publicOrigin })
    const proxy = await behindNginx(nginx!, team.server.port)
    const wrong = `${team.tokens['alice']!.slice(0, -2)}xx`
    for (const route of ROUTES)
      for (const [what, token] of [
        ['no token', undefined],
        ['a wrong token', wrong],
        ['the single token', team.server.token],
      ] as const) {
        const answer = await via(proxy.port, route.path, token, { method: route.method, ...(route.body === undefined ? {} : { body: route.body }) })
        expect({ route: route.path, what, status: answer.status, code: errorOf(answer).code }).toEqual({
          route: route.path,
          what,
          status: 403,
          code: 'BAD_TOKEN',
        })
      }
    // A reader is handed no case; a reviewer is, through the proxy as directly.
    for (const route of ROUTES.filter((each) => each.method === 'GET' && each.path !== '/api/events' && !each.path.startsWith('/api/next')))
      expect({ route: route.path, status: (await via(proxy.port, route.path, team.tokens['rita'])).status }).toEqual({ route: route.path, status: 200 })
    expect((await via(proxy.port, '/api/next?fixture=0', team.tokens['alice'])).status).toBe(200)
    // The links name the public origin.
    expect(team.server.url).toBe(`https://${PUBLIC}/?token=${team.server.token}`)
    // The documented configuration keeps the tokens in the query strings out of nginx's logs.
    const logged = await readFile(join(proxy.dir, 'logs/access.log'), 'utf8').catch(() => '')
    expect(await via(proxy.port, `/api/version?token=${team.tokens['rita']}`, undefined).then((answer) => answer.status)).toBe(200)
    expect(logged + (await readFile(join(proxy.dir, 'logs/access.log'), 'utf8').catch(() => ''))).not.toContain(team.tokens['rita'])
  })

  test('two people cannot act as each other through the proxy', async () => {
    const team = await servedTeam(undefined, { publicOrigin })
    const proxy = await behindNginx(nginx!, team.server.port)
    const alice = team.tokens['alice']!
    const versions = JSON.parse((await via(proxy.port, `/api/case?fixture=0&id=${CASE}`, alice)).body).versions
    const asBob = await via(proxy.port, '/api/review', alice, { method: 'POST', body: save({ reviewer: 'bob' }, versions) })
    expect({ status: asBob.status, code: errorOf(asBob).code }).toEqual({ status: 403, code: 'IDENTITY_MISMATCH' })
    const adopting = await via(proxy.port, '/api/adjudicate', alice, { method: 'POST', body: save({ adjudicator: 'dana' }, versions) })
    expect({ status: adopting.status, code: errorOf(adopting).code }).toEqual({ status: 403, code: 'ROLE_NOT_PERMITTED' })
    const asAlice = await via(proxy.port, '/api/adjudicate', team.tokens['dana'], { method: 'POST', body: save({ adjudicator: 'alice' }, versions) })
    expect({ status: asAlice.status, code: errorOf(asAlice).code }).toEqual({ status: 403, code: 'IDENTITY_MISMATCH' })
    await expect(readdir(join(team.dir, 'reviews'))).rejects.toThrow('ENOENT')
    // A save naming no one is the link's person's.
    const own = await via(proxy.port, '/api/review', alice, { method: 'POST', body: save({}, versions), headers: { origin: `https://${PUBLIC}` } })
    expect(own.status).toBe(200)
    expect(await readdir(join(team.dir, 'reviews'))).toEqual(['alice.json'])
  })

  test('the Host and Origin checks hold through the proxy, and the loopback address is refused', async () => {
    const team = await servedTeam(undefined, { publicOrigin })
    const proxy = await behindNginx(nginx!, team.server.port)
    const bob = team.tokens['bob']!
    for (const host of ['evil.example', `127.0.0.1:${team.server.port}`, 'localhost', `${PUBLIC}.evil.example`]) {
      const answer = await via(proxy.port, '/api/version', bob, { headers: { host } })
      expect({ host, status: answer.status, code: errorOf(answer).code }).toEqual({ host, status: 421, code: 'BAD_HOST' })
    }
    // Straight to serve, past the proxy, at its own address: refused as well.
    const direct = await raw(team.server.port, '/api/version', { headers: { 'x-rubric-token': bob } })
    expect({ status: direct.status, code: errorOf(direct).code }).toEqual({ status: 421, code: 'BAD_HOST' })
    for (const origin of ['https://evil.example', `http://${PUBLIC}`, `https://${PUBLIC}:8443`, `http://127.0.0.1:${team.server.port}`, 'null']) {
      const answer = await via(proxy.port, '/api/review', bob, { method: 'POST', body: save({}), headers: { origin } })
      expect({ origin, status: answer.status, code: errorOf(answer).code }).toEqual({ origin, status: 403, code: 'BAD_ORIGIN' })
    }
    expect((await via(proxy.port, '/api/version', bob, { headers: { origin: `https://${PUBLIC}` } })).status).toBe(200)
    // The event stream is passed on while it stays open, its first bytes as serve writes them.
    expect(await firstEvent(proxy.port, bob)).toEqual({ status: 200, type: 'text/event-stream; charset=utf-8', text: 'retry: 1000\n\n' })
  })

  test('a burst from one token is limited (429 with Retry-After); another person is not', async () => {
    const team = await servedTeam(undefined, { publicOrigin, rateLimit: { perSecond: 1, burst: 10 } })
    const proxy = await behindNginx(nginx!, team.server.port)
    const answers: RawResponse[] = []
    for (let sent = 0; sent < 40; sent++) answers.push(await via(proxy.port, '/api/version', team.tokens['alice']))
    // The first ten are the burst; a bucket only fills, so they always pass.
    expect(answers.slice(0, 10).map((answer) => answer.status)).toEqual(Array(10).fill(200))
    const limited = answers.find((answer) => answer.status === 429)
    expect(limited).toBeDefined()
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(errorOf(limited!)).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^too many requests with this link: at most 1 a second \(bursts of 10\); retry in \d+ s\./),
    })
    expect((await via(proxy.port, '/api/version', team.tokens['bob'])).status).toBe(200)
  })
})

describe('the rate limit without a proxy', () => {
  test('applies to the single token too, and refused tokens do not spend it', async () => {
    const { server } = await servedCopy({ rateLimit: { perSecond: 1, burst: 5 } })
    const wrong = { 'x-rubric-token': 'wrong' }
    for (let sent = 0; sent < 10; sent++) expect((await raw(server.port, '/api/version', { headers: wrong })).status).toBe(403)
    const statuses: number[] = []
    for (let sent = 0; sent < 30; sent++) statuses.push((await raw(server.port, '/api/version', { headers: { 'x-rubric-token': server.token } })).status)
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200])
    expect(statuses).toContain(429)
  })
})
