import type { RubricErrorCode } from '../common/errors.js'
import type { Split } from '../common/primitives.js'
import { definitionOf, type FixtureKind, type SummaryOf } from '../kinds/index.js'
import type { Coverage } from './coverage.js'
import type { DecisionStatus, RefusedDecision } from './decision.js'
import type { FixtureEvaluation } from './evaluate.js'
import { kindContext, type FixtureIdentities, type FixtureNote, type LoadedFixture } from './fixture.js'
import { panelAgreement, type AgreementReport } from './agreement.js'
import type { PanelPolicy } from './panel-rule.js'

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

/** What a plan asks of its fixture beyond the files: the several-reviewer rule and the agreement gate. */
export interface PlanOptions {
  readonly panel?: PanelPolicy
  /** Add a check per criterion: reviewers agree on it with Krippendorff's alpha at least `min`. */
  readonly agreementGate?: { readonly min: number }
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
  /** How far the independent reviews agree; `null` for a fixture without any. */
  readonly agreement: AgreementReport | null
}

/**
 * What the test runtime needs to turn one evaluated fixture into tests: plain JSON, tagged by the
 * fixture's kind.
 */
export type TestPlan = { readonly [K in FixtureKind]: PlanOfKind<K> }[FixtureKind]

/** The tests an evaluation becomes in Vitest: one per case, the kind's fixture-level checks, and its summary. */
export function planFixtureTests(evaluation: FixtureEvaluation, options: PlanOptions = {}): TestPlan {
  const { fixture } = evaluation
  const definition = definitionOf(fixture.kind)
  const context = kindContext(fixture as LoadedFixture<FixtureKind>)
  const agreement = fixture.panel.reviewers.length === 0 ? null : panelAgreement(fixture)
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
    checks: [...definition.present.checks(evaluation.summary, context), ...agreementChecks(agreement, options.agreementGate)],
    summary: evaluation.summary,
    notes: evaluation.notes,
    agreement,
  } as TestPlan
}

/**
 * The agreement gate: one check per item, passing when Krippendorff's alpha reaches the minimum,
 * failing with the figures and the disagreeing cases, and todo while there is no figure.
 */
function agreementChecks(agreement: AgreementReport | null, gate: PlanOptions['agreementGate']): PlannedCheck[] {
  if (gate === undefined) return []
  if (agreement === null) return [{ name: `reviewers agree (α ≥ ${gate.min})`, ok: false, todo: true, message: 'no independent reviews yet: there is no figure to check' }]
  return Object.entries(agreement.items).map(([item, figures]) => {
    const name = `reviewers agree on ${item} (α ≥ ${gate.min})`
    if (figures.alpha === null) return { name, ok: false, todo: true, message: `no figure: ${figures.reason}` }
    const interval = figures.alpha_ci === null ? '' : ` [95% interval ${figures.alpha_ci[0].toFixed(3)}, ${figures.alpha_ci[1].toFixed(3)}]`
    const cases = `${figures.units} case${figures.units === 1 ? '' : 's'}`
    const disagreements = figures.disagreements.length === 0 ? 'no disagreement' : `disagreements: ${figures.disagreements.join(', ')}`
    const ok = figures.alpha >= gate.min
    return { name, ok, message: `alpha ${figures.alpha.toFixed(3)}${interval} ${ok ? '≥' : '<'} ${gate.min} over ${cases}; ${disagreements}` }
  })
}
