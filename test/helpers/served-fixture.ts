import { convertFixture, type FixtureLayout } from '../../src/core/engine/convert-layout.js'
import { kinds } from '../../src/core/registry.js'
import { cp } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import { startServer, type RunningServer, type ServeOptions } from '../../src/web/server.js'
import { DOCUCTL } from './fixture-copy.js'
import { scratchDir } from './scratch.js'

/** A copy of the bundled docuctl fixture at `fixtures/lab` of a scratch root, served on a free port until the test ends. */
export async function servedCopy(
  options: Partial<ServeOptions> = {},
  layout: FixtureLayout = 'seed',
): Promise<{ root: string; dir: string; server: RunningServer }> {
  const root = await scratchDir('served')
  const dir = join(root, 'fixtures/lab')
  await cp(DOCUCTL, dir, { recursive: true })
  if (layout === 'records') await convertFixture(dir, 'records', { cwd: root, kinds })
  const server = await startServer({ dirs: ['fixtures/lab'], cwd: root, port: 0, ...options })
  onTestFinished(() => server.close())
  return { root, dir, server }
}

export interface RawResponse {
  readonly status: number
  readonly body: string
  readonly headers: Record<string, string | string[] | undefined>
}

/** A raw request to the server, with the headers given (no browser in between). */
export function raw(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers ?? {} }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: response.headers }))
    })
    request.on('error', reject)
    if (options.body !== undefined) request.write(options.body)
    request.end()
  })
}

/** A save posted with the token, the body given as text or as a value. */
export function postSave(server: RunningServer, body: unknown, path = '/api/review'): Promise<RawResponse> {
  const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body)
  return raw(server.port, path, { method: 'POST', headers: { 'x-rubric-token': server.token, 'content-type': 'application/json' }, body: text })
}
