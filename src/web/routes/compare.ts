import { pageComparison } from '../compare-data.js'
import { json } from '../respond.js'
import type { Viewer } from '../viewer.js'
import { fixtureNumber, type Route } from './route.js'

/** `GET /api/compare?a=<n>&b=<n>`: two served fixtures compared as `vitest-rubric compare` compares them. Read-only. */
export const comparison: Route = async ({ response, url, caller, seen, fixtures, server }) => {
  const [a, b] = [fixtureNumber(url, 'a'), fixtureNumber(url, 'b')]
  // A blind reviewer of a team compares the fixtures as their own overviews show them.
  const reader: Viewer = caller.person === undefined ? { role: 'reader' } : seen.viewer
  const [entryA, entryB] = [await fixtures.loaded(a), await fixtures.loaded(b)]
  const overviews = { a: (await fixtures.viewOf(entryA, a, reader)).page, b: (await fixtures.viewOf(entryB, b, reader)).page }
  const named = fixtures.options.named
  // A blind reviewer sees no judge's figures, as on the overview.
  const judge = reader.role === 'reviewer' ? undefined : server.judge
  // The figures are counted from what the reviewer is shown of each case, as their overview's are: never the fixture's own decisions.
  const shown = reader.role === 'reviewer' ? { a: fixtures.shownDecisions(entryA, a, reader), b: fixtures.shownDecisions(entryB, b, reader) } : undefined
  const options = { cwd: server.cwd, ...server.evaluate, ...(shown === undefined ? {} : { shown }) }
  json(response, 200, await pageComparison({ a: named[a]!, b: named[b]! }, overviews, options, judge))
}
