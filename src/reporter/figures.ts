import type { IntervalReport } from '../core/stats/bootstrap.js'
import type { SerializedRubricError } from '../core/common/errors.js'
import { SPLITS, type Split } from '../core/common/primitives.js'
import { outcomesOf } from '../core/engine/coverage.js'
import type { CoverageCounts, Outcomes } from '../core/contract/results.js'
import { recordDecisions } from '../core/engine/decision-record.js'
import type { FixtureNote } from '../core/contract/results.js'
import type { CalibrationReport } from '../core/engine/calibration.js'
import type { ComparisonGateReport } from '../core/compare/gate.js'
import type { TestPlan } from '../core/engine/plan.js'
import type { PlannedCheck } from '../core/contract/results.js'
import type { CaseRun } from '../run/case-runs.js'
import type { EstimateRefusal, FixtureEstimates } from '../run/estimates.js'
import type { FixtureEstimate } from '../core/sample/fixture-estimate.js'

/** What the run did with a fixture's test module, read from Vitest's report. */
export interface ModuleRun {
  /** Case ids by what happened to their test. */
  readonly cases: ReadonlyMap<string, CaseRun>
}

/** Execution coverage: what ran, out of the candidates on disk. */
export interface ExecutionCounts {
  readonly candidates: number
  /** Tests that ran and passed or failed. */
  readonly executed: number
  /** Pending cases, declared as todo. */
  readonly todo: number
  /** Left out by a name or path filter or by a shard. */
  readonly filtered: number
}

/** Execution and review coverage of one split, or of every case (`split: 'all'`). */
export interface CoverageRow {
  readonly split: Split | 'all'
  readonly execution: ExecutionCounts
  readonly review: CoverageCounts
}

/** A fixture that could not be loaded: it has no figures, only its error. */
export interface RefusedFixtureFigures {
  readonly status: 'refused'
  /** The Vitest project it belongs to; `''` without projects. */
  readonly project: string
  /** The fixture directory as shown to the user. */
  readonly fixture: string
  readonly error: SerializedRubricError
}

/** A loaded fixture's figures: execution from the run, review coverage and outcomes from disk. */
export interface LoadedFixtureFigures {
  readonly status: 'loaded'
  readonly project: string
  readonly fixture: string
  readonly kind: string
  readonly name: string
  /** Who or what made the judgements (`annotations.json › origin`); `null` while it is not given. */
  readonly origin: string | null
  /** Every case of the fixture. */
  readonly total: CoverageRow
  /** The splits that have candidates; never merged into each other. */
  readonly splits: readonly CoverageRow[]
  readonly pendingCases: readonly { readonly id: string; readonly split: Split; readonly reason: string }[]
  readonly refusedCases: readonly { readonly id: string; readonly split: Split; readonly code: string; readonly message: string }[]
  /** Fixture-level checks (benchmark gates, the estimate gates) with their outcome. */
  readonly checks: readonly PlannedCheck[]
  readonly notes: readonly FixtureNote[]
  /** The plan, for the kind's own lines (failures by criterion, a benchmark), and for the JSON report's record of decisions. */
  readonly plan: TestPlan
  /** How far the independent reviews agree, with the disagreements still pending; `null` without any. */
  readonly agreement: AgreementFigures | null
  /** How far each automated judge agrees with the reviewers; `null` without judges. */
  readonly calibration: CalibrationReport | null
  /** The compare gates' reports on this fixture (B) against their `against` fixture (A); empty without any. */
  readonly comparisons: readonly ComparisonGateReport[]
  /** The judge-assisted estimate of each split's acceptance rate; `null` without a sample and a judge. */
  readonly estimate: FixtureEstimate | EstimateRefusal | null
}

/** The review agreement of a fixture, as the reporter shows it. */
export interface AgreementFigures {
  readonly level: 'nominal' | 'interval'
  readonly reviewers: readonly string[]
  readonly cases: number
  /** Per item: alpha with its interval (or why there is none), and the cases it rests on. */
  readonly items: Readonly<
    Record<
      string,
      {
        readonly alpha: number | null
        readonly alpha_ci: readonly [number, number] | null
        /** What the interval resampled and the share of its replicates skipped; `null` without an interval. */
        readonly alpha_bootstrap: IntervalReport['bootstrap']
        readonly reason: string | null
        readonly units: number
        readonly disagreements: readonly string[]
      }
    >
  >
  /** Disagreeing cases still pending, with their reasons. */
  readonly pendingDisagreements: readonly { readonly id: string; readonly reason: string }[]
}

/** What the reporter counts of one fixture: refused as a whole, or loaded with its figures. */
export type FixtureFigures = RefusedFixtureFigures | LoadedFixtureFigures

/** Totals over several fixtures: outcomes are kept per kind, since one kind's accepted is not another's passed. */
export interface TotalFigures {
  readonly fixtures: number
  readonly execution: ExecutionCounts
  readonly review: Omit<CoverageCounts, 'outcomes'>
  readonly outcomes: Readonly<Partial<Record<string, Outcomes | null>>>
}

/** What the reporter counts over a run: each fixture, and the totals over them. */
export interface RubricFigures {
  readonly fixtures: readonly FixtureFigures[]
  /** Over every loaded fixture; `null` with fewer than two fixtures. */
  readonly total: TotalFigures | null
  /** More than one Vitest project: fixtures are named with their project. */
  readonly projects: number
}

/** A fixture of a project: its plan, or the error that refused it. */
export type FixtureSource = {
  readonly project: string
  readonly fixture: string
  readonly comparisons?: readonly ComparisonGateReport[]
  readonly estimates?: FixtureEstimates
} & ({ readonly plan: TestPlan } | { readonly error: SerializedRubricError })

/** The key of a fixture in a run: its project and its directory. */
/** What a fixture-level check came to, as its test did: a check with no figure yet is todo, never a failure. */
export type CheckOutcome = 'passed' | 'failed' | 'todo'

/** The outcome of a check, the one reading for the terminal block and the job summary. */
export function checkOutcome(check: PlannedCheck): CheckOutcome {
  if (check.todo === true) return 'todo'
  return check.ok ? 'passed' : 'failed'
}

export function runKey(project: string, fixture: string): string {
  return JSON.stringify([project, fixture])
}

const NOT_RUN: ModuleRun = { cases: new Map() }

/** Counts the figures of every fixture on disk, with what this run executed of each. */
export function countFigures(sources: readonly FixtureSource[], runs: ReadonlyMap<string, ModuleRun>): RubricFigures {
  const fixtures = sources.map((source) => fixtureFigures(source, runs.get(runKey(source.project, source.fixture)) ?? NOT_RUN))
  const loaded = fixtures.filter((figures) => figures.status === 'loaded')
  return {
    fixtures,
    total: fixtures.length > 1 ? totalOf(loaded, fixtures.length) : null,
    projects: new Set(sources.map((source) => source.project)).size,
  }
}

function fixtureFigures(source: FixtureSource, run: ModuleRun): FixtureFigures {
  if ('error' in source) return { status: 'refused', project: source.project, fixture: source.fixture, error: source.error }
  const { plan } = source
  // The execution counts of every split and of all the cases, in one pass over the plan.
  const counts = new Map<Split | 'all', { candidates: number; executed: number; todo: number }>([['all', { candidates: 0, executed: 0, todo: 0 }]])
  for (const planned of plan.cases) {
    let mine = counts.get(planned.split)
    if (mine === undefined) counts.set(planned.split, (mine = { candidates: 0, executed: 0, todo: 0 }))
    const state = run.cases.get(planned.id)
    for (const each of [counts.get('all')!, mine]) {
      each.candidates++
      if (state === 'executed') each.executed++
      else if (state === 'todo') each.todo++
    }
  }
  const rowOf = (split: Split | 'all', review: CoverageCounts): CoverageRow => {
    const { candidates, executed, todo } = counts.get(split) ?? { candidates: 0, executed: 0, todo: 0 }
    return { split, execution: { candidates, executed, todo, filtered: candidates - executed - todo }, review }
  }
  return {
    status: 'loaded',
    project: source.project,
    fixture: source.fixture,
    kind: plan.kind,
    name: plan.name,
    // A plan cached before the origin was part of it has none: read as not given.
    origin: plan.origin ?? null,
    total: rowOf('all', countsOf(plan.coverage)),
    splits: SPLITS.filter((split) => plan.coverage.splits[split].candidates > 0).map((split) => rowOf(split, plan.coverage.splits[split])),
    pendingCases: plan.coverage.pendingCases,
    refusedCases: plan.coverage.refusedCases,
    checks: [...plan.checks, ...(source.estimates?.checks ?? [])],
    notes: plan.notes,
    plan,
    agreement: agreementFigures(plan),
    calibration: plan.calibration ?? null,
    comparisons: source.comparisons ?? [],
    estimate: source.estimates?.figures ?? null,
  }
}

function agreementFigures(plan: TestPlan): AgreementFigures | null {
  const { agreement } = plan
  if (agreement === null || agreement === undefined) return null
  const disagreeing = new Set(Object.values(agreement.items).flatMap((item) => item.disagreements))
  return {
    level: agreement.level,
    reviewers: agreement.reviewers,
    cases: agreement.cases,
    items: Object.fromEntries(
      Object.entries(agreement.items).map(([name, item]) => [
        name,
        {
          alpha: item.alpha,
          alpha_ci: item.alpha_ci,
          alpha_bootstrap: item.alpha_bootstrap,
          reason: item.reason,
          units: item.units,
          disagreements: item.disagreements,
        },
      ]),
    ),
    pendingDisagreements: plan.coverage.pendingCases.filter((item) => disagreeing.has(item.id)).map(({ id, reason }) => ({ id, reason })),
  }
}

function totalOf(fixtures: readonly LoadedFixtureFigures[], count: number): TotalFigures {
  const add = (pick: (row: CoverageRow) => number) => fixtures.reduce((sum, figures) => sum + pick(figures.total), 0)
  const outcomes: Partial<Record<string, Outcomes | null>> = {}
  for (const figures of fixtures) {
    const mine = figures.total.review.outcomes
    const sum = outcomes[figures.kind]
    if (mine === null) outcomes[figures.kind] ??= null
    else outcomes[figures.kind] = outcomesOf((sum?.accepted ?? 0) + mine.accepted, (sum?.rejected ?? 0) + mine.rejected)
  }
  return {
    fixtures: count,
    execution: {
      candidates: add((row) => row.execution.candidates),
      executed: add((row) => row.execution.executed),
      todo: add((row) => row.execution.todo),
      filtered: add((row) => row.execution.filtered),
    },
    review: {
      candidates: add((row) => row.review.candidates),
      graded: add((row) => row.review.graded),
      pending: add((row) => row.review.pending),
      refused: add((row) => row.review.refused),
    },
    outcomes,
  }
}

/** The figures as the JSON report holds them: each loaded fixture with its kind's summary, not its whole plan. */
export function reportJson(figures: RubricFigures, extra: Readonly<Record<string, unknown>>): unknown {
  return {
    fixtures: figures.fixtures.map((fixture) => {
      if (fixture.status === 'refused') return fixture
      // The record of every decision is written out only here: a run without a JSON report does not build it.
      const { plan, agreement, calibration, comparisons, ...rest } = fixture
      return { ...rest, record: recordDecisions(plan), agreement, calibration, comparisons, summary: plan.summary }
    }),
    total: figures.total,
    projects: figures.projects,
    ...extra,
  }
}

function countsOf(coverage: CoverageCounts): CoverageCounts {
  const { candidates, graded, pending, refused, outcomes } = coverage
  return { candidates, graded, pending, refused, outcomes }
}
