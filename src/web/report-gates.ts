import { plural } from '../core/common/primitives.js'
import { comparisonCheck, type ComparisonGateReport } from '../core/compare/gate.js'
import type { SomeEvaluation } from '../core/engine/evaluate.js'
import type { PlannedCheck } from '../core/contract/results.js'
import type { ResolvedRubricOptions } from '../run/options.js'
import { estimateGateRequirement } from '../core/sample/estimate-gate.js'

/** A gate's check of one fixture, as the run decides it: passed, failed, or todo while it has no figure. */
export interface ReportGateCheck {
  /** The check's name, as Vitest shows it: `reviewers agree on command (α ≥ 0.8)`. */
  readonly name: string
  readonly status: 'passed' | 'failed' | 'todo'
  /** What it found, with the figures: the check's message. */
  readonly message: string
}

/**
 * The gates a static report shows: where they were read, what each requires, and each one's
 * checks of a fixture. The report computes none of them itself: the checks are the run's own
 * (`planFixtureTests`, the compare gates), given by whoever writes the report.
 */
export interface ReportGates {
  /** The Vitest config whose rubric() sets the gates, as shown; `null` when none was found (no gate is set). */
  readonly config: string | null
  /** What each gate set requires, one line each. */
  readonly requirements: readonly string[]
  /** Every gate's checks of the fixture in `dir` (absolute), given its evaluation. */
  readonly checksOf: (dir: string, evaluation: SomeEvaluation) => Promise<readonly ReportGateCheck[]>
  /** The judge of the fixture's estimate, as the run chose it (its first estimate gate's); by default as the page chooses. */
  readonly estimateJudgeOf?: (dir: string) => string | undefined
}

/** No Vitest config was found: no gate is set, and the report says so. */
export const NO_GATES: ReportGates = { config: null, requirements: [], checksOf: () => Promise.resolve([]) }

/** The fixture-level checks of a plan and the compare gates' reports, as the report lists them. */
export function reportGateChecks(checks: readonly PlannedCheck[], comparisons: readonly ComparisonGateReport[]): ReportGateCheck[] {
  return [...checks, ...comparisons.map(comparisonCheck)].map((check) => ({
    name: check.name,
    status: check.todo === true ? 'todo' : check.ok ? 'passed' : 'failed',
    message: check.message,
  }))
}

/** What each gate of the options requires, in words and figures: the agreement gate, each judge's, each compare gate, each estimate gate. */
export function gateRequirements(options: ResolvedRubricOptions): string[] {
  const lines: string[] = []
  if (options.agreement !== undefined)
    lines.push(`agreement: on every criterion, the reviewers' Krippendorff's α is at least ${options.agreement.min}; todo while there is no figure`)
  for (const [judge, gate] of Object.entries(options.judges ?? {})) {
    const accepts =
      gate.maxFalseAccepts === undefined
        ? ''
        : typeof gate.maxFalseAccepts === 'number'
          ? `, with at most ${plural(gate.maxFalseAccepts, 'false accept')}`
          : `, with false accepts at most ${Number((gate.maxFalseAccepts.rate * 100).toFixed(2))}% of the judgements the reviewers rated failing`
    const where = gate.fixtures === undefined ? 'the fixtures holding its labels' : `the fixtures ${gate.fixtures.join(', ')}`
    lines.push(
      `judge ${judge}: on every criterion, over at least ${plural(gate.minCases, 'case')} that both judged, the lower bound of κ's 95% interval is at least ${gate.minKappa}${accepts} (in ${where})`,
    )
  }
  for (const gate of options.compare) {
    const where = gate.fixtures === undefined ? 'each fixture' : `the fixtures ${gate.fixtures.join(', ')}`
    const margin = Number((gate.margin * 100).toFixed(2))
    lines.push(
      `compare: ${where} (B) is not worse than ${gate.against} (A) on ${gate.split === 'held_out' ? 'held-out' : 'development'} cases: the lower bound of the 95% interval of B − A (acceptance, paired) is at least −${plural(margin, 'point')}`,
    )
  }
  for (const gate of options.estimate) lines.push(estimateGateRequirement(gate))
  return lines
}
