import { z } from 'zod'
import { readSampleFile } from '../../core/sample/sample-file.js'
import { samplePlace } from '../../core/sample/sample.js'
import type { AssignmentsAnswer, NextAnswer, ReleaseAnswer } from '../assignment-protocol.js'
import { readBody, RequestError } from '../request.js'
import { json } from '../respond.js'
import type { Person } from '../team.js'
import { queuedCase } from '../queue-routes.js'
import { fixtureNumber, queryViewer, type Route, type RouteContext, type ServedTeam } from './route.js'

// The routes of assignment (`GET /api/next`, `POST /api/release`, `GET /api/assignments`): who may
// ask, what they name, and the answers. The rule itself is `Assignments`'.

/**
 * `GET /api/next?fixture=<n>`: a team's reviewer's next case of the fixture, reserved for them; on
 * the page of one person, the viewer's next case in the review queue (after the case `after`).
 */
export const nextCase: Route = async (context) => {
  if (context.server.team === undefined && context.caller.person === undefined) {
    const viewer = queryViewer(context)
    context.seen.viewer = viewer
    const { server, fixtures, url } = context
    const queue = { viewer, panel: server.panel, cwd: server.cwd, loaded: (index: number) => fixtures.loaded(index) }
    return json(context.response, 200, (await queuedCase(queue, fixtureNumber(url), url.searchParams.get('after'))) satisfies NextAnswer)
  }
  const { team, reviewer } = reviewerOnly(context, 'is handed cases to review')
  const index = fixtureNumber(context.url)
  const { fixture, queueFor } = await context.fixtures.loaded(index)
  const sample = await readSampleFile(samplePlace(fixture, context.server.cwd))
  // The reviewer's queue of the fixture as the server keeps it, under the assignment's rule: only the cases changed since are read again.
  const answer = team.assignments.next(index, fixture, reviewer, context.server.panel ?? { minReviews: 0 }, (policy) => queueFor(reviewer, policy, sample))
  await team.kept.write()
  json(context.response, 200, answer satisfies NextAnswer)
}

const ReleaseBody = z.strictObject({ fixture: z.int().min(0), id: z.string().min(1) })

/** `POST /api/release` with `{ fixture, id }`: the reviewer skips a case they hold, and is not handed it again for the reservation time. */
export const releaseCase: Route = async (context) => {
  const { team, reviewer } = reviewerOnly(context, 'holds cases to release')
  const body = ReleaseBody.safeParse(await readBody(context.request, 4096))
  if (!body.success) throw new RequestError('BAD_REQUEST', 'the request body must be { "fixture": <n>, "id": "<case id>" }.')
  const released = team.assignments.release(body.data.fixture, body.data.id, reviewer, true)
  if (released) await team.kept.write()
  json(context.response, 200, { released } satisfies ReleaseAnswer)
}

/** `GET /api/assignments`: progress per reviewer and per fixture, for anyone of the team. */
export const assignmentProgress: Route = async ({ response, fixtures, server }) => {
  if (server.team === undefined) throw notTeam()
  const loaded = await Promise.all(
    Array.from({ length: fixtures.count }, (_, index) =>
      fixtures
        .loaded(index)
        .then((entry) => entry.fixture)
        .catch(() => undefined),
    ),
  )
  json(response, 200, server.team.assignments.progress(server.team.people, loaded) satisfies AssignmentsAnswer)
}

/**
 * Ends the reviewer's reservation of a case they saved. The save stands whatever becomes of the file
 * of reservations, so a failure to write it is told on the terminal rather than answered.
 */
export async function savedCase(team: ServedTeam, person: Person | undefined, fixture: number, caseId: string): Promise<void> {
  if (person?.role !== 'reviewer' || !team.assignments.release(fixture, caseId, person.name)) return
  await team.kept.write().catch((error: unknown) => {
    console.error(
      `vitest-rubric serve: the open reservations could not be written, so status shows them as before: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    )
  })
}

function reviewerOnly(context: RouteContext, what: string): { team: ServedTeam; reviewer: string } {
  const { team } = context.server
  const { person } = context.caller
  if (team === undefined || person === undefined) throw notTeam()
  if (person.role !== 'reviewer')
    throw new RequestError('ROLE_NOT_PERMITTED', `${person.name} is ${person.role === 'reader' ? 'a reader' : 'an adjudicator'}: only a reviewer ${what}.`)
  return { team, reviewer: person.name }
}

function notTeam(): RequestError {
  return new RequestError('NOT_FOUND', 'cases are handed out only by serve --team: this server serves one person.')
}
