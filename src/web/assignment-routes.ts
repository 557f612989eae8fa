import type { IncomingMessage } from 'node:http'
import { z } from 'zod'
import type { SomeFixture } from '../core/engine/fixture.js'
import type { PanelPolicy } from '../core/engine/panel-rule.js'
import { readSampleFile } from '../core/sample/sample-file.js'
import { samplePlace } from '../core/sample/sample.js'
import type { Assignments } from './assignment.js'
import type { KeptReservations } from './reservation-file.js'
import type { AssignmentsAnswer, NextAnswer, ReleaseAnswer } from './assignment-protocol.js'
import { queuedCase, type QueueContext } from './queue-routes.js'
import { readBody, RequestError } from './request.js'
import type { Person } from './team.js'

// The routes of assignment (`GET /api/next`, `POST /api/release`, `GET /api/assignments`): who may
// ask, what they name, and the answers. The rule itself is `Assignments`'.

export interface AssignmentContext {
  readonly assignments: Assignments | undefined
  /** Where the reservations are kept for other processes to read (`status`). */
  readonly kept: KeptReservations | undefined
  readonly person: Person | undefined
  readonly panel: PanelPolicy
  readonly cwd: string
  /** The fixture served at a position, loaded (a `RequestError` for a position not served). */
  readonly loaded: (index: number) => Promise<SomeFixture>
  /** Outside a team: whose review queue `GET /api/next` follows, and the fixtures as decided. */
  readonly queue: QueueContext
}

/**
 * `GET /api/next?fixture=<n>`: a team's reviewer's next case of the fixture, reserved for them; on
 * the page of one person, the viewer's next case in the review queue (after the case `after`).
 */
export async function nextCase(context: AssignmentContext, url: URL): Promise<NextAnswer> {
  if (context.assignments === undefined && context.person === undefined)
    return queuedCase(context.queue, fixtureNumber(url.searchParams.get('fixture')), url.searchParams.get('after'))
  const { assignments, reviewer } = reviewerOnly(context, 'is handed no case to review')
  const index = fixtureNumber(url.searchParams.get('fixture'))
  const fixture = await context.loaded(index)
  const { sample } = await readSampleFile(samplePlace(fixture, context.cwd))
  const answer = assignments.next(index, fixture, reviewer, context.panel, sample)
  await context.kept?.write()
  return answer
}

const ReleaseBody = z.strictObject({ fixture: z.int().min(0), id: z.string().min(1) })

/** `POST /api/release` with `{ fixture, id }`: the reviewer skips a case they hold, and is not handed it again for the reservation time. */
export async function releaseCase(context: AssignmentContext, request: IncomingMessage): Promise<ReleaseAnswer> {
  const { assignments, reviewer } = reviewerOnly(context, 'holds no case to release')
  const body = ReleaseBody.safeParse(await readBody(request, 4096))
  if (!body.success) throw new RequestError('BAD_REQUEST', 'the request body must be { "fixture": <n>, "id": "<case id>" }.')
  const released = assignments.release(body.data.fixture, body.data.id, reviewer, true)
  if (released) await context.kept?.write()
  return { released }
}

/** `GET /api/assignments`: progress per reviewer and per fixture, for anyone of the team. */
export async function assignmentProgress(context: AssignmentContext, people: readonly Person[], count: number): Promise<AssignmentsAnswer> {
  if (context.assignments === undefined) throw notTeam()
  const fixtures = await Promise.all(Array.from({ length: count }, (_, index) => context.loaded(index).catch(() => undefined)))
  return context.assignments.progress(people, fixtures)
}

/**
 * Ends the reviewer's reservation of a case they saved. The save stands whatever becomes of the file
 * of reservations, so a failure to write it is told on the terminal rather than answered.
 */
export async function savedCase(context: Pick<AssignmentContext, 'assignments' | 'person' | 'kept'>, fixture: number, caseId: string): Promise<void> {
  if (context.person?.role !== 'reviewer' || context.assignments?.release(fixture, caseId, context.person.name) !== true) return
  await context.kept?.write().catch((error: unknown) => {
    console.error(
      `vitest-rubric serve: the open reservations could not be written, so status shows them as before: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    )
  })
}

function reviewerOnly(context: AssignmentContext, what: string): { assignments: Assignments; reviewer: string } {
  if (context.assignments === undefined || context.person === undefined) throw notTeam()
  if (context.person.role !== 'reviewer')
    throw new RequestError(
      'ROLE_NOT_PERMITTED',
      `${context.person.name} is ${context.person.role === 'reader' ? 'a reader' : 'an adjudicator'}: only a reviewer ${what}.`,
    )
  return { assignments: context.assignments, reviewer: context.person.name }
}

function notTeam(): RequestError {
  return new RequestError('NOT_FOUND', 'cases are handed out only by serve --team: this server serves one person.')
}

function fixtureNumber(text: string | null): number {
  const index = Number(text)
  if (text === null || text === '' || !Number.isInteger(index) || index < 0) throw new RequestError('BAD_REQUEST', 'fixture must be a fixture number.')
  return index
}
