import type { SomeFixture } from '../core/engine/fixture.js'
import type { PanelPolicy } from '../core/engine/panel-rule.js'
import type { ReviewerQueue } from '../core/engine/kept-queue.js'
import type { QueueEntry, QueueReason } from '../core/engine/review-queue.js'
import type { AssignmentsAnswer, NextAnswer, NextReason } from './assignment-protocol.js'
import type { Person } from './team.js'

// Assignment under `serve --team`: each reviewer is handed their next case from their own review
// queue, and it is reserved for them for a while. A case is handed out only while its independent
// reviews and live reservations number fewer than the reviews each case needs, so no case gets more
// reviewers than it needs while others wait. Reservations live in the server's memory, which the
// server copies to a file after each change (reservation-file.ts) and reads back when it starts.

/** The reviews each case needs when neither `--reviews-per-case` nor `--min-reviews` says. */
export const DEFAULT_REVIEWS_PER_CASE = 2
/** How long a case handed out stays reserved, in minutes, unless `--reserve-minutes` says. */
export const DEFAULT_RESERVE_MINUTES = 30
/** The longest reservation `--reserve-minutes` takes: a week. A case held longer is a case nobody reviews. */
export const MAX_RESERVE_MINUTES = 7 * 24 * 60
/** The most independent reviews `--reviews-per-case` asks of a case. */
export const MAX_REVIEWS_PER_CASE = 100

export interface AssignmentOptions {
  /** Independent reviews each case needs. */
  readonly reviewsPerCase: number
  /** How long a reservation lasts, in milliseconds. */
  readonly reserveMs: number
  /** The clock, in milliseconds. @default Date.now */
  readonly now?: () => number
}

/** The page's copy of the queue's reasons is the queue's own: each is assignable to the other, or the build fails. */
const reasonsAreTheQueues: [QueueReason] extends [NextReason] ? ([NextReason] extends [QueueReason] ? true : false) : false = true
void reasonsAreTheQueues

interface Reservation {
  readonly reviewer: string
  readonly until: number
}

/** A case a reviewer holds, until a time in milliseconds. */
export interface HeldCase extends Reservation {
  readonly fixture: number
  readonly caseId: string
}

/** The live reservations of the served fixtures, and the rule that hands cases out. */
export class Assignments {
  readonly reviewsPerCase: number
  readonly #reserveMs: number
  readonly #now: () => number
  /** By fixture, then case id, then reviewer. */
  readonly #held = new Map<number, Map<string, Map<string, Reservation>>>()
  /** The cases each reviewer skipped, by `fixture/case`, until when: not handed to them again meanwhile. */
  readonly #skipped = new Map<string, Map<string, number>>()

  constructor(options: AssignmentOptions) {
    // Checked here too, so that a wrong value stops the server at its start, not a reviewer's "next" (an invalid Date).
    const { reviewsPerCase, reserveMs } = options
    if (
      !Number.isInteger(reviewsPerCase) ||
      reviewsPerCase < 1 ||
      reviewsPerCase > MAX_REVIEWS_PER_CASE ||
      !(reserveMs > 0 && reserveMs <= MAX_RESERVE_MINUTES * 60_000)
    )
      throw new Error(
        `assignment needs 1 to ${MAX_REVIEWS_PER_CASE} reviews per case and a reservation of at most ${MAX_RESERVE_MINUTES} minutes, not ${JSON.stringify({ reviewsPerCase, reserveMs })}.`,
      )
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
  next(index: number, fixture: SomeFixture, reviewer: string, panel: PanelPolicy, queueOf: (policy: PanelPolicy) => ReviewerQueue): NextAnswer {
    const cases = this.#live(index)
    const now = this.#now()
    const until = now + this.#reserveMs
    const skipped = this.#skipped.get(reviewer) ?? new Map<string, number>()
    // The queue of a reviewer who must bring each case to the reviews it needs, not fewer.
    const queue = queueOf({ ...panel, minReviews: Math.max(panel.minReviews, this.reviewsPerCase) })
    // The case they hold, while their queue still lists it: not once they reviewed it meanwhile (from another page, or the CLI).
    const held = [...cases].find(([, by]) => by.has(reviewer))?.[0]
    const skippedUntil = (each: { readonly caseId: string }) => skipped.get(`${index}/${each.caseId}`) ?? 0
    const open = (each: QueueEntry) => {
      const reviews = fixture.panel.reviews.get(each.caseId)
      // Their own review gone stale (the answer, source or rubric changed) is theirs to revise: it holds its place already.
      if (each.reason === 'stale') return true
      if (reviews?.has(reviewer) === true) return false
      // A person counts once: a reservation still held by someone whose review is in (their save, a moment before its release) is not a second place.
      const others = [...(cases.get(each.caseId)?.keys() ?? [])].filter((name) => name !== reviewer && reviews?.has(name) !== true)
      return (reviews?.size ?? 0) + others.length < this.reviewsPerCase
    }
    const entry = (held === undefined ? undefined : queue.get(held)) ?? find(queue, (each) => skippedUntil(each) <= now && open(each))
    for (const [caseId, by] of [...cases]) if (by.has(reviewer) && caseId !== entry?.caseId) this.release(index, caseId, reviewer)
    if (entry === undefined) {
      // What is left may be only what they skipped: said, so that the page does not say every case is taken.
      const passedOver = [...queue].filter((each) => skippedUntil(each) > now && open(each)).map(skippedUntil)
      return passedOver.length === 0
        ? { next: null }
        : { next: null, skipped: { cases: passedOver.length, until: new Date(Math.min(...passedOver)).toISOString() } }
    }
    const by = cases.get(entry.caseId) ?? new Map<string, Reservation>()
    by.set(reviewer, { reviewer, until })
    cases.set(entry.caseId, by)
    return { next: { fixture: index, id: entry.caseId, reason: entry.reason, detail: entry.detail, expires: new Date(until).toISOString() } }
  }

  /**
   * Ends the reviewer's reservation of a case (a save, or a skip, after which the case is not handed
   * to them again for the reservation time); `false` when they held none.
   */
  release(index: number, caseId: string, reviewer: string, skip = false): boolean {
    if (skip) {
      const skipped = this.#skipped.get(reviewer) ?? new Map<string, number>()
      skipped.set(`${index}/${caseId}`, this.#now() + this.#reserveMs)
      this.#skipped.set(reviewer, skipped)
    }
    const cases = this.#live(index)
    const by = cases.get(caseId)
    const had = by?.delete(reviewer) === true
    if (by !== undefined && by.size === 0) cases.delete(caseId)
    return had
  }

  /** Every live reservation, by fixture position, case and reviewer: what the server keeps on disk. */
  held(): readonly HeldCase[] {
    const all: HeldCase[] = []
    for (const index of [...this.#held.keys()].sort((a, b) => a - b))
      for (const [caseId, by] of this.#live(index))
        for (const held of by.values()) all.push({ fixture: index, caseId, reviewer: held.reviewer, until: held.until })
    return all
  }

  /** Takes up a reservation held before a restart, unless its time has run out. */
  restore(held: HeldCase): void {
    if (held.until <= this.#now()) return
    const cases = this.#live(held.fixture)
    const by = cases.get(held.caseId) ?? new Map<string, Reservation>()
    by.set(held.reviewer, { reviewer: held.reviewer, until: held.until })
    cases.set(held.caseId, by)
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

/** The first entry of `queue` that `test` accepts, read no further. */
function find(queue: ReviewerQueue, test: (entry: QueueEntry) => boolean): QueueEntry | undefined {
  for (const entry of queue) if (test(entry)) return entry
  return undefined
}
