// What the engine reports of a fixture and what a kind adds to it: planned tests, coverage and
// the JSON of \`evaluate --json\`. Types only, importing no engine module.
import type { RubricErrorCode } from '../common/errors.js'
import type { Split } from '../common/primitives.js'
import type { DecisionStatus } from './decision.js'

/** A JSON value, as a plan holds it. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue }

/** What a kind adds to a planned case: its failure text, and its ratings or scores as JSON. */
export interface PlannedCaseDetail {
  /** The full failure text of a rejected or refused case. */
  readonly message?: string
  /** Kind-specific figures of the case, copied to its test's meta and to the decision record: `{ ratings }`, `{ scores }`. */
  readonly detail: Readonly<Record<string, JsonValue>>
}

/** One case as a test: plain JSON, computed in the main process and handed to the test worker. */
export interface PlannedCase extends PlannedCaseDetail {
  readonly id: string
  readonly split: Split
  readonly status: DecisionStatus
  /** One line: the failed criteria, the pending reason or the refusal summary. */
  readonly reason: string
  /** The error code of a refused case. */
  readonly code?: RubricErrorCode
}

/** A fixture-level test beside the cases (a benchmark gate, a baseline margin). */
export interface PlannedCheck {
  readonly name: string
  readonly ok: boolean
  /** Why the check passed or failed, with the figures. */
  readonly message: string
  /** The check has nothing to decide on yet (no figure): a todo test, never a pass or a fail. */
  readonly todo?: boolean
}

/** Accepted and rejected among graded cases; `null` when nothing was graded. */
export interface Outcomes {
  readonly accepted: number
  readonly rejected: number
  /** `accepted / (accepted + rejected)`. */
  readonly rate: number
  /** The Wilson 95% score interval of the rate: a rate over 3 cases is not one over 3,000. */
  readonly interval: readonly [number, number]
}

/** The counts of one split, or of all cases. */
export interface CoverageCounts {
  /** Every case on disk. */
  readonly candidates: number
  /** Accepted plus rejected: cases with a completed review. */
  readonly graded: number
  /** Cases awaiting review: never a pass, never a fail. */
  readonly pending: number
  /** Cases refused by a binding or provenance check: counted apart from graded and pending. */
  readonly refused: number
  /** `null` when no case was graded: zero completed reviews are not a quality figure. */
  readonly outcomes: Outcomes | null
}

/** A fixture's review coverage: what is graded, what is pending and why, what is refused and why. */
export interface Coverage extends CoverageCounts {
  readonly pendingCases: readonly { readonly id: string; readonly split: Split; readonly reason: string }[]
  readonly refusedCases: readonly { readonly id: string; readonly split: Split; readonly code: RubricErrorCode; readonly message: string }[]
  /** The same counts for each split; `development` and `held_out` are never merged. */
  readonly splits: Readonly<Record<Split, CoverageCounts>>
}

/** The identities of what a set of decisions was made from. */
export interface FixtureIdentities {
  /** Fingerprint of the full case set (the `cases.json` document less `$schema`); `null` if a case has no canonical form. */
  readonly caseSetSha256: string | null
  /** Fingerprint of the array of graded cases (accepted or rejected), as they stand in `cases.json`. */
  readonly gradedSetSha256: string | null
  /** SHA-256 of the raw bytes of each fixture file, by file name. */
  readonly files: Readonly<Record<string, string>>
}

/** An explanation that holds for a whole fixture, given once rather than with every case it touches. */
export interface FixtureNote {
  /** The file it is about, as shown. */
  readonly file: string
  readonly text: string
}

/** One case of `evaluate --json`: its status, split and reason, then what its kind adds (`ratings`, `scores`, …). */
export interface DecisionJson {
  readonly status: DecisionStatus
  readonly split: Split
  readonly reason: string
  readonly [detail: string]: unknown
}

/**
 * What `vitest-rubric evaluate --json` prints for a fixture: a stable, documented interface that
 * other tools read (see docs/cli.md). Each case is under `decisions[<id>]`; `coverage` counts
 * them. A kind may add its summary under a key of its own (`benchmark`).
 */
export interface EvaluationJson {
  readonly fixture: {
    readonly kind: string
    readonly dir: string
    readonly name: string
    /** The rubric and its revision: `staging-rollback-explanation@1`. */
    readonly rubric: string
    readonly origin: string
  }
  readonly identities: FixtureIdentities
  readonly coverage: Coverage
  readonly decisions: Readonly<Record<string, DecisionJson>>
  /** Explanations given once for the fixture; absent when there are none. */
  readonly notes?: readonly FixtureNote[]
  readonly [summary: string]: unknown
}
