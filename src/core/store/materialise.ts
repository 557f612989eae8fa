import { join } from 'node:path'
import type { RawFile } from '../json/read.js'
import { createHash } from 'node:crypto'
import { styled, styledPieces } from './document-style.js'
import { FixtureError } from '../common/errors.js'
import { CASES_DOC, DOCUMENTS_FILE, type DocumentRecord, type ItemRecord, type Provenance, RECORDS_DIR, type Stored } from './records.js'
import type { Folded } from './fold.js'

/** What the store needs to know of a fixture's kind: how an entry names its case and slot, and how a case is left unreviewed. */
export interface StoreKeys {
  /** The case and slot of an entry of a document's list; `undefined` when the entry does not name them (the engine refuses it). */
  readonly keyOf: (doc: string, item: unknown) => { readonly case: string; readonly slot?: string } | undefined
  /** A case entry with every review binding set to the fingerprint of `null`: what a forked case is shown as while it waits. */
  readonly unreviewed: (caseItem: unknown) => unknown
  /** Whether `doc` names a seed document of the kind: its cases, its annotations, the adoptions, a reviewer's or a judge's file. */
  readonly isDocument: (doc: string) => boolean
}

/** A case whose records forked: two revisions of one record, made apart. */
export interface Fork {
  readonly caseId: string
  /** Each forked record: its document and slot, and its heads with where they are and who made them. */
  readonly records: readonly {
    readonly doc: string
    readonly slot?: string
    readonly heads: readonly { readonly at: string; readonly hash: string; readonly provenance: Provenance }[]
  }[]
}

/** The forked records of each case: a key with several heads, made apart. */
export function forksOf(items: ReadonlyMap<string, Folded<ItemRecord>>): Fork[] {
  const byCase = new Map<string, Fork['records'][number][]>()
  for (const folded of items.values()) {
    if (folded.heads.length < 2) continue
    const first = folded.heads[0]!.record
    const records = byCase.get(first.case) ?? []
    records.push({
      doc: first.doc,
      ...(first.slot === undefined ? {} : { slot: first.slot }),
      heads: folded.heads.map((head) => ({ at: head.at, hash: head.hash, provenance: { save: head.record.save, at: head.record.at, by: head.record.by } })),
    })
    byCase.set(first.case, records)
  }
  return [...byCase].map(([caseId, records]) => ({ caseId, records }))
}

/** What {@link materialise} made: the documents, and what it keeps to make them again after a save. */
export interface Materialised {
  /** The seed documents, by absolute path. */
  readonly files: ReadonlyMap<string, RawFile>
  /** Each entry as the seed documents show it, by key; `undefined` for one they leave out. */
  readonly shown: (key: string) => unknown
  readonly state: MaterialisedState
}

/** The lists a materialisation made, by document: kept by a reader to make only what a save changed. */
export interface MaterialisedState {
  readonly dir: string
  /** The head of each document record (its hash), joined: a change there makes every document again. */
  readonly heads: string
  readonly lists: ReadonlyMap<string, DocumentList>
  readonly files: ReadonlyMap<string, RawFile>
}

interface DocumentList {
  /** The records shown, in the document's order. */
  readonly records: ItemRecord[]
  /** The position of each record in `records`, by key. */
  readonly index: Map<string, number>
  /** Each record's entry, in the same order: what a document made again copies (a copy of the frozen list a document holds costs several times as much). */
  readonly entries: unknown[]
}

/** How a document {@link materialise} made again differs from the one it was made from: the positions of its list put in place or added. */
export interface DocumentEdit {
  readonly from: RawFile
  readonly positions: readonly number[]
}

/** The edit each document made again is, by the document. */
const edits = new WeakMap<RawFile, DocumentEdit>()

/**
 * What changed between the document `file` and the one it was made from, when a save's records
 * made it from that one (the other entries being the very values they were): a reader that parsed
 * the one before parses only the entries at these positions. `undefined` for a document made whole.
 */
export function documentEdit(file: RawFile): DocumentEdit | undefined {
  return edits.get(file)
}

/**
 * The seed documents the records make. A forked case is shown unreviewed (its review bindings
 * those of no review, its adopted reviews and forked records left out), so it stays pending until
 * a person resolves the fork.
 *
 * Given what the last one made of the same records (`previous`) and the keys of the records
 * appended since (`appended`), it makes again only the documents those records are in, each from
 * the last one's list with those entries replaced or added at the end: what a save does. Any other
 * change (a fork, a removal, an entry placed before the end, a document's members) makes every
 * document whole, as a first read does.
 */
export function materialise(
  dir: string,
  display: string,
  documents: ReadonlyMap<string, Folded<DocumentRecord>>,
  items: ReadonlyMap<string, Folded<ItemRecord>>,
  forks: readonly Fork[],
  keys: StoreKeys,
  previous?: { readonly state: MaterialisedState; readonly appended: ReadonlySet<string> },
): Materialised {
  const forked = new Set(forks.map((fork) => fork.caseId))
  const shown = (key: string): unknown => {
    const folded = items.get(key)
    return folded === undefined ? undefined : shownRecord(folded, forked, keys)?.item
  }
  const heads = [...documents.values()].map((folded) => folded.heads.map((head) => head.hash).join('+')).join(',')
  if (previous !== undefined && forked.size === 0 && previous.state.dir === dir && previous.state.heads === heads) {
    const state = again(previous.state, previous.appended, items, documents, display, keys)
    if (state !== undefined) return { files: state.files, shown, state }
  }
  const byDoc = new Map<string, { key: string; record: ItemRecord }[]>()
  for (const folded of items.values()) {
    if (!documents.has(folded.heads[0]!.record.doc)) throw withoutDocument(display, folded.heads[0]!)
    for (const head of folded.heads) checkEntryKey(display, head, keys)
    const record = shownRecord(folded, forked, keys)
    if (record === undefined) continue
    const list = byDoc.get(record.doc) ?? []
    list.push({ key: folded.key, record })
    byDoc.set(record.doc, list)
  }
  const lists = new Map<string, DocumentList>()
  const files = new Map<string, RawFile>()
  for (const [doc, folded] of documents) {
    const sorted = (byDoc.get(doc) ?? []).sort((a, b) => a.record.n - b.record.n || compareKeys(a.record, b.record))
    const records = sorted.map((each) => each.record)
    const list: DocumentList = { records, index: new Map(sorted.map((each, position) => [each.key, position])), entries: records.map((record) => record.item) }
    lists.set(doc, list)
    files.set(join(dir, doc), documentFile(display, doc, folded, list.records))
  }
  // A state made with forks shows their cases unreviewed: never made again from, even once they are resolved.
  return { files, shown, state: { dir, heads: forked.size === 0 ? heads : `${heads}|forked`, lists, files } }
}

/**
 * Refuses an entry's record whose entry names another case or slot than the record is filed
 * under: a writer of that case looks for its entry by the record's key, and would add a second one.
 * An entry that names none is left to the engine, which refuses it by its JSON path.
 */
function checkEntryKey(display: string, head: Stored<ItemRecord>, keys: StoreKeys): void {
  const { record } = head
  if (record.removed === true) return
  const named = keys.keyOf(record.doc, record.item)
  if (named === undefined || (named.case === record.case && named.slot === record.slot)) return
  const key = (caseId: string, slot: string | undefined) => `case ${JSON.stringify(caseId)}${slot === undefined ? '' : `, slot ${JSON.stringify(slot)}`}`
  throw new FixtureError({
    code: 'RECORDS_MALFORMED',
    file: join(display, head.at),
    summary: `the record is filed under ${key(record.case, record.slot)}, but its entry is of ${key(named.case, named.slot)}.`,
    expected: `an entry of ${key(record.case, record.slot)}`,
    found: `an entry of ${key(named.case, named.slot)}`,
    hint: `restore ${join(display, RECORDS_DIR)} from version control: its lines are written by vitest-rubric (docs/format.md#the-records-layout).`,
  })
}

/** An entry's record whose document has no record in `documents.jsonl`: no document would show it, and a convert would drop it. */
function withoutDocument(display: string, head: Stored<ItemRecord>): FixtureError {
  return new FixtureError({
    code: 'RECORDS_MALFORMED',
    file: join(display, head.at),
    summary: `the record is an entry of ${JSON.stringify(head.record.doc)}, a document ${DOCUMENTS_FILE} holds no record of, so no document would show it.`,
    expected: `a document ${DOCUMENTS_FILE} holds (its record is written before any of its entries')`,
    found: JSON.stringify(head.record.doc),
    hint: `restore ${join(display, RECORDS_DIR)} from version control: its lines are written by vitest-rubric (docs/format.md#the-records-layout).`,
  })
}

/** The record of a key the documents show, as they show it; `undefined` for one they leave out. */
function shownRecord(folded: Folded<ItemRecord>, forked: ReadonlySet<string>, keys: StoreKeys): ItemRecord | undefined {
  const heads = folded.heads
  let record = heads[0]!.record
  if (forked.has(record.case)) {
    if (record.doc === 'annotations.json') return undefined
    if (heads.length > 1) {
      if (record.doc !== CASES_DOC) return undefined
      record = [...heads].sort((a, b) => (a.record.at < b.record.at ? -1 : a.record.at > b.record.at ? 1 : a.hash < b.hash ? -1 : 1))[0]!.record
    }
    if (record.doc === CASES_DOC && record.removed !== true) record = { ...record, item: keys.unreviewed(record.item) }
  }
  return record.removed === true ? undefined : record
}

/** The documents after records of `appended` keys were added to those `state` was made of; `undefined` when the change is not one a save makes. */
function again(
  state: MaterialisedState,
  appended: ReadonlySet<string>,
  items: ReadonlyMap<string, Folded<ItemRecord>>,
  documents: ReadonlyMap<string, Folded<DocumentRecord>>,
  display: string,
  keys: StoreKeys,
): MaterialisedState | undefined {
  const replaced = new Map<string, Map<number, ItemRecord>>()
  const added = new Map<string, { key: string; record: ItemRecord }[]>()
  for (const key of appended) {
    const heads = items.get(key)?.heads
    if (heads === undefined || heads.length !== 1 || heads[0]!.record.removed === true) return undefined
    const record = heads[0]!.record
    const list = state.lists.get(record.doc)
    if (list === undefined) return undefined
    checkEntryKey(display, heads[0]!, keys)
    const position = list.index.get(key)
    if (position !== undefined) {
      if (list.records[position]!.n !== record.n) return undefined
      if (list.records[position] === record) continue
      const changes = replaced.get(record.doc) ?? new Map<number, ItemRecord>()
      changes.set(position, record)
      replaced.set(record.doc, changes)
    } else {
      const doc = added.get(record.doc) ?? []
      doc.push({ key, record })
      added.set(record.doc, doc)
    }
  }
  for (const [doc, records] of added) {
    const list = state.lists.get(doc)!
    const last = list.records[list.records.length - 1]
    records.sort((a, b) => a.record.n - b.record.n || compareKeys(a.record, b.record))
    // Placed after every entry: otherwise the entries after its place move, and the document is made whole.
    if (last !== undefined && (records[0]!.record.n < last.n || (records[0]!.record.n === last.n && compareKeys(records[0]!.record, last) < 0)))
      return undefined
  }
  const lists = new Map(state.lists)
  const files = new Map(state.files)
  for (const doc of new Set([...replaced.keys(), ...added.keys()])) {
    const list = state.lists.get(doc)!
    const path = join(state.dir, doc)
    const before = state.files.get(path)!
    // The records, their index and their entries are carried over and changed in place: the state they belonged to is
    // superseded by this one, and nothing reads it again. The document's list is a copy, since the document made before is still read.
    const { records, index, entries } = list
    const positions: number[] = []
    const fresh: ItemRecord[] = []
    for (const [position, record] of replaced.get(doc) ?? []) {
      records[position] = record
      entries[position] = record.item
      positions.push(position)
      fresh.push(record)
    }
    for (const { key, record } of added.get(doc) ?? []) {
      index.set(key, records.length)
      positions.push(records.length)
      records.push(record)
      entries.push(record.item)
      fresh.push(record)
    }
    lists.set(doc, { records, index, entries })
    const file = documentFile(display, doc, documents.get(doc)!, entries.slice(), fresh)
    edits.set(file, { from: before, positions: positions.sort((a, b) => a - b) })
    files.set(path, file)
  }
  return { dir: state.dir, heads: state.heads, lists, files }
}

/** A seed document made of its shown records, its text made only when asked for. */
function documentFile(
  display: string,
  doc: string,
  folded: Folded<DocumentRecord>,
  listed: readonly ItemRecord[] | unknown[],
  fresh: readonly ItemRecord[] | 'all' = 'all',
): RawFile {
  const head = folded.heads[0]!.record
  // Made whole: from the records shown; made again: the entries are given, those of `fresh` put in place.
  // Cast: made whole (`fresh` is 'all'), the list is of records; made again, of entries.
  const entries = fresh === 'all' ? (listed as readonly ItemRecord[]).map((record) => record.item) : listed
  // The entries kept from the last documents are frozen already: only the new ones are walked.
  const value =
    fresh === 'all'
      ? deepFreeze({ ...head.members, [head.list]: entries })
      : Object.freeze({ ...deepFreeze(head.members), [head.list]: Object.freeze(entries) })
  if (fresh !== 'all') for (const record of fresh) deepFreeze(record.item)
  return valueFile(display, doc, head, value)
}

/** A seed document of the records with the value `value` (a revision's, before it is written): its text made, hashed and encoded only when asked for. */
export function valueFile(display: string, doc: string, head: DocumentRecord, value: Readonly<Record<string, unknown>>): RawFile {
  // An identity shown, a revision's edit of the text, a convert ask for the text: a read needs only the value.
  let bytes: Uint8Array | undefined
  let sha256: string | undefined
  return {
    display: join(display, RECORDS_DIR, doc),
    json: { value },
    version: `records:${++made}`,
    get bytes() {
      bytes ??= new TextEncoder().encode(styled(value, head.style))
      return bytes
    },
    get sha256() {
      // Hashed in pieces: a document of a million cases is longer than a JavaScript string can be.
      if (sha256 === undefined) {
        const hash = createHash('sha256')
        for (const piece of styledPieces(value, head.list, head.style)) hash.update(piece, 'utf8')
        sha256 = hash.digest('hex')
      }
      return sha256
    },
  }
}

/** How many documents this process made from records: each one's {@link RawFile.version}. */
let made = 0

function compareKeys(a: ItemRecord, b: ItemRecord): number {
  const left = `${a.case}\u0000${a.slot ?? ''}`
  const right = `${b.case}\u0000${b.slot ?? ''}`
  return left < right ? -1 : left > right ? 1 : 0
}

/** Freezes a JSON value and everything in it: the documents share their entries with the records read, which nothing may change. */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value
  Object.freeze(value)
  // Walked in place: `Object.values` made an array of every object's members, five times the walk's cost.
  if (Array.isArray(value)) for (let at = 0; at < value.length; at++) deepFreeze(value[at])
  // Cast: an object that is not an array is read by its keys, which `for…in` gives (a JSON value has no inherited ones).
  else for (const key in value) deepFreeze((value as Record<string, unknown>)[key])
  return value
}
