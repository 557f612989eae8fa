import type { Coverage } from './coverage.js'
import type { Decision, DecisionStatus } from './decision.js'
import type { SomeEvaluation } from './evaluate.js'
import { kindContext, type FixtureIdentities, type FixtureNote } from './fixture.js'
import type { Split } from '../common/primitives.js'

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

/** One decision as `evaluate --json` prints it under `decisions[<id>]`. */
export function decisionJson<D extends Decision>(
  definition: { readonly present: { decisionJson(decision: D): Readonly<Record<string, unknown>> } },
  decision: D,
): DecisionJson {
  return { status: decision.status, split: decision.split, reason: decision.reason, ...definition.present.decisionJson(decision) }
}

/** An evaluation as `evaluate --json` prints it. */
export function evaluationJson(evaluation: SomeEvaluation): EvaluationJson {
  const { fixture } = evaluation
  const definition = fixture.definition
  const context = kindContext(fixture)
  const decisions: Record<string, DecisionJson> = {}
  for (const decision of evaluation.decisions) {
    // Set as JSON.parse sets keys: an assignment to "__proto__" would be lost.
    Object.defineProperty(decisions, decision.id, { value: decisionJson(definition, decision), enumerable: true, writable: true, configurable: true })
  }
  const summary = definition.present.summaryJson(evaluation.summary)
  return {
    fixture: { kind: fixture.kind, dir: fixture.displayDir, name: fixture.name, rubric: definition.present.rubricName(context), origin: fixture.origin },
    identities: evaluation.identities,
    coverage: evaluation.coverage,
    decisions,
    ...(summary === undefined ? {} : { [summary.key]: summary.value }),
    ...(evaluation.notes.length === 0 ? {} : { notes: evaluation.notes }),
  }
}
