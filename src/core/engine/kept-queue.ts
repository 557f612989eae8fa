import type { ReadSample } from '../sample/sample-file.js'
import type { DecidedUnder } from './decided-under.js'
import type { IncrementalEvaluation } from './incremental.js'
import { QUEUE_REASONS, queueEntryOf, queueReading, type QueueEntry, type QueueReading } from './review-queue.js'
import { queueFindings } from './status.js'

/** A review queue read in order, and looked up by case. */
export interface ReviewerQueue extends Iterable<QueueEntry> {
  /** The case's entry, when the queue lists it. */
  get(caseId: string): QueueEntry | undefined
}

/** The queue of `entries`, in their order. */
export function listedQueue(entries: readonly QueueEntry[]): ReviewerQueue {
  const byCase = new Map(entries.map((entry) => [entry.caseId, entry]))
  return { get: (caseId) => byCase.get(caseId), [Symbol.iterator]: () => entries[Symbol.iterator]() }
}

const rank = new Map<string, number>(QUEUE_REASONS.map((reason, index) => [reason, index]))

/**
 * One reviewer's review queue of a kept evaluation, read under another several-reviewer policy
 * ({@link DecidedUnder}), kept case by case. A read after an update reads again only the cases the
 * update decided again (the evaluation's change log): each other case has the same assessment, so
 * the same findings and the same entry. What every case is read by (the sample, the evaluation's
 * notes, the evaluation itself) reads every case again when it changes. Equal to
 * `reviewQueue(fixture, { for: { reviewer }, panel, sample })` of the same files.
 */
export class KeptQueue implements ReviewerQueue {
  readonly #reviewer: string
  readonly #under: DecidedUnder
  #kept: IncrementalEvaluation | undefined
  /** The cases of the fixture as last read: what the positions are positions in. */
  #cases: readonly { readonly id: string }[] = []
  #version = 0
  #key = ''
  #reading: QueueReading | undefined
  readonly #entries = new Map<string, QueueEntry>()
  /** The positions of the cases listed, by reason (in the order of the reasons), each ascending. */
  #positions: number[][] = QUEUE_REASONS.map(() => [])

  constructor(reviewer: string, under: DecidedUnder) {
    this.#reviewer = reviewer
    this.#under = under
  }

  /** Brought up to `kept` as last read, with the fixture's sample as read now (`sha256` tells it changed). */
  read(kept: IncrementalEvaluation, sample: ReadSample): ReviewerQueue {
    const fixture = kept.fixture
    const noted = new Set(kept.evaluation.notes.map((note) => note.file))
    const notedKey = [...noted].join('\u0000')
    const key = `${sample.sha256 ?? ''}\u0000${notedKey}`
    const changed = kept !== this.#kept || key !== this.#key ? 'all' : kept.changes.since(this.#version)
    this.#kept = kept
    this.#version = kept.changes.version
    this.#key = key
    this.#cases = fixture.cases
    if (changed === 'all' || this.#reading?.fixture !== fixture)
      this.#reading = queueReading(fixture, { sample: sample.sample, for: { reviewer: this.#reviewer } })
    const reading = this.#reading
    const entryAt = (position: number) => {
      const entry = fixture.cases[position]!
      return queueEntryOf(reading, entry, queueFindings(fixture, entry, this.#under.at(kept, position), noted, notedKey))
    }
    if (changed === 'all') {
      this.#entries.clear()
      this.#positions = QUEUE_REASONS.map(() => [])
      for (let position = 0; position < fixture.cases.length; position++) {
        const found = entryAt(position)
        if (found === undefined) continue
        this.#entries.set(found.caseId, found)
        this.#positions[rank.get(found.reason)!]!.push(position)
      }
      return this
    }
    for (const caseId of changed) {
      const position = kept.positionOf(caseId)
      const before = this.#entries.get(caseId)
      if (before !== undefined) {
        this.#entries.delete(caseId)
        // Cases keep their positions between updates that name them: one that moved makes the log say `'all'`.
        if (position !== undefined) remove(this.#positions[rank.get(before.reason)!]!, position)
      }
      const found = position === undefined ? undefined : entryAt(position)
      if (found === undefined || position === undefined) continue
      this.#entries.set(caseId, found)
      insert(this.#positions[rank.get(found.reason)!]!, position)
    }
    return this
  }

  get(caseId: string): QueueEntry | undefined {
    return this.#entries.get(caseId)
  }

  *[Symbol.iterator](): Iterator<QueueEntry> {
    for (const positions of this.#positions) for (const position of positions) yield this.#entries.get(this.#cases[position]!.id)!
  }
}

/** The index in ascending `positions` where `position` is, or would go. */
function place(positions: readonly number[], position: number): number {
  let low = 0
  let high = positions.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (positions[middle]! < position) low = middle + 1
    else high = middle
  }
  return low
}

function insert(positions: number[], position: number): void {
  positions.splice(place(positions, position), 0, position)
}

function remove(positions: number[], position: number): void {
  const at = place(positions, position)
  if (positions[at] === position) positions.splice(at, 1)
}
