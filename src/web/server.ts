import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { resolve } from 'node:path'
import { z } from 'zod'
import { RubricError, type RubricErrorCode } from '../core/common/errors.js'
import { adjudicateCase } from '../core/engine/adjudicate.js'
import { recordReview } from '../core/engine/authoring/review.js'
import type { DraftSource } from '../core/engine/authoring/draft.js'
import type { KindRegistry } from '../core/engine/registry.js'
import { kinds as shippedKinds } from '../core/registry.js'
import type { PanelPolicy } from '../core/engine/panel-rule.js'
import { givenTokens, isAuthorized, OpenCodes, tokenCookie } from './auth.js'
import { ASSET_FILES, readAsset, servedPage, type AssetName } from './html.js'
import { refusalFor } from './blind.js'
import { listen } from './listen.js'
import { readBody, RequestError, requestUrl } from './request.js'
import { HTTP_STATUS } from './status.js'
import { LoadedFixtures, type LoadedEntry, type OverviewView } from './loaded-fixtures.js'
import { pageFixture, savedCaseFigures, servedCase, type Viewer } from './page-data.js'
import { viewerOf } from './viewer.js'
import { pageComparison } from './compare-data.js'
import { saveIdentity, viewerOf as personViewer, type Person } from './team.js'
import type { TeamTokens } from './team-tokens.js'
import { openSaveTrail, recordedSave } from './save-trail.js'
import type { PublicOrigin } from './public-origin.js'
import { admit, DEFAULT_RATE_LIMIT, TokenBuckets, type RateLimit } from './rate-limit.js'
import { Assignments, DEFAULT_RESERVE_MINUTES, DEFAULT_REVIEWS_PER_CASE } from './assignment.js'
import { assignmentProgress, nextCase, releaseCase, savedCase, type AssignmentContext } from './assignment-routes.js'
import { keepReservations } from './reservation-file.js'
import { firstLine, headers, isLoopback, json, send } from './respond.js'
import type { ChangedEvent, ErrorAnswer, RefusedFixture, SaveAnswer, SaveRequest, VersionAnswer } from './protocol.js'

export interface ServeOptions {
  /** The fixture directories served: the only files a request can read or write. */
  readonly dirs: readonly string[]
  readonly cwd: string
  /** @default '127.0.0.1' */
  readonly host?: string
  /** `0` picks a free port. @default 5178 */
  readonly port?: number
  /**
   * Refuse to start when `port` is in use, rather than take the next free port above it (as Vite
   * does). The CLI sets it when `--port` was given.
   * @default false
   */
  readonly strictPort?: boolean
  /** The token every request must carry; a random one unless given. */
  readonly token?: string
  readonly panel?: PanelPolicy
  /** The largest request body accepted, in bytes. @default 1 MiB */
  readonly maxBody?: number
  /** The kinds the served directories may hold. @default the shipped kinds */
  readonly kinds?: KindRegistry
  /**
   * Team mode: each request must carry a person's token (`token` is refused), and the person it
   * names is who views and who saves, whatever the request says.
   */
  readonly team?: TeamTokens
  /** Each save a git commit by its person (refused at start outside a git work tree); else a line of `.vitest-rubric/audit/`. @default false */
  readonly commit?: boolean
  /**
   * Served through a reverse proxy at this origin: the server (still on loopback, `host` must be
   * one) accepts this Host and Origin and no other, its own loopback address included, and its
   * links name it.
   */
  readonly publicOrigin?: PublicOrigin
  /** Each token's rate limit (the single token's, or each person's). @default 50 a second, bursts of 500 */
  readonly rateLimit?: RateLimit
  /** The judge of the overview's estimate and the comparison view's judge-assisted figures. @default a fixture's only judge, or the first by name; no judge-assisted comparison */
  readonly judge?: string
  /** Team mode: how cases are handed out to reviewers (`GET /api/next`). @default 2 reviews a case (or `panel.minReviews`), reserved for 30 minutes */
  readonly assign?: { readonly reviewsPerCase?: number; readonly reserveMs?: number; readonly now?: () => number }
}

export interface RunningServer {
  readonly url: string
  readonly token: string
  readonly port: number
  /**
   * A one-time link to the page, without the token: its code is exchanged, once and within a
   * minute, for a cookie holding the token. For a browser launcher, whose command line other
   * local users can read.
   */
  openUrl(): string
  close(): Promise<void>
}

const SaveBody = z.strictObject({
  fixture: z.int().min(0),
  id: z.string().min(1),
  draft: z.record(z.string(), z.unknown()),
  versions: z.record(z.string(), z.string().nullable()),
  replace: z.boolean(),
  reviewer: z.string().optional(),
  adjudicator: z.string().optional(),
  estimate: z.boolean().optional(),
})
/** The body the server reads is the one the protocol says the page sends: each is assignable to the other, or the build fails. */
const saveBodyIsTheProtocols: SameType<z.infer<typeof SaveBody>, SaveRequest> = true
void saveBodyIsTheProtocols
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

const pageSource: DraftSource = { label: 'the review page', locate: (path) => `the review page's ${path.map(String).join(' › ') || 'review'}` }

/**
 * Serves the review page on loopback. Every request must carry the token (in the query or the
 * `x-rubric-token` header, or the cookie a one-time link sets) and a `Host` naming the server itself (against DNS rebinding); there is
 * no CORS. Requests name a fixture by its position and a case by its id, never a path; bodies are
 * size-limited and checked with the schemas of the files, and every write goes through the same
 * compare-and-swap path as the CLI, after checking that the files the page read are unchanged.
 * Each fixture is kept loaded until one of its files changes, and every open page is told of a
 * change over `/api/events` (which fixture, nothing of what changed).
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const token = options.token ?? randomBytes(24).toString('base64url')
  const maxBody = options.maxBody ?? 1024 * 1024
  const dirs = options.dirs.map((dir) => resolve(options.cwd, dir))
  const evaluate = options.panel === undefined ? {} : { panel: options.panel }
  const kinds = options.kinds ?? shippedKinds
  const judged = options.judge === undefined ? undefined : { required: options.judge }
  let allowedHosts: Set<string> = new Set()
  let port = 0
  const codes = new OpenCodes()
  const trail = await openSaveTrail(options.commit === true, dirs, options.dirs, options.cwd)
  if (options.publicOrigin !== undefined && !isLoopback(host))
    throw new Error(`serve behind a reverse proxy listens on loopback only, not on ${host}: the proxy reaches it at 127.0.0.1.`)
  let allowedOrigins: Set<string> = new Set()
  const limit = options.rateLimit ?? DEFAULT_RATE_LIMIT
  const buckets = new TokenBuckets(limit)
  const assignments = options.team === undefined ? undefined : new Assignments(assignOptions(options))
  const kept = options.team === undefined || assignments === undefined ? undefined : await keepReservations(options.team, assignments, dirs)

  // The open change streams: each hears "fixture N changed", and nothing of what changed.
  const streams = new Set<ServerResponse>()
  const fixtures = new LoadedFixtures({
    kinds,
    dirs,
    cwd: options.cwd,
    evaluate,
    onChange: (index) => {
      const event: ChangedEvent = { fixture: index }
      for (const stream of streams) stream.write(`event: changed\ndata: ${JSON.stringify(event)}\n\n`)
    },
  })

  const loaded = async (index: number): Promise<Extract<LoadedEntry, { fixture: unknown }>> => {
    if (dirs[index] === undefined) throw new RequestError('NOT_FOUND', `there is no fixture ${index}: the page serves ${dirs.length}.`)
    const entry = await fixtures.current(index)
    if (entry.error !== undefined) throw entry.error
    return entry
  }

  // A reader's and an adjudicator's overviews are the same; a blind reviewer's is their own.
  const viewOf = async (entry: Extract<LoadedEntry, { fixture: unknown }>, index: number, viewer: Viewer): Promise<OverviewView> => {
    const key = viewer.role === 'reviewer' ? `reviewer:${viewer.name}` : 'all'
    const kept = entry.views.get(key)
    if (kept !== undefined) return kept
    const page = await pageFixture(entry.fixture, index, evaluate, viewer, entry.decided, judged)
    const view = { page, json: Buffer.from(JSON.stringify(page)) }
    if (entry.views.size >= 16) entry.views.clear()
    entry.views.set(key, view)
    return view
  }

  // A blind reviewer's figures are counted over what they may see: their overview's.
  const reviewerFigures = async (entry: Extract<LoadedEntry, { fixture: unknown }>, index: number, viewer: Viewer, caseId: string) => {
    const { page } = await viewOf(entry, index, viewer)
    return { ...page, row: page.cases.find((each) => each.id === caseId) ?? null }
  }

  const overview = async (viewer: Viewer): Promise<Buffer[]> => {
    const parts = await Promise.all(
      dirs.map(async (_dir, index) => {
        try {
          return (await viewOf(await loaded(index), index, viewer)).json
        } catch (error) {
          if (error instanceof RubricError)
            return Buffer.from(JSON.stringify({ index, dir: options.dirs[index]!, refused: refusalFor(error, viewer), version: null } satisfies RefusedFixture))
          throw error
        }
      }),
    )
    return [Buffer.from('{"fixtures":['), ...parts.flatMap((part, at) => (at === 0 ? [part] : [Buffer.from(','), part])), Buffer.from(']}')]
  }

  const handle = async (request: IncomingMessage, response: ServerResponse, seen: { viewer: Viewer }): Promise<void> => {
    const url = requestUrl(request.url)
    if (!allowedHosts.has((request.headers.host ?? '').toLowerCase())) throw new RequestError('BAD_HOST', 'the Host header does not name this server.')
    if (request.method === 'GET' && url.pathname === '/open') {
      // A one-time link sets the single token's cookie: with a team, every link is a person's own.
      if (options.team !== undefined || !codes.redeem(url.searchParams.get('code') ?? ''))
        throw new RequestError('BAD_CODE', 'this link was used already or has expired: open the URL vitest-rubric serve printed.')
      response
        .writeHead(303, {
          ...headers('text/plain; charset=utf-8'),
          location: '/',
          'set-cookie': `${tokenCookie(port, token)}${options.publicOrigin === undefined ? '' : '; Secure'}`,
        })
        .end('The review page is at /.')
      return
    }
    const person = options.team === undefined ? undefined : await personOf(options.team, request, url, port)
    if (person === undefined ? options.team !== undefined || !isAuthorized(request, url.searchParams, port, token) : false)
      throw new RequestError('BAD_TOKEN', 'a valid token is required: open the URL vitest-rubric serve printed.')
    if (person !== undefined) seen.viewer = personViewer(person.person)
    const origin = request.headers.origin
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase())) throw new RequestError('BAD_ORIGIN', 'requests from another origin are refused.')
    if (!admit(buckets, limit, person?.token ?? token, request, response)) return

    if (request.method === 'GET' && url.pathname === '/')
      return send(response, 200, 'text/html; charset=utf-8', servedPage(person?.token ?? token, person?.person))
    if (request.method === 'GET' && url.pathname.startsWith('/assets/')) {
      const name = url.pathname.slice('/assets/'.length)
      if (!isAssetName(name)) throw new RequestError('NOT_FOUND', 'no such file.')
      return send(response, 200, ASSET_FILES[name].type, await readAsset(name))
    }
    if (person === undefined && request.method === 'GET' && ['/api/overview', '/api/case', '/api/next'].includes(url.pathname))
      seen.viewer = viewerOf(url.searchParams.get('viewer'))
    if (request.method === 'GET' && url.pathname === '/api/overview') {
      // Written piece by piece: each fixture's overview as kept, never joined into one copy.
      const pieces = await overview(seen.viewer)
      response.writeHead(200, headers('application/json; charset=utf-8'))
      for (const piece of pieces) response.write(piece)
      return void response.end()
    }
    if (request.method === 'GET' && url.pathname === '/api/version') {
      const versions = await Promise.all(
        dirs.map(async (_dir, index) =>
          fixtures.current(index).then(
            (entry) => entry.version,
            () => null,
          ),
        ),
      )
      return json(response, 200, { versions } satisfies VersionAnswer)
    }
    if (request.method === 'GET' && url.pathname === '/api/events') {
      response.writeHead(200, headers('text/event-stream; charset=utf-8'))
      response.write('retry: 1000\n\n')
      streams.add(response)
      response.on('close', () => streams.delete(response))
      return
    }
    if (request.method === 'GET' && url.pathname === '/api/case') {
      const index = Number(url.searchParams.get('fixture'))
      if (!Number.isInteger(index) || index < 0) throw new RequestError('BAD_REQUEST', 'fixture must be a fixture number.')
      const entry = await loaded(index)
      return json(response, 200, await servedCase(entry.fixture, index, url.searchParams.get('id') ?? '', seen.viewer, evaluate, entry.decided))
    }
    const assigning: AssignmentContext = {
      assignments,
      kept,
      person: person?.person,
      panel: options.panel ?? { minReviews: 0 },
      cwd: options.cwd,
      loaded: async (at) => (await loaded(at)).fixture,
      queue: { viewer: seen.viewer, panel: options.panel, cwd: options.cwd, loaded },
    }
    if (request.method === 'GET' && url.pathname === '/api/next') return json(response, 200, await nextCase(assigning, url))
    if (request.method === 'POST' && url.pathname === '/api/release') return json(response, 200, await releaseCase(assigning, request))
    if (request.method === 'GET' && url.pathname === '/api/assignments')
      return json(response, 200, await assignmentProgress(assigning, options.team?.people ?? [], dirs.length))
    if (request.method === 'GET' && url.pathname === '/api/compare') {
      // Read-only: two served fixtures by number, compared as `vitest-rubric compare` compares them.
      const [a, b] = (['a', 'b'] as const).map((name) => Number(url.searchParams.get(name)))
      if (!Number.isInteger(a) || !Number.isInteger(b) || a! < 0 || b! < 0) throw new RequestError('BAD_REQUEST', 'a and b must be fixture numbers.')
      // A blind reviewer of a team compares the fixtures as their own overviews show them.
      const reader: Viewer = person === undefined ? { role: 'reader' } : seen.viewer
      const [entryA, entryB] = [await loaded(a!), await loaded(b!)]
      const overviews = { a: (await viewOf(entryA, a!, reader)).page, b: (await viewOf(entryB, b!, reader)).page }
      const judge = reader.role === 'reviewer' ? undefined : options.judge
      return json(response, 200, await pageComparison({ a: options.dirs[a!]!, b: options.dirs[b!]! }, overviews, { cwd: options.cwd, ...evaluate }, judge))
    }
    if (request.method === 'POST' && (url.pathname === '/api/review' || url.pathname === '/api/adjudicate')) {
      const body = SaveBody.safeParse(await readBody(request, maxBody))
      if (!body.success)
        throw new RequestError(
          'BAD_REQUEST',
          `the request body is not a save: ${body.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ')}`,
        )
      const save =
        person === undefined
          ? body.data
          : { ...body.data, reviewer: undefined, adjudicator: undefined, ...saveIdentity(person.person, url.pathname, body.data) }
      if (save.reviewer !== undefined) seen.viewer = { role: 'reviewer', name: save.reviewer }
      const dir = dirs[save.fixture]
      if (dir === undefined) throw new RequestError('NOT_FOUND', `there is no fixture ${save.fixture}.`)
      if (Object.keys(save.draft).length === 0)
        throw new RequestError('EMPTY_DRAFT', 'the draft judges no criterion: there is nothing to save. Rate at least one criterion.')
      // The versions are checked under the fixture's lock, against the files as they are then; what the server parsed
      // of the files already is not parsed again, only the files the save changes.
      const kept = await loaded(save.fixture).catch(() => undefined)
      const memo = kept?.error === undefined ? kept?.parsed : undefined
      const common = { caseId: save.id, cwd: options.cwd, expected: save.versions, kinds, ...(memo === undefined ? {} : { memo }) }
      // Each save is recorded (a commit, or a line of the audit log) under the fixture's lock, or undone.
      const base = { dir, fixture: options.dirs[save.fixture]!, caseId: save.id, role: person?.person.role, email: person?.person.email }
      const { decision } = await recordedSave(trail, base, options.cwd, async (io) => {
        if (url.pathname === '/api/adjudicate') {
          const result = await adjudicateCase(dir, { ...common, io, adjudicator: save.adjudicator ?? 'page', written: save.draft }, pageSource)
          return { action: 'adjudicate', person: save.adjudicator, change: 'adopted', decision: result.adopted[0]?.decision ?? 'adopted' }
        }
        const reviewer = save.reviewer === undefined ? {} : { reviewer: save.reviewer }
        const recorded = await recordReview(dir, save.draft, pageSource, { ...common, io, replace: save.replace, ...reviewer })
        return { action: 'review', person: save.reviewer, change: recorded.before === null ? 'new' : 'replaced', decision: recorded.decision }
      })
      await savedCase(assigning, save.fixture, save.id)
      const viewer: Viewer =
        url.pathname === '/api/adjudicate'
          ? { role: 'adjudicator', name: save.adjudicator }
          : save.reviewer === undefined
            ? { role: 'reader' }
            : { role: 'reviewer', name: save.reviewer }
      // The answer is the case and its fixture's figures, not the whole overview: the page updates its one row.
      const entry = await loaded(save.fixture)
      const shown =
        viewer.role === 'reviewer' ? reviewerFigures(entry, save.fixture, viewer, save.id) : savedCaseFigures(entry.fixture, entry.decided, save, judged)
      const { coverage, agreement, calibration, sample, estimate, version, row } = await shown
      return json(response, 200, {
        decision,
        case: await servedCase(entry.fixture, save.fixture, save.id, viewer, evaluate, entry.decided),
        fixture: { index: save.fixture, version, coverage, agreement, calibration, sample, estimate, row },
      } satisfies SaveAnswer)
    }
    throw request.method === 'GET' || request.method === 'POST'
      ? new RequestError('NOT_FOUND', 'no such page.')
      : new RequestError('METHOD_NOT_ALLOWED', `the server answers only GET and POST, not ${request.method ?? 'this method'}.`)
  }

  const server: Server = createServer((request, response) => {
    // Who the request says is viewing, once it says so: a refusal is worded for them.
    const seen: { viewer: Viewer } = { viewer: { role: 'reader' } }
    handle(request, response, seen).catch((error: unknown) => {
      // Drain what is left of a refused body, so the client reads the answer rather than a reset.
      request.resume()
      if (error instanceof RubricError)
        return json(response, HTTP_STATUS[error.code], { error: { code: error.code, message: refusalFor(error, seen.viewer) } } satisfies ErrorAnswer)
      // One line, never a stack: the terminal is the user's, not a debugger's.
      console.error(
        `vitest-rubric serve: ${request.method ?? 'GET'} ${(request.url ?? '').split('?')[0]} failed: ${firstLine(error)}`.replace(
          // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is kept out of the terminal
          /[\u0000-\u001f\u007f]/g,
          '?',
        ),
      )
      return json(response, HTTP_STATUS.INTERNAL, {
        error: { code: 'INTERNAL' satisfies RubricErrorCode, message: 'the server failed; see its terminal.' },
      } satisfies ErrorAnswer)
    })
  })
  await listen(server, host, options.port ?? 5178, options.strictPort ?? false)
  fixtures.watch()
  // Loaded ahead of the first request, so that the page's first overview need not wait for it.
  for (const index of dirs.keys()) fixtures.current(index).catch(() => undefined)
  const address = server.address()
  port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 5178)
  const shownHost = host.includes(':') ? `[${host}]` : host
  allowedHosts = new Set(
    options.publicOrigin !== undefined
      ? [options.publicOrigin.host]
      : [`${shownHost}:${port}`, ...(isLoopback(host) ? [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`] : [])].map((name) => name.toLowerCase()),
  )
  allowedOrigins = new Set(options.publicOrigin !== undefined ? [options.publicOrigin.origin] : [...allowedHosts].map((name) => `http://${name}`))
  const base = options.publicOrigin?.origin ?? `http://${shownHost}:${port}`
  return {
    url: `${base}/?token=${token}`,
    token,
    port,
    openUrl: () => `${base}/open?code=${codes.issue()}`,
    close: () =>
      new Promise<void>((done) => {
        fixtures.close()
        for (const stream of streams) stream.end()
        streams.clear()
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}

function assignOptions(options: ServeOptions): ConstructorParameters<typeof Assignments>[0] {
  const minReviews = options.panel?.minReviews ?? 0
  const reviewsPerCase = options.assign?.reviewsPerCase ?? (minReviews > 0 ? minReviews : DEFAULT_REVIEWS_PER_CASE)
  const reserveMs = options.assign?.reserveMs ?? DEFAULT_RESERVE_MINUTES * 60_000
  return { reviewsPerCase, reserveMs, ...(options.assign?.now === undefined ? {} : { now: options.assign.now }) }
}

/** The person a team member's request comes from, and the token that names them; `undefined` for anyone else. */
async function personOf(team: TeamTokens, request: IncomingMessage, url: URL, port: number): Promise<{ person: Person; token: string } | undefined> {
  for (const token of givenTokens(request, url.searchParams, port)) {
    const person = await team.personOf(token)
    if (person !== undefined) return { person, token }
  }
  return undefined
}

function isAssetName(name: string): name is AssetName {
  return Object.hasOwn(ASSET_FILES, name)
}
