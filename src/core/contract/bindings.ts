// The binding table a kind declares: each recorded hash, how its current value is computed, what a
// mismatch means and how to fix it. Types only, importing no engine module.
import type { RubricErrorCode } from '../common/errors.js'
import type { PathSegment } from '../common/json-path.js'
import type { FileRole } from './files.js'

/**
 * What a recorded hash describes, as its kind names it (`answer`, `output`, `rubric`; `review` for
 * the acknowledgement row). `status` groups stale hashes by it, in the order of the kind's targets.
 */
export type BindingTarget = string

/** How the current value of a recorded hash is computed. */
export type BindingSource =
  /** SHA-256 of a file's raw bytes. */
  | { readonly bytesOf: FileRole }
  /** The fingerprint of a value of the case, as written (not as a parser copied it). */
  | { readonly fingerprintOf: (slot: string) => readonly PathSegment[] }
  /** The fingerprint of the slot's review as written, or of `null` when it has none: the case's acknowledgement. */
  | { readonly reviewOf: 'slot' }

/**
 * One recorded hash of a case or of its review: where it is, how its current value is computed,
 * what a mismatch means and how to fix it. Evaluation's refusals, `status`'s groups and `bind`'s
 * edits are all read from these rows.
 */
export interface BindingRow {
  /** The entry that records the hash: the case in `cases.json`, or the slot's review. */
  readonly in: 'case' | 'review'
  /** The hash's path inside that entry; a function when it depends on the review slot. */
  readonly path: readonly string[] | ((slot: string) => readonly string[])
  readonly source: BindingSource
  readonly target: BindingTarget
  readonly code: RubricErrorCode
  /** What a mismatch means, as a clause: `the answer changed since it was reviewed`. */
  readonly meaning: string
  /** What a reviewer does about it before binding again: `re-read the answer and revise the review`. */
  readonly fix: string
}
