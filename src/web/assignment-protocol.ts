// What assignment's routes answer (`GET /api/next`, `POST /api/release`, `GET /api/assignments`),
// as the page reads it: no imports, so that the page's bundle takes nothing of the server.

/** Why a case is next: the review queue's reasons (core/engine/review-queue.ts `QUEUE_REASONS`). */
export type NextReason = 'sampled' | 'disagreement' | 'adjudication' | 'stale' | 'unreviewed' | 'unsettled'

/**
 * The answer of `GET /api/next?fixture=<n>`: a team's reviewer's next case, reserved for them, or on
 * the page of one person the viewer's next case in the review queue; `null` when nothing is left
 * (and for a team's reviewer, `skipped` when what is left they skipped).
 */
export interface NextAnswer {
  readonly next: {
    readonly fixture: number
    readonly id: string
    readonly reason: NextReason
    /** One line naming no rating: why the case is next. */
    readonly detail: string
    /** When the reservation ends, as an ISO time, unless the reviewer saves or skips the case first; `null` on the page of one person, which reserves nothing. */
    readonly expires: string | null
    /** On the page of one person: how many cases the viewer's queue holds, this one included. */
    readonly queued?: number
  } | null
  /**
   * When a team's reviewer is handed no case, but cases they skipped are left that would be handed to
   * them otherwise: how many, and when the first of them comes back to them (an ISO time).
   */
  readonly skipped?: { readonly cases: number; readonly until: string }
}

/** The answer of `POST /api/release` with `{ fixture, id }`: whether the reviewer held the case. */
export interface ReleaseAnswer {
  readonly released: boolean
}

/** The answer of `GET /api/assignments`: progress per person and per fixture. */
export interface AssignmentsAnswer {
  readonly reviewsPerCase: number
  readonly reserveMinutes: number
  /** Each reviewer of the team: the independent reviews they made in the served fixtures, and the reservations they hold now. */
  readonly people: readonly { readonly name: string; readonly reviews: number; readonly reservations: number }[]
  /** Each served fixture that loads: its cases with enough independent reviews, of all its cases, and the cases reserved now. */
  readonly fixtures: readonly { readonly index: number; readonly complete: number; readonly total: number; readonly reserved: number }[]
}
