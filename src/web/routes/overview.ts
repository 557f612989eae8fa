import type { VersionAnswer } from '../protocol.js'
import { headers, json } from '../respond.js'
import { queryViewer, type Route } from './route.js'

// What the page reads of every served fixture: the overview, each fixture's version, and the stream
// of changes (which fixture changed, nothing of what changed).

/** `GET /api/overview[?viewer=]`: every fixture's overview as the viewer may see it, written piece by piece as kept. */
export const overview: Route = async (context) => {
  context.seen.viewer = queryViewer(context)
  const pieces = await context.fixtures.overview(context.seen.viewer)
  context.response.writeHead(200, headers('application/json; charset=utf-8'))
  for (const piece of pieces) context.response.write(piece)
  context.response.end()
}

/** `GET /api/version`: each fixture's version, `null` for one refused. */
export const versions: Route = async ({ response, fixtures }) => json(response, 200, { versions: await fixtures.versions() } satisfies VersionAnswer)

/** `GET /api/events`: a stream that says `changed` with a fixture's number each time one of its files changes. */
export const changes: Route = async ({ response, fixtures }) => {
  response.writeHead(200, headers('text/event-stream; charset=utf-8'))
  response.write('retry: 1000\n\n')
  fixtures.tell(response)
}
