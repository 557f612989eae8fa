// The entries of a fixture's files as read, before any is checked: the cases of \`cases.json\` and the
// reviews of a review file. Types only, so that the readers of those files need not import the loader.
import type { PathSegment } from '../common/json-path.js'
import type { Split } from '../common/primitives.js'

/** A case entry of `cases.json`: its id and split, its value as written, checked only when it is assessed. */
export interface CaseEntry {
  readonly id: string
  readonly split: Split
  readonly value: unknown
  /** `['cases', 3]`. */
  readonly path: readonly PathSegment[]
}

/** A review entry of a review file: the case and slot it fills, its value as written, checked with its case. */
export interface ReviewEntry {
  readonly caseId: string
  readonly slot: string
  readonly value: unknown
  /** `['reviews', 2]`. */
  readonly path: readonly PathSegment[]
}

/** Reviews by case id, then by slot. */
export type ReviewIndex = ReadonlyMap<string, Readonly<Record<string, ReviewEntry>>>
