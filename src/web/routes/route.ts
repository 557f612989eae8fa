import type { IncomingMessage, ServerResponse } from 'node:http'
import type { EvaluateOptions } from '../../core/engine/evaluate.js'
import type { PanelPolicy } from '../../core/engine/panel-rule.js'
import type { KindRegistry } from '../../core/engine/registry.js'
import type { Caller } from '../admission.js'
import type { Assignments } from '../assignment.js'
import type { KeptReservations } from '../reservation-file.js'
import { RequestError } from '../request.js'
import type { SaveTrail } from '../save-trail.js'
import type { ServedFixtures } from '../served-fixtures.js'
import type { Person } from '../team.js'
import { viewerOf, type Viewer } from '../viewer.js'

// What every route of the server is handed: the request, who made it, the served fixtures and the
// server's settings. A route reads a fixture by its position and a case by its id, never a path.

/** The settings of a running server that routes read, resolved from its options. */
export interface ServerSettings {
  readonly cwd: string
  readonly evaluate: EvaluateOptions
  readonly kinds: KindRegistry
  readonly panel: PanelPolicy | undefined
  /** The largest request body accepted, in bytes. */
  readonly maxBody: number
  /** What records each save: a git commit, or a line of the audit log. */
  readonly trail: SaveTrail
  /** With a team, the people links were issued to, and the cases handed out to them; `undefined` otherwise. */
  readonly team: ServedTeam | undefined
  /** The judge `serve --judge` named: the overview's estimate and the comparison's judge-assisted figures use it. */
  readonly judge: string | undefined
}

/** A team's part of a server's state: its people, and the cases handed out to them. */
export interface ServedTeam {
  readonly people: readonly Person[]
  readonly assignments: Assignments
  /** Where the reservations are kept for other processes to read (`status`). */
  readonly kept: KeptReservations
}

export interface RouteContext {
  readonly request: IncomingMessage
  readonly response: ServerResponse
  readonly url: URL
  readonly caller: Caller
  /** Who the request says is viewing, once it says so: a refusal is worded for them. A route that learns who views sets it. */
  readonly seen: { viewer: Viewer }
  readonly fixtures: ServedFixtures
  readonly server: ServerSettings
}

/** A route: answers a request that was let in (see `Admission`), or throws a `RubricError` to refuse it. */
export type Route = (context: RouteContext) => Promise<void>

/**
 * Who views, as a request with the single token says in its `viewer` parameter; a person of a team
 * is who their token names, whatever the query says.
 */
export function queryViewer(context: RouteContext): Viewer {
  if (context.caller.person !== undefined) return context.seen.viewer
  return viewerOf(context.url.searchParams.get('viewer'))
}

/**
 * A served fixture's number from the query parameter `name`: a whole number from 0. Missing or
 * empty is refused as any other wrong value (`Number('')` would be fixture 0).
 */
export function fixtureNumber(url: URL, name = 'fixture'): number {
  const text = url.searchParams.get(name)
  const index = Number(text)
  if (text === null || text.trim() === '' || !Number.isInteger(index) || index < 0) throw new RequestError('BAD_REQUEST', `${name} must be a fixture number.`)
  return index
}
