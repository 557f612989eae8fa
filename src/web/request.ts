import type { IncomingMessage } from 'node:http'

/** A request that is refused before any fixture is touched, with its HTTP status. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

/**
 * The request's URL. The target is always taken as a path: `//` or `//host/x` names no host here,
 * it is a path this server does not serve.
 */
export function requestUrl(target: string | undefined): URL {
  if (target === undefined || !target.startsWith('/')) throw new Refusal(400, 'BAD_REQUEST', 'the request target must be a path.')
  try {
    return new URL(`http://localhost${target}`)
  } catch {
    throw new Refusal(400, 'BAD_REQUEST', 'the request target is not a URL path.')
  }
}

/** How deep a request body may nest: a save nests five levels; anything far deeper is no save. */
const MAX_BODY_DEPTH = 64
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * The request body as JSON, refused past `limit` bytes. Past the limit the rest is read and thrown
 * away, not kept, so the client receives the refusal instead of a reset connection. A body that is
 * not UTF-8, nests deeper than {@link MAX_BODY_DEPTH} or holds a `__proto__` key (which a parsed
 * object would lose on the way to a file) is refused rather than repaired.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<unknown> {
  const tooLarge = () => new Refusal(413, 'BODY_TOO_LARGE', `the request body is larger than ${limit} bytes.`)
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
    throw new Refusal(400, 'BAD_REQUEST', 'the request body is not valid UTF-8.')
  }
  if (nestingDepth(text) > MAX_BODY_DEPTH) throw new Refusal(400, 'BAD_REQUEST', `the request body nests deeper than ${MAX_BODY_DEPTH} levels.`)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new Refusal(400, 'BAD_REQUEST', 'the request body is not JSON.')
  }
  const at = protoKeyAt(value, [])
  if (at !== undefined) throw new Refusal(400, 'BAD_REQUEST', `the request body holds the key "__proto__" (at ${at.join('.') || 'the top'}), which no fixture file may hold.`)
  return value
}

/** The deepest nesting of arrays and objects in JSON text, brackets inside strings aside. */
function nestingDepth(text: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at)
    if (inString) {
      if (code === 0x5c) at++
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x5b || code === 0x7b) deepest = Math.max(deepest, ++depth)
    else if (code === 0x5d || code === 0x7d) depth--
  }
  return deepest
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

