import type { CoverageCounts, Outcomes } from '../core/coverage.js'
import { SPLITS, type Split } from '../core/criteria/schemas.js'
import type { SerializedRubricError } from '../core/errors.js'
import type { TestPlan } from '../core/plan.js'
import type { BenchmarkFigures } from '../core/scored/benchmark.js'
import { recordDecisions, type RecordedDecisions } from '../core/recorded-decisions.js'

/** What happened to one case test in this run. */
export type CaseRun = 'executed' | 'todo' | 'filtered'

/** What the run did with a fixture's test module, read from Vitest's report. */
export interface ModuleRun {
  /** The module was collected in this run (not left out by a path filter or a shard). */
  readonly collected: boolean
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

export interface SplitFigures {
  readonly split: Split
  readonly execution: ExecutionCounts
  readonly review: CoverageCounts
}

export interface CriterionFigures {
  readonly criterion: string
  /** Cases with a `does_not_meet` rating on it, graded or pending. */
  readonly failed: number
  readonly uncertain: number
}

export interface FixtureFigures {
  /** The fixture directory as shown to the user. */
  readonly fixture: string
  readonly kind: string
  readonly name: string
  /** The fixture-level defect that refused it, if any: then it has no other figures. */
  readonly error: SerializedRubricError | null
  /** Splits that have candidates; never merged. */
  readonly splits: readonly SplitFigures[]
  readonly pendingCases: readonly { readonly id: string; readonly split: Split; readonly reason: string }[]
  readonly refusedCases: readonly { readonly id: string; readonly split: Split; readonly code: string; readonly message: string }[]
  readonly criteria: readonly CriterionFigures[]
  /** Fixture-level checks (benchmark gates) with their outcome. */
  readonly checks: readonly { readonly name: string; readonly ok: boolean; readonly message: string }[]
  readonly benchmark: BenchmarkFigures | null
  /** Decisions and identities, as a decision record holds them. */
  readonly record: RecordedDecisions | null
}

export interface RubricFigures {
  readonly fixtures: readonly FixtureFigures[]
  /** Sums over fixtures, per split. */
  readonly total: readonly SplitFigures[]
}

/** A fixture that could not be loaded, or its plan. */
export type FixtureSource =
  | { readonly fixture: string; readonly plan: TestPlan }
  | { readonly fixture: string; readonly error: SerializedRubricError }

const NOT_RUN: ModuleRun = { collected: false, cases: new Map() }

/** Counts the figures of every fixture on disk, with what this run executed of each. */
export function countFigures(sources: readonly FixtureSource[], runs: ReadonlyMap<string, ModuleRun>): RubricFigures {
  const fixtures = sources.map((source) => fixtureFigures(source, runs.get(source.fixture) ?? NOT_RUN))
  const total = SPLITS.map((split) => sumSplit(split, fixtures.flatMap((figures) => figures.splits.filter((row) => row.split === split))))
  return { fixtures, total: total.filter((row) => row.execution.candidates > 0) }
}

function fixtureFigures(source: FixtureSource, run: ModuleRun): FixtureFigures {
  if ('error' in source) {
    return {
      fixture: source.fixture,
      kind: 'unknown',
      name: source.fixture,
      error: source.error,
      splits: [],
      pendingCases: [],
      refusedCases: [],
      criteria: [],
      checks: [],
      benchmark: null,
      record: null,
    }
  }
  const { plan } = source
  const splits = SPLITS.flatMap((split) => {
    const review = plan.coverage.splits[split]
    if (review.candidates === 0) return []
    const cases = plan.cases.filter((planned) => planned.split === split)
    let executed = 0
    let todo = 0
    for (const planned of cases) {
      const state = run.cases.get(planned.id)
      if (state === 'executed') executed++
      else if (state === 'todo') todo++
    }
    return [{ split, execution: { candidates: cases.length, executed, todo, filtered: cases.length - executed - todo }, review }]
  })
  return {
    fixture: source.fixture,
    kind: plan.kind,
    name: plan.name,
    error: null,
    splits,
    pendingCases: plan.coverage.pendingCases,
    refusedCases: plan.coverage.refusedCases,
    criteria: criterionFigures(plan),
    checks: plan.checks,
    benchmark: plan.benchmark ?? null,
    record: recordDecisions(plan),
  }
}

function criterionFigures(plan: TestPlan): CriterionFigures[] {
  const figures = new Map<string, { failed: number; uncertain: number }>()
  for (const planned of plan.cases) {
    for (const [criterion, rating] of Object.entries(planned.ratings ?? {})) {
      const row = figures.get(criterion) ?? { failed: 0, uncertain: 0 }
      if (rating === 'does_not_meet') row.failed++
      if (rating === 'uncertain') row.uncertain++
      figures.set(criterion, row)
    }
  }
  return [...figures].map(([criterion, row]) => ({ criterion, ...row }))
}

function sumSplit(split: Split, rows: readonly SplitFigures[]): SplitFigures {
  const add = (pick: (row: SplitFigures) => number) => rows.reduce((sum, row) => sum + pick(row), 0)
  const outcomes = rows.map((row) => row.review.outcomes).filter((item): item is Outcomes => item !== null)
  const graded = add((row) => row.review.graded)
  return {
    split,
    execution: {
      candidates: add((row) => row.execution.candidates),
      executed: add((row) => row.execution.executed),
      todo: add((row) => row.execution.todo),
      filtered: add((row) => row.execution.filtered),
    },
    review: {
      candidates: add((row) => row.review.candidates),
      graded,
      pending: add((row) => row.review.pending),
      refused: add((row) => row.review.refused),
      outcomes:
        graded === 0
          ? null
          : {
              accepted: outcomes.reduce((sum, item) => sum + item.accepted, 0),
              rejected: outcomes.reduce((sum, item) => sum + item.rejected, 0),
            },
    },
  }
}
