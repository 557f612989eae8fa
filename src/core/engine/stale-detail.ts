import { formatLocation } from '../common/json-path.js'
import { shortSha } from '../common/primitives.js'
import type { BindingState } from './bindings.js'
import type { BindingTarget } from '../contract/bindings.js'
import type { StaleChange } from '../contract/kind.js'
import { kindContext, type SomeFixture } from './fixture.js'
import { earlierRevisions, type FixtureHistory } from './fixture-history.js'

/** What `status` says of a case's stale bindings of one target: where, and what its kind says changed. */
export interface StaleDetail {
  /** The hashes recorded and current at each path, then the kind's words, then what explains a converted file. */
  readonly detail: string
  /** What the kind says changed, as data; left out when it says nothing. */
  readonly changes?: readonly Readonly<Record<string, unknown>>[]
}

/**
 * The detail of a case's stale bindings of one target: each recorded hash against the current one,
 * what the kind says changed (once per slot's review, told the earlier revisions its own hashes
 * recorded), and a pointer to the fixture's note on a converted file.
 */
export function staleDetail(
  fixture: SomeFixture,
  fields: readonly BindingState[],
  reviewed: boolean,
  target: BindingTarget,
  reviews: Readonly<Record<string, { value: unknown }>> | undefined,
  noted: ReadonlySet<string>,
  history: FixtureHistory,
): StaleDetail {
  const definition = fixture.definition
  const context = kindContext(fixture)
  const where = fields.map(
    (state) => `${formatLocation(state.file, state.path)} ${state.recorded === undefined ? 'nothing' : shortSha(state.recorded)} → ${shortSha(state.current)}`,
  )
  // The explanation of a converted file is the fixture's note, listed once; a case only points at it.
  const notes = new Set<string>()
  for (const state of fields) {
    if (!('bytesOf' in state.row.source)) continue
    const file = fixture.files[state.row.source.bytesOf]
    if (file !== undefined && noted.has(file.display)) notes.add(`see the note on ${file.display}`)
  }
  const unreviewed = reviewed ? '' : ' (no review yet: nothing was judged, so `bind` records the files as they are now)'
  // One change per slot's review, each told the earlier revisions its own hashes recorded; the same words said once.
  const changes = new Map<string, StaleChange>()
  for (const slot of new Set(fields.map((state) => state.slot))) {
    const own = fields.filter((state) => state.slot === slot)
    const change = definition.present.staleDetail?.(target, context, reviews?.[slot]?.value, earlierRevisions(own, history))
    if (change !== undefined && !changes.has(change.text)) changes.set(change.text, change)
  }
  const change = [...changes.keys()]
  const detail = `${where.join('; ')}${change.length === 0 ? '' : `; ${change.join('; ')}`}${unreviewed}${notes.size === 0 ? '' : ` (${[...notes].join('; ')})`}`
  return changes.size === 0 ? { detail } : { detail, changes: [...changes.values()].map((each) => each.json) }
}
