import { formatLocation, type PathSegment } from '../common/json-path.js'
import { isObject } from '../common/primitives.js'
import { NULL_FINGERPRINT } from '../json/canonical-json.js'
import type { RawFile } from '../json/read.js'
import { forkedWrite, type FixtureRecords, type Fork, type StoreKeys } from '../store/record-store.js'
import { FORK_REASON } from '../common/fork-reason.js'
import { rowPath, shellWord } from './bindings.js'
import { ADJUDICATIONS_FILE, JUDGES_DIR, REVIEWER_NAME, REVIEWS_DIR } from './panel.js'
import type { SomeKindDefinition } from '../contract/kind.js'
import type { FixtureNote } from '../contract/results.js'
import { join } from 'node:path'
import { RECORDS_DIR } from '../store/records.js'

/** A records-layout fixture as a loader reads it: its store, and the seed documents a revision proposes in place of the store's. */
export interface RecordsOverlay {
  readonly store: FixtureRecords
  /** New texts of seed documents, by absolute path, read before the store's. */
  readonly overrides?: ReadonlyMap<string, RawFile>
}

/**
 * What a loaded fixture in the records layout (`records/`) shows of its records: the cases revised
 * apart. The store behind it, with its folded records, its caches and its writes, is the engine's.
 */
export interface FixtureRecordsView {
  /** The cases whose records were revised apart: each is pending until `vitest-rubric resolve` keeps one revision. */
  readonly forks: readonly { readonly caseId: string }[]
}

/**
 * Refuses a change to `caseId` while its records are revised apart (`RECORDS_FORKED`, naming
 * `resolve`): which revision the change would build on is not settled. A command that decides the
 * change before writing it (an adoption, a binding) checks here, not at the write.
 */
export function refuseForkedCase(fixture: RecordsOfFixture, caseId: string): void {
  if (fixture.records?.forks.some((fork) => fork.caseId === caseId) === true) throw forkedWrite(fixture.displayDir, caseId)
}

/** What these views read of a loaded fixture: its directory as shown, and its records when it keeps them. */
export interface RecordsOfFixture {
  readonly displayDir: string
  readonly records?: FixtureRecordsView | undefined
}

/** The store behind a loaded fixture's records, which only the loader sets, and always to its store. */
export function recordStoreOf(fixture: { readonly records?: FixtureRecordsView | undefined }): FixtureRecords | undefined {
  // Cast: the loader sets a fixture's records to its store, which the fixture's type shows only in part.
  return fixture.records as FixtureRecords | undefined
}

/** What the store needs of a kind: how an entry names its case and slot, and a case's entry with no review acknowledged. */
export function storeKeys(definition: SomeKindDefinition): StoreKeys {
  const { caseKey, slotKey, slots } = definition.reviews
  const text = (value: unknown, key: string) => (isObject(value) && typeof value[key] === 'string' ? value[key] : undefined)
  return {
    keyOf(doc, item) {
      const [caseField, slotField] = doc === 'cases.json' ? ['id', undefined] : doc === 'adjudications.json' ? ['case_id', 'slot'] : [caseKey, slotKey]
      const caseId = text(item, caseField)
      if (caseId === undefined) return undefined
      if (slotField === undefined) return { case: caseId }
      const slot = text(item, slotField)
      return slot === undefined ? undefined : { case: caseId, slot }
    },
    isDocument(doc) {
      if (doc === definition.files.cases || doc === definition.files.annotations || doc === ADJUDICATIONS_FILE) return true
      const slash = doc.indexOf('/')
      const folder = doc.slice(0, slash)
      const name = doc.slice(slash + 1)
      // An author's name holds no slash and starts with no dot: the document lies in its folder, as the seed layout reads it.
      return (folder === REVIEWS_DIR || folder === JUDGES_DIR) && name.endsWith('.json') && REVIEWER_NAME.test(name.slice(0, -'.json'.length))
    },
    unreviewed(caseItem) {
      const copy: unknown = structuredClone(caseItem)
      for (const row of definition.bindings) {
        if (!('reviewOf' in row.source)) continue
        for (const slot of slots) setAt(copy, rowPath(row, slot), NULL_FINGERPRINT)
      }
      return copy
    },
  }
}

function setAt(target: unknown, path: readonly string[], value: unknown): void {
  let at = target
  for (const key of path.slice(0, -1)) {
    if (!isObject(at)) return
    at = at[key]
  }
  const last = path[path.length - 1]
  if (isObject(at) && last !== undefined) at[last] = value
}

/**
 * What a fixture in the records layout says once for the whole fixture: each forked case, with both
 * revisions and who made them, and a `records/.gitattributes` that would let git merge record files
 * line by line.
 */
export function recordNotes(fixture: RecordsOfFixture): FixtureNote[] {
  const store = recordStoreOf(fixture)
  if (store === undefined) return []
  const file = join(fixture.displayDir, RECORDS_DIR)
  const notes: FixtureNote[] = []
  if (!store.mergesByLine) {
    notes.push({
      file: join(file, '.gitattributes'),
      text: `records/.gitattributes does not hold \`*.jsonl merge=union\`, so a git merge of work on different cases would conflict line by line: run \`vitest-rubric convert ${fixture.displayDir} --to records\`, which writes it.`,
    })
  }
  for (const fork of store.forks) {
    const records = fork.records.map((record) => {
      const what = record.doc === 'cases.json' ? 'the case' : record.doc === 'annotations.json' ? 'the adopted review' : record.doc.replace(/\.json$/, '')
      const heads = record.heads.map((head) => `${head.at} (save ${head.provenance.save}, ${head.provenance.by}, ${head.provenance.at})`).join(' and ')
      return `${what}${record.slot === undefined ? '' : ` (${record.slot})`}: ${heads}`
    })
    const keep = keptByOneSave(fork)
      ? `Keep one with \`vitest-rubric resolve ${fixture.displayDir} ${fork.caseId} --keep <save>\``
      : `Keep one revision of each record with \`vitest-rubric resolve ${fixture.displayDir} ${fork.caseId} --keep <save> --keep <save>\`, one --keep for each save whose revisions are kept`
    notes.push({ file, text: `case "${fork.caseId}" was revised apart, and is pending until one revision is kept: ${records.join('; ')}. ${keep}.` })
  }
  return notes
}

/** Whether one save revised every forked record of a case, so that one `--keep` settles them all; otherwise each record needs a save of its own. */
function keptByOneSave(fork: Fork): boolean {
  return fork.records[0]!.heads.some((head) => fork.records.every((record) => record.heads.some((other) => other.provenance.save === head.provenance.save)))
}

/**
 * The pending reason of each case whose records were revised apart, by case id: what forked, the
 * saves that revised it, and the command that keeps one revision. Such a case is shown unreviewed,
 * so the rule finds it pending; this reason says why, in place of `no review`.
 */
export function forkReasons(fixture: RecordsOfFixture): ReadonlyMap<string, string> {
  const reasons = new Map<string, string>()
  for (const fork of recordStoreOf(fixture)?.forks ?? []) {
    const what = fork.records.map((record) => {
      const named =
        record.doc === 'cases.json'
          ? 'the case'
          : record.doc === 'annotations.json'
            ? 'the review'
            : record.doc === ADJUDICATIONS_FILE
              ? 'the adoption'
              : undefined
      const author = record.doc.replace(/^(reviews|judges)\/|\.json$/g, '')
      const entry = named ?? (record.doc.startsWith(`${JUDGES_DIR}/`) ? `judge ${author}'s labels` : `${author}'s review`)
      return record.slot === undefined ? entry : `${entry} (${record.slot})`
    })
    const saves = [...new Set(fork.records.flatMap((record) => record.heads.map((head) => head.provenance.save)))]
    const keep = keptByOneSave(fork) ? '--keep <save>' : '--keep <save> once for each save kept'
    reasons.set(
      fork.caseId,
      `${FORK_REASON}${what.join(' and ')} revised apart, by saves ${saves.join(', ')}; keep one with \`vitest-rubric resolve ${shellWord(fixture.displayDir)} ${shellWord(fork.caseId)} ${keep}\``,
    )
  }
  return reasons
}

/**
 * A place in a document of the fixture, as a message shows it. A save that read only the buckets of
 * its cases holds, of each document, the entries of those buckets alone: an entry's place among them
 * is not its place in the document, so it is left out (`cases[…]`), as the case it is in is named.
 */
export function entryLocation(fixture: RecordsOfFixture, file: string | undefined, path: readonly PathSegment[]): string {
  const [list, place, ...rest] = path
  if (recordStoreOf(fixture)?.partial !== true || typeof list !== 'string' || typeof place !== 'number') return formatLocation(file, path)
  return formatLocation(file, [`${list}[…]`, ...rest])
}
