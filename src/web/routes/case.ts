import { servedCase } from '../page-data.js'
import { RequestError } from '../request.js'
import { json } from '../respond.js'
import { queryViewer, type Route } from './route.js'

/** `GET /api/case?fixture=<n>&id=<case id>[&viewer=]`: one case as the viewer may see it. */
export const caseView: Route = async (context) => {
  const { url, fixtures, server } = context
  context.seen.viewer = queryViewer(context)
  const index = Number(url.searchParams.get('fixture'))
  if (!Number.isInteger(index) || index < 0) throw new RequestError('BAD_REQUEST', 'fixture must be a fixture number.')
  const entry = await fixtures.loaded(index)
  json(context.response, 200, await servedCase(entry.fixture, index, url.searchParams.get('id') ?? '', context.seen.viewer, server.evaluate, entry.decided))
}
