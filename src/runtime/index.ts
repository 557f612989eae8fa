import { readFileSync } from 'node:fs'
import { afterAll, describe, test, TestRunner } from 'vitest'
import type { SerializedRubricError } from '../core/common/errors.js'
import type { DecisionStatus } from '../core/engine/decision.js'
import type { PlannedCase, TestPlan } from '../core/engine/plan.js'
import type { RubricCaseMeta } from './meta.js'

export type { RubricCaseMeta, RubricCheckMeta, RubricFixtureMeta } from './meta.js'

/** How this run's decisions differ from the fixture's decision record (found in the main process). */
export interface RecordComparison {
  /** The record file's name. */
  readonly file: string
  /** One line per difference. */
  readonly changes: readonly string[]
  /** The differing parts of the record and of this run, for Vitest's diff. */
  readonly recorded: unknown
  readonly current: unknown
}

/** What the plugin hands to a fixture's test module. */
export interface RubricModule {
  readonly plan: TestPlan
  readonly record: RecordComparison | null
}

/** An expected failure of a rubric test: its message says everything, its stack nothing. */
class RubricFailure extends Error {
  constructor(message: string, details: { expected?: unknown; actual?: unknown } = {}) {
    super(message)
    this.name = 'RubricFailure'
    this.stack = `${this.name}: ${message}`
    Object.assign(this, details)
  }
}

type Declare = (name: string, meta: RubricCaseMeta, planned: PlannedCase) => void

const fail = (message: string | undefined) => () => {
  throw new RubricFailure(message ?? 'the case failed')
}
const pass = () => {}

/** How each decision becomes a Vitest test: a new status cannot compile until it is mapped here. */
const declareCase: Record<DecisionStatus, Declare> = {
  accepted: (name, meta) => test(name, { meta: { rubric: meta } }, pass),
  rejected: (name, meta, planned) => test(name, { meta: { rubric: meta } }, fail(planned.message)),
  pending: (name, meta, planned) => test.todo(`${name} — pending: ${planned.reason}`, { meta: { rubric: meta } }),
  refused: (name, meta, planned) => test(name, { meta: { rubric: meta } }, fail(`refused: ${planned.message ?? planned.reason}`)),
}

/** Declares one test per case (grouped by split), the fixture's checks and the record check. */
export function defineRubricTests({ plan, record }: RubricModule): void {
  TestRunner.getCurrentSuite().file.meta.rubricFixture = { fixture: plan.dir, kind: plan.kind, name: plan.name, coverage: plan.coverage }

  const splits = [...new Set(plan.cases.map((planned) => planned.split))]
  for (const split of splits) {
    describe(split, () => {
      for (const planned of plan.cases) {
        if (planned.split !== split) continue
        const meta = { role: 'case', id: planned.id, split: planned.split, status: planned.status, reason: planned.reason, ...planned.detail } as RubricCaseMeta
        declareCase[planned.status](planned.id, meta, planned)
      }
    })
  }

  // A fixture without cases yet (just scaffolded) stays visible as pending, never as a pass.
  if (plan.cases.length === 0 && plan.checks.length === 0) test.todo('no cases yet: add them to cases.json')

  for (const check of plan.checks) {
    const meta = { rubric: { role: 'check', name: check.name } as const }
    test(check.name, { meta }, check.ok ? pass : fail(check.message))
  }

  // The record check fails the module rather than adding a test, so that the case counts stay
  // the decisions' counts; it runs last, after every case test has reported.
  if (record !== null) {
    afterAll(() => {
      throw new RubricFailure(
        [
          `the decisions or bindings differ from ${record.file}:`,
          record.changes.map((change) => `  ${change}`).join('\n'),
          'If the change is intended, run `vitest -u` to rewrite the record, then review and commit its diff.',
        ].join('\n'),
        { expected: record.recorded, actual: record.current },
      )
    })
  }
}

/** Reads the plan the plugin stored for this module and declares its tests. */
export function loadRubricTests(planFile: string, record: RecordComparison | null): void {
  defineRubricTests({ plan: JSON.parse(readFileSync(planFile, 'utf8')) as TestPlan, record })
}

/** Fails a fixture's test module at collection: the fixture could not be loaded. */
export function failRubricFixture(error: SerializedRubricError): never {
  const failure = new RubricFailure(error.message)
  failure.name = error.name
  failure.stack = `${error.name}: ${error.message}`
  throw failure
}
