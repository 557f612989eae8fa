import { join } from 'node:path'
import type { RawFile } from '../json/read.js'
import { createHash } from 'node:crypto'
import { styled } from './document-style.js'
import { CASES_DOC, type DocumentRecord, type Folded, type ItemRecord, type Provenance, RECORDS_DIR } from './records.js'

/** What the store needs to know of a fixture's kind: how an entry names its case and slot, and how a case is left unreviewed. */
export interface StoreKeys {
  /** The case and slot of an entry of a document's list; `undefined` when the entry does not name them (the engine refuses it). */
  readonly keyOf: (doc: string, item: unknown) => { readonly case: string; readonly slot?: string } | undefined
  /** A case entry with every review binding set to the fingerprint of `null`: what a forked case is shown as while it waits. */
  readonly unreviewed: (caseItem: unknown) => unknown
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

/**
 * The seed documents the records make. A forked case is shown unreviewed (its review bindings
 * those of no review, its adopted reviews and forked records left out), so it stays pending until
 * a person resolves the fork.
 */
export function materialise(
  dir: string,
  display: string,
  documents: ReadonlyMap<string, Folded<DocumentRecord>>,
  items: ReadonlyMap<string, Folded<ItemRecord>>,
  forks: readonly Fork[],
  keys: StoreKeys,
): { files: Map<string, RawFile>; shown: Map<string, unknown> } {
  const shown = new Map<string, unknown>()
  const forked = new Set(forks.map((fork) => fork.caseId))
  const byDoc = new Map<string, ItemRecord[]>()
  for (const folded of items.values()) {
    const heads = folded.heads
    let record = heads[0]!.record
    if (forked.has(record.case)) {
      if (record.doc === 'annotations.json') continue
      if (heads.length > 1) {
        if (record.doc !== CASES_DOC) continue
        record = [...heads].sort((a, b) => (a.record.at < b.record.at ? -1 : a.record.at > b.record.at ? 1 : a.hash < b.hash ? -1 : 1))[0]!.record
      }
      if (record.doc === CASES_DOC && record.removed !== true) record = { ...record, item: keys.unreviewed(record.item) }
    }
    if (record.removed === true) continue
    shown.set(folded.key, record.item)
    const list = byDoc.get(record.doc) ?? []
    list.push(record)
    byDoc.set(record.doc, list)
  }
  const files = new Map<string, RawFile>()
  for (const [doc, folded] of documents) {
    const head = folded.heads[0]!.record
    const entries = (byDoc.get(doc) ?? []).sort((a, b) => a.n - b.n || compareKeys(a, b)).map((record) => record.item)
    const value = deepFreeze({ ...head.members, [head.list]: entries })
    // Its text is made, hashed and encoded only when asked for (an identity shown, a revision's edit, a convert): a read needs only the value.
    let bytes: Uint8Array | undefined
    let sha256: string | undefined
    files.set(join(dir, doc), {
      display: join(display, RECORDS_DIR, doc),
      json: { value },
      version: `records:${++made}`,
      get bytes() {
        bytes ??= new TextEncoder().encode(styled(value, head.style))
        return bytes
      },
      get sha256() {
        sha256 ??= createHash('sha256').update(styled(value, head.style), 'utf8').digest('hex')
        return sha256
      },
    })
  }
  return { files, shown }
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
  for (const each of Object.values(value)) deepFreeze(each)
  return value
}
