import type { FileRole } from '../contract/kind.js'
import type { CaseAssessment } from './assess.js'
import type { Coverage } from '../contract/results.js'
import { isGraded } from './decision.js'
import type { Decision } from '../contract/decision.js'
import { isPanelActive, staleHashesOf, type EvaluateOptions } from './evaluate.js'
import type { SomeFixture } from './fixture.js'

// What an incremental evaluation makes of a save of a few cases without a pass over every case:
// where the cases changed are found, and the figures of the evaluation before patched by them.

/**
 * The positions in `cases.json` of the cases `changed` names, in the order of `cases.json`, when
 * the newly read `after` holds every other case as `before` did: the same number of cases, the
 * same reviewers (whose reviews differ in the cases `changed` names alone, as the parse memo that
 * gave it vouches), the same adoptions (the very values), and each named case where it was.
 * `undefined` when that is not so, and every case is compared.
 */
export function changedPositions(
  before: SomeFixture,
  after: SomeFixture,
  changed: ReadonlySet<string>,
  positionOf: ReadonlyMap<string, number>,
): readonly number[] | undefined {
  if (before.cases.length !== after.cases.length || before.panel.adoptions !== after.panel.adoptions) return undefined
  if (before.panel.reviewers.join('\u0000') !== after.panel.reviewers.join('\u0000')) return undefined
  const positions: number[] = []
  for (const id of changed) {
    const position = positionOf.get(id)
    if (position === undefined || after.cases[position]?.id !== id) return undefined
    positions.push(position)
  }
  return positions.sort((a, b) => a - b)
}

/** One case decided again: where it is, and its decision before and after. */
export interface DecisionChange {
  readonly position: number
  readonly before: Decision
  readonly after: Decision
}

/** Whether a change moves a case into or out of the graded set. */
export function movesGraded(changes: readonly DecisionChange[]): boolean {
  return changes.some(({ before, after }) => isGraded(before) !== isGraded(after))
}

/**
 * The pending and refused cases of `previous` with the changed cases taken out and put back as they
 * are decided now, in the order of `cases.json`: the lists a recount would make, at the cost of the
 * lists, not of every case. Each case put back is placed by a binary search of its list, which is in
 * that order already: sorting the list again looked up two positions for each comparison.
 */
export function patchedCaseLists(
  previous: Pick<Coverage, 'pendingCases' | 'refusedCases'>,
  changes: readonly DecisionChange[],
  positionOf: (id: string) => number,
): Pick<Coverage, 'pendingCases' | 'refusedCases'> {
  const listed = (decision: Decision) => decision.status === 'pending' || decision.status === 'refused'
  if (!changes.some(({ before, after }) => listed(before) || listed(after))) return previous
  const ids = new Set(changes.map(({ after }) => after.id))
  const pendingCases = previous.pendingCases.filter((each) => !ids.has(each.id))
  const refusedCases = previous.refusedCases.filter((each) => !ids.has(each.id))
  for (const { position, after } of changes) {
    if (after.status === 'pending') placed(pendingCases, position, { id: after.id, split: after.split, reason: after.reason }, positionOf)
    if (after.status === 'refused')
      placed(refusedCases, position, { id: after.id, split: after.split, code: after.error.code, message: after.error.message }, positionOf)
  }
  return { pendingCases, refusedCases }
}

/** Puts `item`, the case at `position`, into `list`, which is in the order of `cases.json`, where that order places it. */
function placed<T extends { readonly id: string }>(list: T[], position: number, item: T, positionOf: (id: string) => number): void {
  let low = 0
  let high = list.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (positionOf(list[middle]!.id) < position) low = middle + 1
    else high = middle
  }
  list.splice(low, 0, item)
}

/** Whether an edit between two reads of a fixture can change every case's decision. */
export function decidesEverything(before: SomeFixture, after: SomeFixture, options: EvaluateOptions): boolean {
  return (
    before.definition !== after.definition ||
    before.rubric !== after.rubric ||
    JSON.stringify(before.casesDocument) !== JSON.stringify(after.casesDocument) ||
    isPanelActive(before, options) !== isPanelActive(after, options) ||
    (before.panel.adjudications === undefined) !== (after.panel.adjudications === undefined)
  )
}

export function staleOf(assessment: CaseAssessment<Decision>): readonly (readonly [FileRole, string])[] {
  const found = staleHashesOf(assessment)
  return found.length === 0 ? NONE : found
}

const NONE: readonly (readonly [FileRole, string])[] = Object.freeze([])

/** The stale recorded hashes of the cases' states, by the file's role, in their order. */
export function staleFilesOf(states: Iterable<{ readonly stale: readonly (readonly [FileRole, string])[] }>): Map<FileRole, string[]> {
  const staleFiles = new Map<FileRole, string[]>()
  for (const state of states) {
    for (const [role, hash] of state.stale) {
      const hashes = staleFiles.get(role)
      if (hashes === undefined) staleFiles.set(role, [hash])
      else hashes.push(hash)
    }
  }
  return staleFiles
}
