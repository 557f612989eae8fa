// The review page's save: the body the page posts and the answer it reads, part of the wire
// protocol beside protocol.ts, which it reads. The answer's costly figures, the judge's calibration and
// the judge-assisted estimate, each a pass over every case, are made again only when the save asks.

import type { CaseRow, CaseVersions, PageCase, PageFixture } from './protocol.js'

/** `POST /api/review` and `POST /api/adjudicate`: a review (or an adoption) of one case. */
export interface SaveRequest {
  readonly fixture: number
  readonly id: string
  readonly draft: Readonly<Record<string, unknown>>
  /** The case's versions as the form was begun on: the save is refused when a file changed since. */
  readonly versions: CaseVersions
  /** A review exists and the save replaces it. */
  readonly replace: boolean
  /** A blind reviewer's save: into their own file. */
  readonly reviewer?: string | undefined
  /** An adoption, by this adjudicator. */
  readonly adjudicator?: string | undefined
  /** Answer with the fixture's judge-assisted estimate made again (a pass over every case): the page asks while it shows one. */
  readonly estimate?: boolean | undefined
  /** Answer with the judges' calibration made again (a pass over every case): the page asks while it shows it. */
  readonly calibration?: boolean | undefined
}

/** A saved case's fixture: its new figures and the case's new row (`null` when it has none), put in place of the old ones. */
export type SavedFixture = Pick<PageFixture, 'index' | 'version' | 'coverage' | 'agreement' | 'sample'> & {
  /** The calibration made again: only when the save asked for it (`calibration: true`). */
  readonly calibration?: PageFixture['calibration'] | undefined
  /** The estimate made again: only when the save asked for it (`estimate: true`). */
  readonly estimate?: PageFixture['estimate'] | undefined
  readonly row: CaseRow | null
}

/** The answer to a save: the decision it gives, the case as it is now and its fixture's figures. */
export interface SaveAnswer {
  readonly decision: string
  readonly case: PageCase
  readonly fixture: SavedFixture
}
