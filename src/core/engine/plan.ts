import type { RubricErrorCode } from '../common/errors.js'
import type { Split } from '../common/primitives.js'
import { definitionOf, type FixtureKind, type SummaryOf } from '../kinds/index.js'
import type { Coverage } from './coverage.js'
import type { DecisionStatus, RefusedDecision } from './decision.js'
import type { FixtureEvaluation } from './evaluate.js'
import { kindContext, type FixtureIdentities, type FixtureNote, type LoadedFixture } from './fixture.js'

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
}

interface PlanOfKind<K extends FixtureKind> {
  readonly kind: K
  /** The fixture directory as shown to the user. */
  readonly dir: string
  readonly name: string
  readonly coverage: Coverage
  readonly identities: FixtureIdentities
  /** One test per case, in the fixture's order. */
  readonly cases: readonly PlannedCase[]
  readonly checks: readonly PlannedCheck[]
  /** The kind's fixture-level figures (a benchmark's), for the reporter. */
  readonly summary: SummaryOf<K>
  /** Explanations that hold for the whole fixture, given once (a file whose line endings changed). */
  readonly notes: readonly FixtureNote[]
}

/**
 * What the test runtime needs to turn one evaluated fixture into tests: plain JSON, tagged by the
 * fixture's kind.
 */
export type TestPlan = { readonly [K in FixtureKind]: PlanOfKind<K> }[FixtureKind]

/** The tests an evaluation becomes in Vitest: one per case, the kind's fixture-level checks, and its summary. */
export function planFixtureTests(evaluation: FixtureEvaluation): TestPlan {
  const { fixture } = evaluation
  const definition = definitionOf(fixture.kind)
  const context = kindContext(fixture as LoadedFixture<FixtureKind>)
  return {
    kind: fixture.kind,
    dir: fixture.displayDir,
    name: fixture.name,
    coverage: evaluation.coverage,
    identities: evaluation.identities,
    cases: evaluation.decisions.map((decision): PlannedCase => {
      const detail = definition.present.plannedCase(decision, context)
      const base = { id: decision.id, split: decision.split, status: decision.status, reason: decision.reason }
      return decision.status === 'refused' ? { ...base, code: (decision as RefusedDecision).error.code, ...detail } : { ...base, ...detail }
    }),
    checks: definition.present.checks(evaluation.summary, context),
    summary: evaluation.summary,
    notes: evaluation.notes,
  } as TestPlan
}
