import type { IncomingMessage } from 'node:http'
import { RubricError, type RubricErrorCode } from '../core/common/errors.js'
import { jsonStructureProblem, MAX_JSON_DEPTH } from '../core/json/json-structure.js'
import { HTTP_STATUS } from './status.js'

/** The codes of a request refused before any fixture is touched, each with what to do about it (docs/errors.md). */
export const REQUEST_FIXES = {
  BAD_REQUEST:
    'send what the review page sends: reload the page (a page left open across an upgrade sends an older request); a script must follow docs/review-page.md.',
  BAD_HOST:
    'open the page at the address vitest-rubric serve printed (127.0.0.1, localhost or [::1] with its port; with --public-origin, that origin only), not through another host name.',
  BAD_CODE: 'open the URL vitest-rubric serve printed, or run vitest-rubric serve --open again: a one-time link works once, within a minute.',
  BAD_TOKEN:
    'open the URL vitest-rubric serve printed: it carries the token (a restarted server has a new one; with --team, your own link, unless it was revoked: ask for it to be reissued).',
  BAD_ORIGIN: 'use the review page itself: another site cannot call the server.',
  NOT_FOUND: 'reload the page: it names fixtures by their number and pages by their path, and the server serves only those it lists.',
  METHOD_NOT_ALLOWED: 'the server answers only GET and POST: send the request the review page sends.',
  BODY_TOO_LARGE: 'save a smaller draft: a request body is limited to 1 MiB (a review with reasons of a few thousand characters is far below it).',
  EMPTY_DRAFT: 'rate at least one criterion (or dimension) before saving.',
  ROLE_NOT_PERMITTED: 'ask whoever runs serve --team for a link with the role this needs: a reader saves nothing, a reviewer reviews, an adjudicator adopts.',
  IDENTITY_MISMATCH: 'save through your own link: the server saves as the person the link names, and refuses a body naming anyone else.',
} as const satisfies Partial<Record<RubricErrorCode, string>>

export type RequestErrorCode = keyof typeof REQUEST_FIXES

/**
 * A request refused before any fixture is touched, answered with its HTTP status and `message`
 * as it is, one line.
 */
export class RequestError extends RubricError {
  readonly status: number

  constructor(code: RequestErrorCode, message: string) {
    super({ code, summary: message, hint: REQUEST_FIXES[code] }, message)
    this.status = HTTP_STATUS[code]
  }
}

/**
 * The request's URL. The target is always taken as a path: `//` or `//host/x` names no host here,
 * it is a path this server does not serve.
 */
export function requestUrl(target: string | undefined): URL {
  if (target === undefined || !target.startsWith('/')) throw new RequestError('BAD_REQUEST', 'the request target must be a path.')
  try {
    return new URL(`http://localhost${target}`)
  } catch {
    throw new RequestError('BAD_REQUEST', 'the request target is not a URL path.')
  }
}

/** How deep a request body may nest: a save nests five levels; anything far deeper is no save. */
const MAX_BODY_DEPTH = MAX_JSON_DEPTH
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * The request body as JSON, refused past `limit` bytes. Past the limit the rest is read and thrown
 * away, not kept, so the client receives the refusal instead of a reset connection. A body that is
 * not UTF-8, nests deeper than {@link MAX_BODY_DEPTH}, holds a key twice in one object (which
 * `JSON.parse` would read as the last) or holds a `__proto__` key (which a parsed object would lose
 * on the way to a file) is refused rather than repaired.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<unknown> {
  const tooLarge = () => new RequestError('BODY_TOO_LARGE', `the request body is larger than ${limit} bytes.`)
  if (Number(request.headers['content-length'] ?? 0) > limit) return Promise.reject(tooLarge())
  return new Promise((done, fail) => {
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) chunks.push(chunk)
    })
    request.on('error', fail)
    request.on('end', () => {
      if (size > limit) return fail(tooLarge())
      try {
        done(parseBody(Buffer.concat(chunks)))
      } catch (error) {
        fail(error)
      }
    })
  })
}

function parseBody(bytes: Buffer): unknown {
  let text: string
  try {
    text = strictUtf8.decode(bytes)
  } catch {
    throw new RequestError('BAD_REQUEST', 'the request body is not valid UTF-8.')
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new RequestError('BAD_REQUEST', 'the request body is not JSON.')
  }
  const structure = jsonStructureProblem(text, MAX_BODY_DEPTH)
  if (structure?.kind === 'too-deep') throw new RequestError('BAD_REQUEST', `the request body nests deeper than ${MAX_BODY_DEPTH} levels.`)
  if (structure !== undefined) {
    const where = structure.path.slice(0, -1).join('.')
    throw new RequestError('BAD_REQUEST', `the request body holds the key ${JSON.stringify(structure.key)} twice in one object (at ${where || 'the top'}).`)
  }
  const at = protoKeyAt(value, [])
  if (at !== undefined)
    throw new RequestError('BAD_REQUEST', `the request body holds the key "__proto__" (at ${at.join('.') || 'the top'}), which no fixture file may hold.`)
  return value
}

/** Where a parsed value holds an own `__proto__` key, if anywhere. The value nests at most {@link MAX_BODY_DEPTH} levels. */
function protoKeyAt(value: unknown, path: readonly string[]): readonly string[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) return path
  for (const [key, item] of Object.entries(value)) {
    const found = protoKeyAt(item, [...path, key])
    if (found !== undefined) return found
  }
  return undefined
}
