import type { Coverage } from './coverage.js'
import type { FixtureIdentities } from './criteria/record.js'
import type { Split } from './criteria/schemas.js'
import type { DecisionStatus } from './decision.js'
import type { BenchmarkFigures } from './scored/benchmark.js'

/**
 * What the test runtime needs to turn one evaluated fixture into tests, whatever its kind: plain
 * JSON, computed in the main process and handed to the test worker.
 */
export interface TestPlan {
  readonly kind: string
  /** The fixture directory as shown to the user. */
  readonly dir: string
  readonly name: string
  readonly coverage: Coverage
  readonly identities: FixtureIdentities
  /** One test per case, in the fixture's order. */
  readonly cases: readonly PlannedCase[]
  /** Fixture-level tests beside the cases (a benchmark gate, a baseline margin). */
  readonly checks: readonly PlannedCheck[]
  /** The benchmark figures for the reporter (scored fixtures only; absent otherwise). */
  readonly benchmark?: BenchmarkFigures
}

export interface PlannedCase {
  readonly id: string
  readonly split: Split
  readonly status: DecisionStatus
  /** One line: the failed criteria, the pending reason or the refusal summary. */
  readonly reason: string
  /** The full failure text of a rejected or refused case. */
  readonly message?: string
  /** Ratings by criterion (criteria fixtures). */
  readonly ratings?: Readonly<Record<string, string>>
  /** Scores by dimension, `null` for N/A (scored fixtures). */
  readonly scores?: Readonly<Record<string, number | null>>
}

export interface PlannedCheck {
  readonly name: string
  readonly ok: boolean
  /** Why the check passed or failed, with the figures. */
  readonly message: string
}
