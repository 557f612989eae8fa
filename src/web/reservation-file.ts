import { readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { displayPath } from '../core/common/display-path.js'
import { RubricError } from '../core/common/errors.js'
import { errnoCode } from '../core/common/primitives.js'
import { REVIEWER_NAME } from '../core/engine/panel.js'
import { readStateFile, writeOutputFile } from '../core/json/output-file.js'
import { checkedJsonFile } from '../core/json/checked-json.js'
import type { Assignments } from './assignment.js'
import type { LoadedTeam } from './team.js'
import { TEAM_TOKENS_DIR, tokenFilePath, withTeamLock, type TeamTokens } from './team-tokens.js'

// The reservations of `serve --team`, as the server holds them, kept beside the team's token file
// so that another process (`vitest-rubric status`) can read them. The server's memory is the truth
// while it runs; this file follows each change, and a restart reads it back, so the reservations
// held before a restart are held after it until their time runs out.

/** What ends the name of a reservation file in `.vitest-rubric/team/`. */
const SUFFIX = '.reservations.json'

const ReservationFileSchema = z.strictObject({
  version: z.literal(1, { error: 'the number 1' }),
  team: z.string({ error: "the team file's path" }),
  reservations: z.array(
    z.strictObject({
      person: z.string({ error: 'a name' }).regex(REVIEWER_NAME, { error: 'a name of letters and digits, then also ".", "_", "-"' }),
      /** The fixture directory, from the project root. */
      fixture: z.string({ error: "the fixture directory's path" }).min(1, { error: "the fixture directory's path" }),
      case: z.string({ error: 'a case id' }).min(1, { error: 'a case id' }),
      until: z.iso.datetime({ error: 'an ISO time (2026-12-06T10:42:00.000Z)' }),
    }),
    { error: 'a list of reservations { person, fixture, case, until }' },
  ),
})

/** A case reserved for a reviewer until a time, as the file keeps it. */
export type Reservation = z.infer<typeof ReservationFileSchema>['reservations'][number]

/** A reservation as `status` shows it, with the team file whose server holds it. */
export interface OpenReservation extends Reservation {
  readonly team: string
}

/** Where a team's reservations are kept: beside its token file, named alike. */
export function reservationFilePath(root: string, team: LoadedTeam): string {
  return tokenFilePath(root, team).replace(/\.json$/, SUFFIX)
}

/** The reservations of one file as kept (expired ones included); none when there is no file. */
export async function readReservationFile(root: string, path: string): Promise<{ team: string | undefined; reservations: readonly Reservation[] }> {
  const bytes = await readStateFile(path, { boundary: root, cwd: root })
  if (bytes === undefined) return { team: undefined, reservations: [] }
  const display = displayPath(root, path)
  const hint = `remove ${display}: the reservations it held are released, and a running serve --team writes it again at its next change.`
  if (bytes === 'not a file')
    throw new RubricError({
      code: 'TEAM_RESERVATIONS_INVALID',
      file: display,
      summary: 'the file of open reservations is a symbolic link, or not a file: it is read and written only as a file of its own; nothing was written.',
      hint: `put the file itself in place of the link, or ${hint}`,
    })
  return checkedJsonFile({ display, bytes }, ReservationFileSchema, {
    ErrorClass: RubricError,
    code: 'TEAM_RESERVATIONS_INVALID',
    notJson: 'the file of open reservations is not JSON.',
    hint,
  })
}

/**
 * Replaces the team's reservations with those `current` gives, under the lock of the team folder (so
 * a file is written whole, by one writer at a time) and read from `current` once the lock is held,
 * so that of two writes the later always carries the later state.
 */
export async function writeReservations(root: string, team: LoadedTeam, current: () => readonly Reservation[]): Promise<void> {
  const path = reservationFilePath(root, team)
  await withTeamLock(root, async () => {
    // A link put in the file's place while the server ran is refused as one found at the start is: replacing it would drop what it leads to.
    if ((await readStateFile(path, { boundary: root, cwd: root })) === 'not a file') await readReservationFile(root, path)
    const file = { version: 1, team: team.display, reservations: current() }
    await writeOutputFile({ path, display: displayPath(root, path), contents: `${JSON.stringify(file, null, 2)}\n` }, { boundary: root, cwd: root })
  })
}

/** Every open reservation of the project's team servers (those whose time has not run out), in time order. */
export async function openReservations(root: string, now: number = Date.now()): Promise<readonly OpenReservation[]> {
  let names: string[]
  try {
    names = await readdir(join(root, TEAM_TOKENS_DIR))
  } catch (cause) {
    if (errnoCode(cause) === 'ENOENT' || errnoCode(cause) === 'ENOTDIR') return []
    throw cause
  }
  const open: OpenReservation[] = []
  for (const name of names.filter((each) => each.endsWith(SUFFIX)).sort()) {
    const file = await readReservationFile(root, join(root, TEAM_TOKENS_DIR, name))
    for (const each of file.reservations) if (Date.parse(each.until) > now) open.push({ ...each, team: file.team ?? name })
  }
  return open.sort((a, b) => Date.parse(a.until) - Date.parse(b.until) || a.person.localeCompare(b.person))
}

/** Whether a reservation's fixture is the directory `dir` (as a command names it from `cwd`). */
export function reservedIn(root: string, reservation: Reservation, dir: string, cwd: string): boolean {
  return resolve(root, reservation.fixture) === resolve(cwd, dir)
}

/** The server's side of the file: what it reads back when it starts, and writes after each change. */
export interface KeptReservations {
  /** Writes the reservations as they are now. */
  readonly write: () => Promise<void>
}

/**
 * Takes up the reservations a server of the same team held before a restart, for the fixtures served
 * now (the others', and the expired, are dropped at the next write), and returns the writer of the
 * file. `dirs` are the served fixture directories, absolute, by position.
 */
export async function keepReservations(tokens: TeamTokens, assignments: Assignments, dirs: readonly string[]): Promise<KeptReservations> {
  const { root, team } = tokens
  const reviewers = new Set(team.people.filter((person) => person.role === 'reviewer').map((person) => person.name))
  const before = await readReservationFile(root, reservationFilePath(root, team))
  for (const each of before.reservations) {
    const fixture = dirs.indexOf(resolve(root, each.fixture))
    if (fixture >= 0 && reviewers.has(each.person)) assignments.restore({ fixture, caseId: each.case, reviewer: each.person, until: Date.parse(each.until) })
  }
  const shown = dirs.map((dir) => displayPath(root, dir))
  const current = (): Reservation[] =>
    assignments.held().map((held) => ({ person: held.reviewer, fixture: shown[held.fixture]!, case: held.caseId, until: new Date(held.until).toISOString() }))
  // A write not begun yet covers every change made before it begins: a change meanwhile joins it.
  let waiting: Promise<void> | undefined
  const write = (): Promise<void> => {
    if (waiting !== undefined) return waiting
    const mine: Promise<void> = writeReservations(root, team, () => {
      if (waiting === mine) waiting = undefined
      return current()
    })
    waiting = mine
    // A write that failed before it began is not joined by the next change.
    mine.catch(() => (waiting === mine ? (waiting = undefined) : undefined))
    return mine
  }
  return { write }
}
