import type { SomeFixture } from '../core/engine/fixture.js'
import type { PanelPolicy } from '../core/engine/panel-rule.js'
import { reviewQueue, type QueueReason } from '../core/engine/review-queue.js'
import type { SampleFile } from '../core/sample/sample-file.js'
import type { Person } from './team.js'

// Assignment under `serve --team`: each reviewer is handed their next case from their own review
// queue, and it is reserved for them for a while. A case is handed out only while its independent
// reviews and live reservations number fewer than the reviews each case needs, so no case gets more
// reviewers than it needs while others wait. Reservations live in the server's memory: a restart
// releases them all.

/** The reviews each case needs when neither `--reviews-per-case` nor `--min-reviews` says. */
export const DEFAULT_REVIEWS_PER_CASE = 2
/** How long a case handed out stays reserved, in minutes, unless `--reserve-minutes` says. */
export const DEFAULT_RESERVE_MINUTES = 30

export interface AssignmentOptions {
  /** Independent reviews each case needs. */
  readonly reviewsPerCase: number
  /** How long a reservation lasts, in milliseconds. */
  readonly reserveMs: number
  /** The clock, in milliseconds. @default Date.now */
  readonly now?: () => number
}

/** The answer of `GET /api/next`: the reviewer's next case, or `null` when nothing is left for them. */
export interface NextAnswer {
  readonly next: {
    readonly fixture: number
    readonly id: string
    readonly reason: QueueReason
    /** One line naming no rating: why the case is next. */
    readonly detail: string
    /** When the reservation ends, as an ISO time, unless the reviewer saves or skips the case first. */
    readonly expires: string
  } | null
}

/** The answer of `GET /api/assignments`: progress per person and per fixture. */
export interface AssignmentsAnswer {
  readonly reviewsPerCase: number
  readonly reserveMinutes: number
  /** Each reviewer of the team: the independent reviews they made in the served fixtures, and the reservations they hold now. */
  readonly people: readonly { readonly name: string; readonly reviews: number; readonly reservations: number }[]
  /** Each served fixture that loads: its cases with enough independent reviews, of all its cases. */
  readonly fixtures: readonly { readonly index: number; readonly complete: number; readonly total: number; readonly reserved: number }[]
}

interface Reservation {
  readonly reviewer: string
  readonly until: number
}

/** The live reservations of the served fixtures, and the rule that hands cases out. */
export class Assignments {
  readonly reviewsPerCase: number
  readonly #reserveMs: number
  readonly #now: () => number
  /** By fixture, then case id, then reviewer. */
  readonly #held = new Map<number, Map<string, Map<string, Reservation>>>()

  constructor(options: AssignmentOptions) {
    this.reviewsPerCase = options.reviewsPerCase
    this.#reserveMs = options.reserveMs
    this.#now = options.now ?? Date.now
  }

  get reserveMinutes(): number {
    return this.#reserveMs / 60_000
  }

  /**
   * The reviewer's next case of a fixture, reserved for them: the one they hold already (its time
   * renewed), else the first of their review queue that they have not reviewed and that has fewer
   * independent reviews and live reservations than each case needs. Synchronous from the choice to
   * the reservation, so two requests at once never take the same place.
   */
  next(index: number, fixture: SomeFixture, reviewer: string, panel: PanelPolicy, sample: SampleFile | undefined): NextAnswer {
    const cases = this.#live(index)
    const until = this.#now() + this.#reserveMs
    // The queue of a reviewer who must bring each case to the reviews it needs, not fewer.
    const queue = reviewQueue(fixture, { sample, for: { reviewer }, panel: { ...panel, minReviews: Math.max(panel.minReviews, this.reviewsPerCase) } })
    const held = [...cases].find(([, by]) => by.has(reviewer))?.[0]
    const entry =
      queue.entries.find((each) => each.caseId === held) ??
      queue.entries.find((each) => {
        const reviews = fixture.panel.reviews.get(each.caseId)
        if (reviews?.has(reviewer) === true) return false
        const others = [...(cases.get(each.caseId)?.keys() ?? [])].filter((name) => name !== reviewer)
        return (reviews?.size ?? 0) + others.length < this.reviewsPerCase
      })
    if (held !== undefined && entry?.caseId !== held) this.release(index, held, reviewer)
    if (entry === undefined) return { next: null }
    const by = cases.get(entry.caseId) ?? new Map<string, Reservation>()
    by.set(reviewer, { reviewer, until })
    cases.set(entry.caseId, by)
    return { next: { fixture: index, id: entry.caseId, reason: entry.reason, detail: entry.detail, expires: new Date(until).toISOString() } }
  }

  /** Ends the reviewer's reservation of a case (a save or a skip); `false` when they held none. */
  release(index: number, caseId: string, reviewer: string): boolean {
    const cases = this.#live(index)
    const by = cases.get(caseId)
    const had = by?.delete(reviewer) === true
    if (by !== undefined && by.size === 0) cases.delete(caseId)
    return had
  }

  /** Progress per reviewer and per fixture, from the loaded fixtures (`undefined` for one that does not load). */
  progress(people: readonly Person[], fixtures: readonly (SomeFixture | undefined)[]): AssignmentsAnswer {
    const reviewers = people.filter((person) => person.role === 'reviewer').map((person) => person.name)
    const reviews = new Map(reviewers.map((name) => [name, 0]))
    const reservations = new Map(reviewers.map((name) => [name, 0]))
    const perFixture: AssignmentsAnswer['fixtures'][number][] = []
    fixtures.forEach((fixture, index) => {
      const cases = this.#live(index)
      for (const by of cases.values()) for (const name of by.keys()) reservations.set(name, (reservations.get(name) ?? 0) + 1)
      if (fixture === undefined) return
      let complete = 0
      for (const entry of fixture.cases) {
        const by = fixture.panel.reviews.get(entry.id)
        if ((by?.size ?? 0) >= this.reviewsPerCase) complete++
        for (const name of by?.keys() ?? []) if (reviews.has(name)) reviews.set(name, reviews.get(name)! + 1)
      }
      perFixture.push({ index, complete, total: fixture.cases.length, reserved: cases.size })
    })
    return {
      reviewsPerCase: this.reviewsPerCase,
      reserveMinutes: this.reserveMinutes,
      people: reviewers.map((name) => ({ name, reviews: reviews.get(name)!, reservations: reservations.get(name)! })),
      fixtures: perFixture,
    }
  }

  /** A fixture's reservations, the expired ones dropped. */
  #live(index: number): Map<string, Map<string, Reservation>> {
    let cases = this.#held.get(index)
    if (cases === undefined) {
      cases = new Map()
      this.#held.set(index, cases)
    }
    const now = this.#now()
    for (const [caseId, by] of cases) {
      for (const [name, held] of by) if (held.until <= now) by.delete(name)
      if (by.size === 0) cases.delete(caseId)
    }
    return cases
  }
}
