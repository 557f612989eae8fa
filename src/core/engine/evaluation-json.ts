import type { Decision } from '../contract/decision.js'
import type { SomeEvaluation } from './evaluate.js'
import { kindContext } from './fixture.js'
import type { DecisionJson, EvaluationJson } from '../contract/results.js'

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
