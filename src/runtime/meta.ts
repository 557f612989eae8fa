import type { CoverageCounts, Coverage } from '../core/coverage.js'
import type { DecisionStatus } from '../core/decision.js'

/** What a case test carries for reporters. */
export interface RubricCaseMeta {
  readonly role: 'case'
  /** The fixture directory as shown to the user. */
  readonly fixture: string
  readonly kind: string
  readonly id: string
  readonly split: string
  readonly status: DecisionStatus
  readonly reason: string
  readonly ratings?: Readonly<Record<string, string>>
  readonly scores?: Readonly<Record<string, number | null>>
  /** The fixture's coverage numbers, counted from the fixture on disk. */
  readonly coverage: CoverageCounts
}

/** What a fixture-level check (a benchmark gate) carries. */
export interface RubricCheckMeta {
  readonly role: 'check'
  readonly fixture: string
  readonly kind: string
  readonly name: string
}

/** What a fixture's test module carries: its full coverage, for reporters. */
export interface RubricFixtureMeta {
  readonly fixture: string
  readonly kind: string
  readonly name: string
  readonly coverage: Coverage
}

declare module 'vitest' {
  interface TaskMeta {
    /** Set on every test generated from a rubric fixture. */
    rubric?: RubricCaseMeta | RubricCheckMeta
    /** Set on the test module of a rubric fixture. */
    rubricFixture?: RubricFixtureMeta
  }
}
