import { basename, join, relative } from 'node:path'
import { RubricError } from '../core/common/errors.js'
import {
  describeRecordChanges,
  differingParts,
  readRecordedDecisions,
  recordDecisions,
  recordWithout,
  sameRecord,
  writeRecordedDecisions,
  type RecordedDecisions,
} from '../core/engine/decision-record.js'
import type { TestPlan } from '../core/engine/plan.js'
import type { RecordComparison } from '../runtime/index.js'

/** How a split fixture's record is settled: where it is, and what Vitest's update mode and the `expect` option ask. */
export interface SettleOptions {
  /** The project root: paths in messages are shown relative to it. */
  readonly root: string
  /** The decision record's file name. */
  readonly decisionRecord: string
  /** Vitest's snapshot update mode: `all` under `vitest -u`, `new` locally, `none` in CI. */
  readonly updateSnapshot: 'all' | 'new' | 'none'
  /** What a case's test asserts: acceptance, or the decision the record holds. */
  readonly expect: 'acceptance' | 'record'
}

/**
 * The record's parts beside the decisions of the fixture's current cases (the identities, the
 * checks, the cases no longer in the fixture), compared: `null` when they agree.
 */
export function restComparison(file: string, recorded: RecordedDecisions, current: RecordedDecisions): RecordComparison | null {
  const rest = { recorded: recordWithout(recorded, current.decisions), current: recordWithout(current, current.decisions) }
  if (sameRecord(rest.recorded, rest.current)) return null
  return { file, changes: describeRecordChanges(rest.recorded, rest.current), ...differingParts(rest.recorded, rest.current) }
}

/**
 * The decision record of a split fixture, once every chunk has run: the parts no chunk can compare
 * (the identities, the checks, the cases no longer there) are compared here, and the record is
 * rewritten under `vitest -u` (or written, under `expect: 'record'`, where Vitest writes new
 * snapshots), from the whole fixture's plan. `null` when nothing differs. A defective record is
 * left to the chunks, which each fail with it.
 */
export async function settleSplitRecord(dir: string, plan: TestPlan, options: SettleOptions): Promise<RecordComparison | null> {
  const path = join(dir, options.decisionRecord)
  const rewrite = options.updateSnapshot === 'all'
  let recorded: RecordedDecisions | null | undefined
  try {
    recorded = await readRecordedDecisions(path, relative(options.root, path), { root: options.root })
  } catch (error) {
    if (!(error instanceof RubricError)) throw error
    if (!rewrite) return null
    recorded = null
  }
  const current = recordDecisions(plan)
  if (recorded === undefined) {
    if (options.expect === 'record' && options.updateSnapshot !== 'none') await writeRecordedDecisions(path, current, { root: options.root })
    return null
  }
  if (recorded === null || rewrite) {
    if (recorded === null || !sameRecord(recorded, current)) await writeRecordedDecisions(path, current, { root: options.root })
    return null
  }
  return restComparison(basename(path), recorded, current)
}
