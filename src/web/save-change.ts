// What a save accepted by the page server is, as the trails that record it (an audit log, a git commit) read it. Types only.

import type { TeamRole } from './team.js'

/** One accepted save, as its record names it. */
export interface SavedChange {
  /** The fixture directory, absolute. */
  readonly dir: string
  /** The fixture as the server was given it (`fixtures/lab`). */
  readonly fixture: string
  readonly caseId: string
  readonly action: 'review' | 'adjudicate'
  /** Who saved: the person of a team link, else the name the save carries; `undefined` for an unnamed save. */
  readonly person: string | undefined
  /** The person's email from the team file, if it gives one. */
  readonly email?: string | undefined
  /** The person's role in the team; `undefined` outside team mode. */
  readonly role: TeamRole | undefined
  /** What changed: `new` (a first review), `replaced` (a review revised), `adopted` (an adjudication). */
  readonly change: 'new' | 'replaced' | 'adopted'
  readonly decision: string
  /**
   * What `decision` is: the case's decision with the save (`case`, when left out), what an
   * independent review alone would decide (`alone`: the case waits for an adoption), or the case's
   * decision, which a review of a slot that decides nothing by itself leaves as it was (`unchanged`).
   */
  readonly decisionOf?: 'case' | 'alone' | 'unchanged'
  /** The files the save wrote, absolute, in the order written. */
  readonly files: readonly string[]
}

/** Where accepted saves are recorded. A throw refuses the save: it is rolled back and the page shown the error. */
export interface SaveTrail {
  /** Records `change`; `before(path)` gives the bytes of a file it wrote as they were before the save (`null` for a file it made). */
  record(change: SavedChange, before: (path: string) => Promise<Buffer | null>): Promise<void>
}
