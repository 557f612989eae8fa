import type { PathSegment } from '../../common/json-path.js'
import { isObject } from '../../common/primitives.js'
import { valueAt } from '../../common/json-path.js'
import { fingerprint, NULL_FINGERPRINT } from '../../json/canonical-json.js'
import { rowPath } from '../bindings.js'
import type { BindingRow } from '../../contract/bindings.js'
import type { KindContext } from '../../contract/kind.js'
import type { ReviewTarget } from './target.js'

/** Sets every hash of `entry` that the binding table records there to the files' current value. */
/** @internal */
export function stamp(
  rows: readonly BindingRow[],
  entry: 'case' | 'review',
  value: Record<string, unknown>,
  context: KindContext<unknown>,
  caseValue: unknown,
  slots: readonly string[],
): void {
  for (const row of rows) {
    if (row.in !== entry) continue
    for (const slot of typeof row.path === 'function' || entry === 'review' ? slots : slots.slice(0, 1)) {
      const current =
        'bytesOf' in row.source
          ? context.files[row.source.bytesOf]!.sha256
          : 'fingerprintOf' in row.source
            ? fingerprint(valueAt(caseValue, row.source.fingerprintOf(slot)) ?? null)
            : NULL_FINGERPRINT
      setAt(value, rowPath(row, slot), current)
    }
  }
}

function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let object = target
  for (const key of path.slice(0, -1)) {
    const inner = object[key]
    if (!isObject(inner)) throw new Error(`no object at ${key}`)
    object = inner
  }
  object[path.at(-1)!] = value
}

/** @internal */
/** The edits that set the case's own stale file hashes (its `expected` source and rubric) to the files as they are now. */
export function caseRestamps(rows: readonly BindingRow[], target: ReviewTarget): { path: PathSegment[]; from: string; to: string }[] {
  const { entry, context } = target
  const edits: { path: PathSegment[]; from: string; to: string }[] = []
  for (const row of rows) {
    if (row.in !== 'case' || !('bytesOf' in row.source)) continue
    const current = context.files[row.source.bytesOf]?.sha256
    for (const slot of typeof row.path === 'function' ? target.definition.reviews.slots : [target.slot]) {
      const path = rowPath(row, slot)
      const recorded = valueAt(entry.value, path)
      if (current !== undefined && typeof recorded === 'string' && recorded !== current)
        edits.push({ path: [...entry.path, ...path], from: recorded, to: current })
    }
  }
  return edits
}
