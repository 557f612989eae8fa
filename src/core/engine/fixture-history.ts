import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { valueAt } from '../common/json-path.js'
import { sha256Hex } from '../json/canonical-json.js'
import type { PathSegment } from '../common/json-path.js'
import { bindingState, isStale, rowPath, type BindingState } from './bindings.js'
import type { BindingRow } from '../contract/bindings.js'
import { committedRevisions } from './file-history.js'
import { kindContext, type CaseEntry, type SomeFixture } from './fixture.js'
import type { EarlierRevision, FileRole } from '../contract/kind.js'

/** What the git history of a fixture's files holds of the revisions its stale review hashes were recorded against. */
export interface FixtureHistory {
  /** The committed revision of a file with that SHA-256, with the file as it is now; `undefined` when it is not known. */
  find(role: FileRole, sha256: string): EarlierRevision['found']
}

/** A history that knows nothing: every stale binding is said to need re-reading in full. */
export const NO_HISTORY: FixtureHistory = { find: () => undefined }

/** A review as the history lookup reads it: its value as written and its slot. */
export interface HistoryReview {
  readonly value: unknown
  readonly slot: string
}

/**
 * Looks up, in the git history of the fixture's files, each file revision a review recorded and
 * that is not the file as it is now: the bytes a stale review (adopted, a reviewer's, a judge's
 * label) was judged against. Only the reviews given are read (by default every review of the
 * fixture); nothing is run when none is stale. Without git, outside a work tree, or for a
 * revision never committed, the history knows nothing of it, as if there were no git.
 */
export async function fixtureHistory(fixture: SomeFixture, reviews: Iterable<HistoryReview> = allReviews(fixture)): Promise<FixtureHistory> {
  const rows = fixture.definition.bindings.filter(
    (row): row is BindingRow & { source: { bytesOf: FileRole } } => row.in === 'review' && 'bytesOf' in row.source,
  )
  const wanted = new Map<FileRole, Set<string>>()
  for (const review of reviews) {
    for (const row of rows) {
      const role = row.source.bytesOf
      const current = fixture.files[role]?.sha256
      const recorded = valueAt(review.value, rowPath(row, review.slot))
      if (current === undefined || typeof recorded !== 'string' || recorded === current) continue
      let set = wanted.get(role)
      if (set === undefined) wanted.set(role, (set = new Set()))
      set.add(recorded)
    }
  }
  if (wanted.size === 0) return NO_HISTORY
  const found = new Map<FileRole, { current: Uint8Array; revisions: ReadonlyMap<string, { commit: string; bytes: Uint8Array }> }>()
  for (const [role, hashes] of wanted) {
    const file = fixture.files[role]
    if (file === undefined) continue
    const path = join(fixture.dir, file.name)
    let current: Uint8Array
    try {
      current = await readFile(path)
    } catch {
      continue
    }
    // The file changed since the fixture was read: what it says now is not what the bindings were checked against.
    if (sha256Hex(current) !== file.sha256) continue
    const revisions = await committedRevisions(path, hashes)
    if (revisions.size > 0) found.set(role, { current, revisions })
  }
  return {
    find(role, sha256) {
      const entry = found.get(role)
      const revision = entry?.revisions.get(sha256)
      return entry === undefined || revision === undefined ? undefined : { commit: revision.commit, bytes: revision.bytes, current: entry.current }
    },
  }
}

/** The earlier file revisions a review's stale byte hashes were recorded against, as `history` knows them. */
export function earlierRevisions(states: readonly BindingState[], history: FixtureHistory): EarlierRevision[] {
  const earlier: EarlierRevision[] = []
  for (const state of states) {
    const { row } = state
    if (row.in !== 'review' || !('bytesOf' in row.source) || !isStale(state) || state.recorded === undefined) continue
    earlier.push({ role: row.source.bytesOf, sha256: state.recorded, found: history.find(row.source.bytesOf, state.recorded) })
  }
  return earlier
}

function* allReviews(fixture: SomeFixture): Iterable<HistoryReview> {
  for (const bySlot of fixture.reviews.values()) yield* Object.values(bySlot)
  for (const set of [fixture.panel, fixture.judges]) {
    for (const byAuthor of set.reviews.values()) for (const bySlot of byAuthor.values()) yield* Object.values(bySlot)
  }
}

/** What a review bound to earlier files may keep: the items whose judgement reads the same text now, and what its kind says changed. */
export interface CarriedOver {
  /** Some binding of the review records another revision of the files than they are now. */
  readonly stale: boolean
  /** Items (criteria) a reviewer may confirm as they are; empty when anything else the review judged changed, or nothing is known of the earlier files. */
  readonly items: readonly string[]
  /** The kind's words for each stale target: `since 1a2b3c4: rule of support reworded; …`. */
  readonly changes: readonly string[]
}

/**
 * The items of a stale review that a reviewer may carry over, each once confirmed: those its kind
 * says read the same text in the files as they are, across every stale binding of the review. A
 * stale binding the kind says nothing about (an answer edited: every judgement describes another
 * answer) leaves nothing to carry over. Nothing here re-binds anything.
 */
export function carriedOver(
  fixture: SomeFixture,
  entry: CaseEntry,
  review: { readonly value: unknown; readonly slot: string; readonly path: readonly PathSegment[]; readonly file: string },
  history: FixtureHistory,
): CarriedOver {
  const definition = fixture.definition
  const context = kindContext(fixture)
  const subject = {
    at: { id: entry.id, path: entry.path },
    caseValue: entry.value,
    casesFile: fixture.files.cases.display,
    slot: review.slot,
    review: { value: review.value, path: review.path, file: review.file },
  }
  const stale: BindingState[] = []
  for (const row of definition.bindings) {
    if (row.in !== 'review') continue
    let state: BindingState | undefined
    try {
      state = bindingState(row, context, subject)
    } catch {
      // A value without a canonical form: the review is refused as it is, and nothing is carried over.
      return { stale: true, items: [], changes: [] }
    }
    if (state !== undefined && isStale(state)) stale.push(state)
  }
  if (stale.length === 0) return { stale: false, items: [], changes: [] }
  let items: string[] | undefined
  const changes: string[] = []
  for (const target of new Set(stale.map((state) => state.row.target))) {
    const fields = stale.filter((state) => state.row.target === target)
    const change = definition.present.staleDetail?.(target, context, review.value, earlierRevisions(fields, history))
    if (change === undefined) return { stale: true, items: [], changes }
    changes.push(change.text)
    items = items === undefined ? [...change.unchanged] : items.filter((item) => change.unchanged.includes(item))
  }
  return { stale: true, items: items ?? [], changes }
}
