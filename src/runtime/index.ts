import { readFileSync } from 'node:fs'
import { afterAll, describe, test, TestRunner } from 'vitest'
import type { SerializedRubricError } from '../core/common/errors.js'
import { valueAt } from '../core/common/json-path.js'
import type { DecisionStatus } from '../core/contract/decision.js'
import { NO_CASES_YET } from '../core/engine/no-cases.js'
import type { ChunkPlan, TestPlan } from '../core/engine/plan.js'
import type { PlannedCase } from '../core/contract/results.js'
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

/**
 * With `expect: 'record'`: the cases whose decision differs from the record (found in the main
 * process), each with its recorded entry (`null` for a case the record lacks) and its current one.
 */
export interface ExpectedDecisions {
  /** The record file's name. */
  readonly file: string
  readonly differing: Readonly<Record<string, { readonly recorded: unknown; readonly current: unknown }>>
}

/**
 * A case as its test is declared: the plan's case without its kind's figures (`detail`), which
 * reporters read from the plan in the main process.
 */
export type CaseTest = Omit<PlannedCase, 'detail'>

/** A plan whose cases are tests. */
type TestsOf<P extends { readonly cases: readonly PlannedCase[] }> = Omit<P, 'cases'> & { readonly cases: readonly CaseTest[] }

/** What a module's tests are declared from: a whole fixture's plan, or one chunk's (which has no fixture-level checks); a plan with its figures serves too. */
export type ModulePlan = TestsOf<TestPlan> | TestsOf<ChunkPlan>

/** What the plugin hands to a fixture's test module. */
export interface RubricModule {
  readonly plan: ModulePlan
  readonly record: RecordComparison | null
  /** `null` under `expect: 'acceptance'`. */
  readonly expected?: ExpectedDecisions | null
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

type Declare = (name: string, meta: RubricCaseMeta, planned: CaseTest) => void

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

/**
 * Under `expect: 'record'` a case that decides as recorded passes, whether accepted or rejected (a
 * contrast meant to fail); one that decides otherwise fails with both decisions for Vitest's diff.
 * Pending stays todo and refused fails, as under acceptance: neither is ever a pass.
 */
function declareRecorded(expected: ExpectedDecisions): Record<DecisionStatus, Declare> {
  const differs = (id: string) => (Object.hasOwn(expected.differing, id) ? expected.differing[id] : undefined)
  const changed = (name: string, meta: RubricCaseMeta, planned: CaseTest) => {
    const { recorded, current } = differs(planned.id)!
    const message =
      recorded === null
        ? `${expected.file} has no decision for this case (now ${planned.status}): run \`vitest -u\` to record it, then review and commit the record.`
        : `the decision differs from ${expected.file}: recorded ${describeRecorded(recorded)}, now ${describeRecorded(current)}. If the change is intended, run \`vitest -u\` to rewrite the record, then review and commit its diff.`
    test(name, { meta: { rubric: meta } }, () => {
      throw new RubricFailure(message, { expected: recorded, actual: current })
    })
  }
  return {
    accepted: (name, meta, planned) => (differs(planned.id) ? changed(name, meta, planned) : test(name, { meta: { rubric: meta } }, pass)),
    rejected: (name, meta, planned) => (differs(planned.id) ? changed(name, meta, planned) : test(name, { meta: { rubric: meta } }, pass)),
    pending: (name, meta, planned) => (differs(planned.id) ? changed(name, meta, planned) : declareCase.pending(name, meta, planned)),
    refused: (name, meta, planned) => declareCase.refused(name, meta, planned),
  }
}

function describeRecorded(entry: unknown): string {
  const status = valueAt(entry, ['status'])
  const reason = valueAt(entry, ['reason'])
  return `${status ?? '?'}${reason === undefined || reason === '' ? '' : ` (${reason})`}`
}

/** Declares one test per case (grouped by split), the fixture's checks and the record check. */
export function defineRubricTests({ plan, record, expected = null }: RubricModule): void {
  const declare = expected === null ? declareCase : declareRecorded(expected)
  const chunk = 'chunk' in plan ? plan.chunk : undefined
  const checks = 'checks' in plan ? plan.checks : []
  TestRunner.getCurrentSuite().file.meta.rubricFixture = {
    fixture: plan.dir,
    kind: plan.kind,
    name: plan.name,
    coverage: plan.coverage,
    ...(chunk === undefined ? {} : { chunk: { index: chunk.index, count: chunk.count } }),
  }

  const splits = [...new Set(plan.cases.map((planned) => planned.split))]
  for (const split of splits) {
    describe(split, () => {
      for (const planned of plan.cases) {
        if (planned.split !== split) continue
        // The meta crosses from the test worker to the main process with every test: it is kept to what
        // a reporter needs to place the case, and the ratings stay in the plan and the JSON report.
        const meta: RubricCaseMeta = { role: 'case', id: planned.id, split: planned.split, status: planned.status, reason: planned.reason }
        declare[planned.status](planned.id, meta, planned)
      }
    })
  }

  // A fixture without cases yet (just scaffolded) stays visible as pending, never as a pass.
  if (plan.cases.length === 0 && checks.length === 0) {
    // A chunk is empty only when cases were removed after Vitest split the fixture (in watch mode).
    if (chunk === undefined) test.todo(NO_CASES_YET)
    else
      test.todo(
        `no cases in chunk ${chunk.index} of ${chunk.count}: the fixture has fewer cases than when Vitest started; restart it to split the fixture again`,
      )
  }

  for (const check of checks) {
    const meta = { rubric: { role: 'check', name: check.name } as const }
    // A check with nothing to decide on yet (no agreement figure) is todo, never a pass or a fail.
    if (check.todo === true) test.todo(`${check.name} — ${check.message}`, { meta })
    else test(check.name, { meta }, check.ok ? pass : fail(check.message))
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
export function loadRubricTests(planFile: string, record: RecordComparison | null, expected: ExpectedDecisions | null = null): void {
  // Cast: the plan file is the one the plugin wrote for this module, from a ModulePlan.
  defineRubricTests({ plan: JSON.parse(readFileSync(planFile, 'utf8')) as ModulePlan, record, expected })
}

/** Fails a fixture's test module at collection: the fixture could not be loaded. */
export function failRubricFixture(error: SerializedRubricError): never {
  const failure = new RubricFailure(error.message)
  failure.name = error.name
  failure.stack = `${error.name}: ${error.message}`
  throw failure
}
