import type { Decision } from '../contract/decision.js'
import { isGraded } from './decision.js'
import type { CaseEntry, ReviewEntry } from './fixture.js'
import type { Adoption } from './panel.js'

// What an incremental evaluation compares between two reads of a fixture, to tell which cases an edit touched.

/** Whether the graded cases are the same, in the same order. */
export function sameGraded(before: readonly Decision[], after: readonly Decision[]): boolean {
  if (before.length !== after.length) return false
  for (let index = 0; index < before.length; index++) {
    if (before[index]!.id !== after[index]!.id || isGraded(before[index]!) !== isGraded(after[index]!)) return false
  }
  return true
}

export function sameEntry(before: CaseEntry, after: CaseEntry): boolean {
  if (before === after) return true
  return before.path[1] === after.path[1] && before.split === after.split && sameJson(before.value, after.value)
}

function sameReview(before: ReviewEntry | undefined, after: ReviewEntry | undefined): boolean {
  if (before === after) return true
  if (before === undefined || after === undefined) return false
  return before.path[1] === after.path[1] && sameJson(before.value, after.value)
}

export function sameSlots(before: Readonly<Record<string, ReviewEntry>> | undefined, after: Readonly<Record<string, ReviewEntry>> | undefined): boolean {
  if (before === after) return true
  const slots = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])
  for (const slot of slots) if (!sameReview(before?.[slot], after?.[slot])) return false
  return true
}

export function samePanelReviews(
  before: ReadonlyMap<string, Readonly<Record<string, ReviewEntry>>> | undefined,
  after: ReadonlyMap<string, Readonly<Record<string, ReviewEntry>>> | undefined,
): boolean {
  if (before === after) return true
  if ((before?.size ?? 0) !== (after?.size ?? 0)) return false
  for (const [reviewer, slots] of before ?? []) if (!after?.has(reviewer) || !sameSlots(slots, after.get(reviewer))) return false
  return true
}

export function sameAdoptions(before: Readonly<Record<string, Adoption>> | undefined, after: Readonly<Record<string, Adoption>> | undefined): boolean {
  if (before === after) return true
  return JSON.stringify(before ?? {}) === JSON.stringify(after ?? {})
}

/**
 * Whether two parsed JSON values are equal, key order included (so that their canonical texts and
 * fingerprints are too): one walk of both, allocating nothing, where comparing their texts would
 * write both out.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let index = 0; index < a.length; index++) if (!sameJson(a[index], b[index])) return false
    return true
  }
  if (Array.isArray(b)) return false
  const keys = Object.keys(a)
  const others = Object.keys(b)
  if (keys.length !== others.length) return false
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!
    if (key !== others[index] || !sameJson(Reflect.get(a, key), Reflect.get(b, key))) return false
  }
  return true
}
