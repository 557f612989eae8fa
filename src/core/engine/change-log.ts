/** The cases an update of a kept evaluation decided again: their ids, or `'all'` when every case may have changed or moved. */
export type DecidedCases = 'all' | ReadonlySet<string>

/** The updates a log keeps: a reader further behind reads every case again. */
const KEPT_UPDATES = 256
const NOTHING: ReadonlySet<string> = new Set()

/**
 * The cases each update of an {@link IncrementalEvaluation} decided again, numbered, so that what a
 * reader keeps of it case by case (a reviewer's queue) catches up by reading those cases alone. A
 * case left out of every update since a version has the same assessment object as then.
 */
export class ChangeLog {
  #version = 0
  readonly #updates: { readonly version: number; readonly cases: 'all' | readonly string[] }[] = []

  /** The number of the last update noted; `0` before the first. */
  get version(): number {
    return this.#version
  }

  /** Notes an update that decided `cases` again (`'all'`: every case may have changed, or the cases moved). */
  note(cases: 'all' | readonly string[]): void {
    this.#version++
    this.#updates.push({ version: this.#version, cases })
    if (this.#updates.length > KEPT_UPDATES) this.#updates.shift()
  }

  /** The cases decided again by the updates after `version`: `'all'` when one of them said so, or they are no longer all kept. */
  since(version: number): DecidedCases {
    if (version === this.#version) return NOTHING
    const first = this.#updates[0]
    if (first === undefined || version < first.version - 1 || version > this.#version) return 'all'
    const cases = new Set<string>()
    for (const update of this.#updates) {
      if (update.version <= version) continue
      if (update.cases === 'all') return 'all'
      for (const id of update.cases) cases.add(id)
    }
    return cases
  }
}
