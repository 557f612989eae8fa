import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { resolve } from 'node:path'
import { RubricError, type RubricErrorCode } from '../core/common/errors.js'
import type { KindRegistry } from '../core/engine/registry.js'
import { kinds as shippedKinds } from '../core/registry.js'
import type { PanelPolicy } from '../core/engine/panel-rule.js'
import { Admission } from './admission.js'
import { refusalFor } from './blind.js'
import { listen } from './listen.js'
import { RequestError, requestUrl } from './request.js'
import { HTTP_STATUS } from './status.js'
import type { TeamTokens } from './team-tokens.js'
import { openSaveTrail } from './save-trail.js'
import type { PublicOrigin } from './public-origin.js'
import { DEFAULT_RATE_LIMIT, type RateLimit } from './rate-limit.js'
import { Assignments, DEFAULT_RESERVE_MINUTES, DEFAULT_REVIEWS_PER_CASE } from './assignment.js'
import { keepReservations } from './reservation-file.js'
import { firstLine, isLoopback, json } from './respond.js'
import type { ErrorAnswer } from './protocol.js'
import { ServedFixtures } from './served-fixtures.js'
import type { Viewer } from './viewer.js'
import type { Route, ServedTeam, ServerSettings } from './routes/route.js'
import { ASSETS_PATH, pageAsset, pageShell } from './routes/page.js'
import { changes, overview, versions } from './routes/overview.js'
import { caseView } from './routes/case.js'
import { comparison } from './routes/compare.js'
import { saveReview } from './routes/review.js'
import { saveAdjudication } from './routes/adjudicate.js'
import { assignmentProgress, nextCase, releaseCase } from './routes/assignment.js'

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

/**
 * The routes a request that was let in may take, by method and path (see routes/route.ts). Each is
 * answered by its own module; `/open` is answered before the token is checked (see `Admission`).
 */
export const ROUTES = {
  'GET /': pageShell,
  'GET /api/overview': overview,
  'GET /api/version': versions,
  'GET /api/events': changes,
  'GET /api/case': caseView,
  'GET /api/compare': comparison,
  'POST /api/review': saveReview,
  'POST /api/adjudicate': saveAdjudication,
  'GET /api/next': nextCase,
  'POST /api/release': releaseCase,
  'GET /api/assignments': assignmentProgress,
} as const satisfies Record<`${'GET' | 'POST'} /${string}`, Route>

const isRouteKey = (key: string): key is keyof typeof ROUTES => Object.hasOwn(ROUTES, key)

/** The route of a method and path: one of {@link ROUTES}, or a page asset under {@link ASSETS_PATH}. */
function routeOf(method: string | undefined, path: string): Route {
  const key = `${method} ${path}`
  if (isRouteKey(key)) return ROUTES[key]
  if (method === 'GET' && path.startsWith(ASSETS_PATH)) return pageAsset
  throw method === 'GET' || method === 'POST'
    ? new RequestError('NOT_FOUND', 'no such page.')
    : new RequestError('METHOD_NOT_ALLOWED', `the server answers only GET and POST, not ${method ?? 'this method'}.`)
}

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
  const dirs = options.dirs.map((dir) => resolve(options.cwd, dir))
  const evaluate = options.panel === undefined ? {} : { panel: options.panel }
  const kinds = options.kinds ?? shippedKinds
  const trail = await openSaveTrail(options.commit === true, dirs, options.dirs, options.cwd)
  // The page writes reviews: it listens on this machine only, and other machines reach it through a reverse proxy.
  if (!isLoopback(host))
    throw new Error(`serve listens on a loopback address only (127.0.0.1, ::1 or localhost), not on ${host}: other machines reach it through a reverse proxy.`)
  const admission = new Admission({ token, team: options.team, publicOrigin: options.publicOrigin, rateLimit: options.rateLimit ?? DEFAULT_RATE_LIMIT })
  const server: ServerSettings = {
    cwd: options.cwd,
    evaluate,
    kinds,
    panel: options.panel,
    maxBody: options.maxBody ?? 1024 * 1024,
    trail,
    team: options.team === undefined ? undefined : await servedTeam(options, options.team, dirs),
    judge: options.judge,
  }
  const fixtures = new ServedFixtures({ kinds, dirs, named: options.dirs, cwd: options.cwd, evaluate, judge: options.judge })

  const handle = async (request: IncomingMessage, response: ServerResponse, seen: { viewer: Viewer }): Promise<void> => {
    const url = requestUrl(request.url)
    admission.checkHost(request)
    if (request.method === 'GET' && url.pathname === '/open') return admission.openLink(url, response)
    const caller = await admission.admit(request, response, url, seen)
    if (caller === undefined) return
    await routeOf(request.method, url.pathname)({ request, response, url, caller, seen, fixtures, server })
  }

  const listener: Server = createServer((request, response) => {
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
  await listen(listener, host, options.port ?? 5178, options.strictPort ?? false)
  fixtures.watch()
  const address = listener.address()
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 5178)
  admission.listening(host, port)
  const base = options.publicOrigin?.origin ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  return {
    url: `${base}/?token=${token}`,
    token,
    port,
    openUrl: () => `${base}/open?code=${admission.issueCode()}`,
    close: () =>
      new Promise<void>((done) => {
        fixtures.close()
        listener.closeAllConnections()
        listener.close(() => done())
      }),
  }
}

/** A team's assignments, and the file their reservations are kept in. */
async function servedTeam(options: ServeOptions, team: TeamTokens, dirs: readonly string[]): Promise<ServedTeam> {
  const minReviews = options.panel?.minReviews ?? 0
  const reviewsPerCase = options.assign?.reviewsPerCase ?? (minReviews > 0 ? minReviews : DEFAULT_REVIEWS_PER_CASE)
  const reserveMs = options.assign?.reserveMs ?? DEFAULT_RESERVE_MINUTES * 60_000
  const assignments = new Assignments({ reviewsPerCase, reserveMs, ...(options.assign?.now === undefined ? {} : { now: options.assign.now }) })
  return { people: team.people, assignments, kept: await keepReservations(team, assignments, dirs) }
}
