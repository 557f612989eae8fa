import { servedCase } from '../page-data.js'
import { json } from '../respond.js'
import { fixtureNumber, queryViewer, type Route } from './route.js'

/** `GET /api/case?fixture=<n>&id=<case id>[&viewer=]`: one case as the viewer may see it. */
export const caseView: Route = async (context) => {
  const { url, fixtures, server } = context
  context.seen.viewer = queryViewer(context)
  const index = fixtureNumber(url)
  const entry = await fixtures.loaded(index)
  json(context.response, 200, await servedCase(entry.fixture, index, url.searchParams.get('id') ?? '', context.seen.viewer, server.evaluate, entry.decided))
}
