import { pageComparison } from '../compare-data.js'
import { RequestError } from '../request.js'
import { json } from '../respond.js'
import type { Viewer } from '../viewer.js'
import type { Route } from './route.js'

/** `GET /api/compare?a=<n>&b=<n>`: two served fixtures compared as `vitest-rubric compare` compares them. Read-only. */
export const comparison: Route = async ({ response, url, caller, seen, fixtures, server }) => {
  const [a, b] = (['a', 'b'] as const).map((name) => Number(url.searchParams.get(name)))
  if (!Number.isInteger(a) || !Number.isInteger(b) || a! < 0 || b! < 0) throw new RequestError('BAD_REQUEST', 'a and b must be fixture numbers.')
  // A blind reviewer of a team compares the fixtures as their own overviews show them.
  const reader: Viewer = caller.person === undefined ? { role: 'reader' } : seen.viewer
  const [entryA, entryB] = [await fixtures.loaded(a!), await fixtures.loaded(b!)]
  const overviews = { a: (await fixtures.viewOf(entryA, a!, reader)).page, b: (await fixtures.viewOf(entryB, b!, reader)).page }
  const named = fixtures.options.named
  json(response, 200, await pageComparison({ a: named[a!]!, b: named[b!]! }, overviews, { cwd: server.cwd, ...server.evaluate }))
}
