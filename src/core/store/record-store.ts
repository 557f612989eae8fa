import { join } from 'node:path'
import { FixtureError, RevisionError } from '../common/errors.js'
import { sha256Hex } from '../json/canonical-json.js'
import type { FileWrite } from '../json/atomic-write.js'
import type { FixtureFileReader, RawFile } from '../json/read.js'
import {
  bucketNames,
  bucketOf,
  checkDocumentRecord,
  DOCUMENTS_FILE,
  type DocumentRecord,
  type ItemRecord,
  itemKey,
  LAYOUT_FILE,
  type Layout,
  mergesRecordsByLine,
  newProvenance,
  parseLayout,
  parseRecordLines,
  type Provenance,
  RECORDS_DIR,
  recordLine,
  type Stored,
} from './records.js'
import { currentHashes, type Folded, fold } from './fold.js'
import stableStringify from 'fast-json-stable-stringify'
import { detectStyle, parseDocument } from './document-style.js'
import { type Fork, materialise, type StoreKeys, valueFile } from './materialise.js'
import { bucketsDeleted, documentsMissing, foreignDocument, layoutMissing, strayRecordFile } from './records-refusals.js'
import { trackedButAbsent } from '../engine/file-history.js'
import { BucketItems } from './bucket-items.js'
import { keptRevisions } from './fork-keep.js'
import { heldLightly } from '../json/file-slices.js'
import { type BucketCache, bucketLines, foldItems } from './bucket-cache.js'
import type { CheckedBuckets } from './checked-buckets.js'

export type { Fork, StoreKeys } from './materialise.js'
export { describeItem } from './fork-keep.js'

/** A {@link RecordStore} as a structural type: what a loaded fixture holds (a class with private members would not compare across copies of the package's types). */
export type FixtureRecords = Pick<RecordStore, keyof RecordStore>

/**
 * A fixture in the records layout, read: its record files folded into the seed layout's documents
 * (`cases.json`, `annotations.json`, `reviews/<name>.json`, …), which the engine reads as it reads a
 * seed fixture, so both layouts decide alike. A change to those documents is written back as new
 * lines in the bucket files of the cases it touches, never as a rewrite of every case.
 */
export class RecordStore {
  private constructor(
    readonly dir: string,
    readonly display: string,
    readonly layout: Layout,
    private readonly keys: StoreKeys,
    /** Every record file read, by its name in `records/`. */
    private readonly files: ReadonlyMap<string, RawFile>,
    private readonly documents: ReadonlyMap<string, Folded<DocumentRecord>>,
    private readonly items: ReadonlyMap<string, Folded<ItemRecord>>,
    /** The seed documents, by absolute path. */
    private readonly virtualFiles: ReadonlyMap<string, RawFile>,
    /** Each entry as the seed documents show it, by key (compared as stable JSON when a save is written, never when read). */
    private readonly shown: (key: string) => unknown,
    readonly forks: readonly Fork[],
    /** Whether `records/.gitattributes` has git keep both sides' lines of a record file on a merge. */
    readonly mergesByLine: boolean,
    /** Only some bucket files were read: the documents hold those buckets' cases alone. */
    readonly partial: boolean,
  ) {}

  /** Reads the records of a fixture directory, or `undefined` when it is not in the records layout. */
  static async open(
    dir: string,
    display: string,
    read: FixtureFileReader,
    list: (dir: string) => Promise<readonly string[]>,
    keys: StoreKeys,
    /** Read a fixture whose documents forked (to resolve them), showing the earliest revision of each. */
    tolerateDocumentForks = false,
    /** Read only the bucket files of these cases (a save of one case): their documents then hold those buckets' cases alone. */
    scope?: readonly string[],
    /** The bucket files parsed at an earlier read of the fixture, reused where their bytes are unchanged. */
    cache?: BucketCache,
    /** With `scope`: the bucket files found sound before, by stamp; every other one is checked. */
    checked?: CheckedBuckets,
  ): Promise<RecordStore | undefined> {
    const names = await list(join(dir, RECORDS_DIR))
    if (!names.includes(LAYOUT_FILE)) {
      // A records/ holding records but no layout is a records fixture with its layout lost: read as the seed layout, its records would be left out.
      const held = names.filter((name) => !name.startsWith('.'))
      if (held.length === 0) return undefined
      throw layoutMissing(display, held)
    }
    const shown = (name: string) => join(display, RECORDS_DIR, name)
    const path = (name: string) => join(dir, RECORDS_DIR, name)
    const files = new Map<string, RawFile>()
    const layoutFile = await read(path(LAYOUT_FILE), shown(LAYOUT_FILE))
    files.set(LAYOUT_FILE, layoutFile)
    const layout = parseLayout(layoutFile.bytes, layoutFile.display)
    const buckets = new Set(bucketNames(layout.buckets))
    for (const name of names) {
      if (name === LAYOUT_FILE || name === DOCUMENTS_FILE || name.startsWith('.') || buckets.has(name)) continue
      throw strayRecordFile(display, name, names, layout.buckets)
    }
    const wanted = scope === undefined ? undefined : new Set(scope.map((caseId) => bucketOf(caseId, layout.buckets)))
    // A bucket file is made by the first save of one of its cases, so an absent one is most often unwritten; git tells one deleted.
    // A save that checks the other buckets (`checked`) asks after every absent one: a fixture refused for a deleted bucket refuses the save too.
    const absent = [...buckets].filter((each) => !names.includes(each) && (wanted === undefined || checked !== undefined || wanted.has(each)))
    const deleted = await trackedButAbsent(join(dir, RECORDS_DIR), absent)
    if (deleted.length > 0) throw bucketsDeleted(display, deleted)
    // A document's record is written before any of its entries': bucket files without the documents' file lost it.
    if (!names.includes(DOCUMENTS_FILE) && names.some((name) => buckets.has(name))) throw documentsMissing(display)
    const text = (file: RawFile) => new TextDecoder().decode(file.bytes)
    const documentLines: Stored<DocumentRecord>[] = []
    const documentsSuperseded = new Set<string>()
    if (names.includes(DOCUMENTS_FILE)) {
      const file = await read(path(DOCUMENTS_FILE), shown(DOCUMENTS_FILE))
      files.set(DOCUMENTS_FILE, file)
      documentLines.push(...parseRecordLines<DocumentRecord>(text(file), file.display, checkDocumentRecord, documentsSuperseded))
    }
    // A case's records are all in its bucket file, so each bucket folds alone (and a bucket whose bytes did not change is not folded again).
    const bucketFolds: ReadonlyMap<string, Folded<ItemRecord>>[] = []
    for (const name of [...buckets].filter((each) => names.includes(each) && (wanted === undefined || wanted.has(each)))) {
      const file = await read(path(name), shown(name))
      bucketFolds.push(cache === undefined ? foldItems(bucketLines(file, name, layout, display)) : cache.folded(file, name, layout, display))
      // Parsed, a large bucket file is kept by its SHA-256 when the reader took one (a store of the page's server would
      // otherwise hold every bucket's bytes: some 300 MB at 100,000 cases); its bytes are read again if a write asks.
      // A file whose bytes are read when asked for (one not read again since, or a save's, read from where it was read before)
      // holds none to let go: its getter is not called.
      const sha256 = file.sha256
      const held: unknown = Object.getOwnPropertyDescriptor(file, 'bytes')?.value
      files.set(name, sha256 === undefined || !(held instanceof Uint8Array) ? file : heldLightly(path(name), { display: file.display, sha256, bytes: held }))
    }
    // A save of some cases reads their buckets alone; every other bucket file must be sound too, as a whole read would find it.
    const others = [...buckets].filter((each) => names.includes(each) && wanted?.has(each) === false)
    if (checked !== undefined) await checked.check(display, others, layout, read)
    // A whole read through a cache takes over the index of every key the last one made, changing only the buckets that changed.
    const items = BucketItems.of(bucketFolds, scope === undefined ? cache?.items : undefined)
    if (cache !== undefined && scope === undefined) cache.items = items
    const documents = fold(
      documentLines,
      (record) => record.doc,
      (record) => stableStringify([record.members, record.style, record.list]),
      documentsSuperseded,
    )
    for (const folded of documents.values()) {
      if (!keys.isDocument(folded.key)) throw foreignDocument(display, folded.heads[0]!)
      if (folded.heads.length > 1 && !tolerateDocumentForks) {
        throw new FixtureError({
          code: 'RECORDS_FORKED',
          file: shown(DOCUMENTS_FILE),
          summary: `${folded.key} has ${folded.heads.length} revisions made apart (${folded.heads.map((head) => describeHead(head)).join('; ')}), so which one holds would be a guess.`,
          hint: `keep one: \`vitest-rubric resolve ${display} --document ${folded.key} --keep <save>\`, naming the save to keep.`,
        })
      }
    }
    const forks = items.forks()
    // A whole read after others through the same cache makes again only the documents the lines appended since then are in.
    const changes = scope === undefined ? cache?.takeChanges([...files.keys()].join('\u0000')) : undefined
    const previous = cache?.materialised === undefined || changes === undefined ? undefined : { state: cache.materialised, appended: changes }
    const { files: virtualFiles, shown: entries, state } = materialise(dir, display, documents, items, forks, keys, previous)
    if (cache !== undefined && scope === undefined) cache.materialised = state
    let mergesByLine = false
    if (names.includes('.gitattributes')) {
      const attributes = text(await read(path('.gitattributes'), shown('.gitattributes')))
      mergesByLine = mergesRecordsByLine(attributes)
    }
    return new RecordStore(dir, display, layout, keys, files, documents, items, virtualFiles, entries, forks, mergesByLine, scope !== undefined)
  }

  /** A seed document of the fixture (its absolute path), as the records make it. */
  virtual(path: string): RawFile | undefined {
    return this.virtualFiles.get(path)
  }

  /** The seed document `doc` (its path relative to the fixture directory) with the value `value`, as a revision proposes it; `undefined` for a document the records do not hold. */
  documentWith(doc: string, value: Readonly<Record<string, unknown>>): RawFile | undefined {
    const head = this.documents.get(doc)?.heads[0]?.record
    return head === undefined ? undefined : valueFile(this.display, doc, head, value)
  }

  /** The names of seed documents in a directory of the fixture (`reviews/` lists its reviewers' documents). */
  virtualNames(directory: string): string[] {
    const names: string[] = []
    for (const path of this.virtualFiles.keys()) {
      const slash = path.lastIndexOf('/')
      if (path.slice(0, slash) === directory) names.push(path.slice(slash + 1))
    }
    return names
  }

  /** The seed documents the records hold, by path relative to the fixture directory, cases first. */
  documentNames(): string[] {
    return [...this.documents.keys()].sort((a, b) => (a === 'cases.json' ? -1 : b === 'cases.json' ? 1 : a < b ? -1 : a > b ? 1 : 0))
  }

  /** The record files read, each with its SHA-256: a save is checked against them before it is written. */
  recordFiles(): ReadonlyMap<string, RawFile> {
    return this.files
  }

  /**
   * The writes that record `texts` (new texts of seed documents, by path relative to the fixture
   * directory) and `entries` (entries of seed documents put in place or added, the document's other
   * entries as they were): new lines appended to the bucket files of the cases that changed, and to
   * `documents.jsonl` for a document's other members. A change to a forked case is refused.
   */
  writesFor(
    texts: ReadonlyMap<string, string>,
    entries: ReadonlyMap<string, readonly unknown[]> = new Map(),
    provenance: Provenance = newProvenance(),
  ): FileWrite[] {
    const appended = new Map<string, string[]>()
    const append = (file: string, line: string) => appended.set(file, [...(appended.get(file) ?? []), line])
    const forked = new Set(this.forks.map((fork) => fork.caseId))
    for (const [doc, items] of entries) {
      // A partial read does not see every entry's place: a new entry is placed by the time, after every earlier one.
      const next = { n: this.partial ? Math.max(this.maxN(doc) + 1, Date.now()) : this.maxN(doc) + 1 }
      for (const item of items) this.recordItem(doc, item, next, forked, provenance, append)
    }
    for (const [doc, text] of texts) {
      const parsed = parseDocument(doc, text)
      const before = this.documents.get(doc)?.heads[0]
      const members = { ...parsed.members, [parsed.list]: [] }
      const style = detectStyle(text)
      if (
        before === undefined ||
        stableStringify([before.record.members, before.record.style, before.record.list]) !== stableStringify([members, style, parsed.list])
      ) {
        const record: DocumentRecord = { doc, list: parsed.list, members, style, replaces: before === undefined ? [] : [before.hash], ...provenance }
        append(DOCUMENTS_FILE, recordLine(record))
      }
      const seen = new Set<string>()
      // A partial read does not see every entry's place: a new entry is placed by the time, after every earlier one.
      const next = { n: this.partial ? Math.max(this.maxN(doc) + 1, Date.now()) : this.maxN(doc) + 1 }
      for (const item of parsed.items) seen.add(this.recordItem(doc, item, next, forked, provenance, append))
      for (const [id, folded] of this.items) {
        const head = folded.heads[0]!.record
        if (head.doc !== doc || seen.has(id) || forked.has(head.case) || folded.heads.every((each) => each.record.removed === true)) continue
        const record: ItemRecord = {
          doc,
          case: head.case,
          ...(head.slot === undefined ? {} : { slot: head.slot }),
          n: head.n,
          removed: true,
          replaces: currentHashes(folded),
          ...provenance,
        }
        append(bucketOf(head.case, this.layout.buckets), recordLine(record))
      }
    }
    return [...appended].map(([name, lines]) => {
      const file = this.files.get(name)
      const added = new TextEncoder().encode(lines.join(''))
      const path = join(this.dir, RECORDS_DIR, name)
      const display = join(this.display, RECORDS_DIR, name)
      if (file === undefined) return { path, display, contents: added, basedOn: null }
      // The file as it is, copied by the file system, with the lines after it: the file is still replaced whole, but its
      // bytes are not held, decoded or encoded again (a save through the page reads only the lines added since it last read).
      return { path, display, contents: { copyOf: path, append: added }, basedOn: file.sha256 ?? sha256Hex(file.bytes) }
    })
  }

  /** The record of an entry of `doc` as written now, appended unless the entry is as the documents show it; its key. */
  private recordItem(
    doc: string,
    item: unknown,
    next: { n: number },
    forked: ReadonlySet<string>,
    provenance: Provenance,
    append: (file: string, line: string) => void,
  ): string {
    const key = this.keys.keyOf(doc, item)
    if (key === undefined) throw unkeyed(this.display, doc)
    const id = itemKey(doc, key.case, key.slot)
    const was = this.shown(id)
    // Most entries come back as they were, their keys in the same order: the cheap comparison first.
    if (was !== undefined && (JSON.stringify(was) === JSON.stringify(item) || stableStringify(was) === stableStringify(item))) return id
    if (forked.has(key.case)) throw forkedWrite(this.display, key.case)
    const folded = this.items.get(id)
    const heads = folded?.heads ?? []
    const head = heads[0]?.record
    const n = head === undefined || head.removed === true ? next.n++ : head.n
    const record: ItemRecord = {
      doc,
      case: key.case,
      ...(key.slot === undefined ? {} : { slot: key.slot }),
      n,
      item,
      replaces: folded === undefined ? [] : currentHashes(folded),
      ...provenance,
    }
    append(bucketOf(key.case, this.layout.buckets), recordLine(record))
    return id
  }

  /** Every line of a bucket file that `writesFor` would add: how many lines a change costs (for tests). */
  lineCount(name: string): number {
    const file = this.files.get(name)
    return file === undefined ? 0 : new TextDecoder().decode(file.bytes).split('\n').length - 1
  }

  private maxN(doc: string): number {
    let max = -1
    for (const folded of this.items.values()) for (const head of folded.heads) if (head.record.doc === doc && head.record.n > max) max = head.record.n
    return max
  }

  /** The heads of an item, for `resolve`. */
  headsOf(doc: string, caseId: string, slot: string | undefined): readonly Stored<ItemRecord>[] {
    return this.items.get(itemKey(doc, caseId, slot))?.heads ?? []
  }

  /** Every forked record of a case, keyed as the store keys them. */
  forkedItems(caseId: string): readonly Folded<ItemRecord>[] {
    return [...this.items.values()].filter((folded) => folded.heads.length > 1 && folded.heads[0]!.record.case === caseId)
  }

  /** Each seed document whose members were revised apart, with its revisions. */
  documentForks(): readonly Folded<DocumentRecord>[] {
    return [...this.documents.values()].filter((folded) => folded.heads.length > 1)
  }

  /** The line that resolves a document's fork by keeping the revision written by `save`. */
  documentResolution(doc: string, save: string, provenance: Provenance = newProvenance()): FileWrite {
    const folded = this.documents.get(doc)
    const kept = folded?.heads.find((head) => head.record.save === save)
    if (folded === undefined || folded.heads.length < 2 || kept === undefined) {
      throw new RevisionError({
        code: 'RECORDS_FORKED',
        file: join(this.display, RECORDS_DIR, DOCUMENTS_FILE),
        summary:
          folded === undefined || folded.heads.length < 2
            ? `${doc} has no revisions made apart; nothing was written.`
            : `no revision of ${doc} was made by save ${save}; nothing was written.`,
        ...(folded !== undefined && folded.heads.length > 1 ? { expected: `one of the saves ${folded.heads.map((head) => head.record.save).join(', ')}` } : {}),
        hint: 'name a document and a save that the fork names (`vitest-rubric status` lists them).',
      })
    }
    const { save: _s, at: _a, by: _b, replaces: _r, ...rest } = kept.record
    const file = this.files.get(DOCUMENTS_FILE)!
    return {
      path: join(this.dir, RECORDS_DIR, DOCUMENTS_FILE),
      display: join(this.display, RECORDS_DIR, DOCUMENTS_FILE),
      contents: new TextDecoder().decode(file.bytes) + recordLine({ ...rest, replaces: currentHashes(folded), ...provenance }),
      basedOn: file.sha256 ?? sha256Hex(file.bytes),
    }
  }

  /** The lines that resolve a case's forks by keeping, of each forked record, the head written by one of `saves` ({@link keptRevisions}). */
  resolution(caseId: string, saves: readonly string[], provenance: Provenance = newProvenance()): FileWrite {
    const forked = this.forkedItems(caseId)
    const kept = keptRevisions(caseId, forked, saves, join(this.display, RECORDS_DIR, bucketOf(caseId, this.layout.buckets)))
    const lines = kept.map((head, index) => {
      const { save: _s, at: _a, by: _b, replaces: _r, ...rest } = head.record
      return recordLine({ ...rest, replaces: currentHashes(forked[index]!), ...provenance })
    })
    const name = bucketOf(caseId, this.layout.buckets)
    const file = this.files.get(name)!
    return {
      path: join(this.dir, RECORDS_DIR, name),
      display: join(this.display, RECORDS_DIR, name),
      contents: new TextDecoder().decode(file.bytes) + lines.join(''),
      basedOn: file.sha256 ?? sha256Hex(file.bytes),
    }
  }
}

function describeHead(head: Stored<Provenance>): string {
  return `${head.at} by ${head.record.by} at ${head.record.at}, save ${head.record.save}`
}

function unkeyed(display: string, doc: string): RevisionError {
  return new RevisionError({
    code: 'RECORDS_MALFORMED',
    file: join(display, RECORDS_DIR, doc),
    summary: 'an entry of the document names no case, so it cannot be filed by case; nothing was written.',
    hint: 'give every entry its case id.',
  })
}

/** The refusal of a change to a case whose records were revised apart. */
export function forkedWrite(display: string, caseId: string): RevisionError {
  return new RevisionError({
    code: 'RECORDS_FORKED',
    file: join(display, RECORDS_DIR),
    caseId,
    summary: `case "${caseId}" has records revised apart (two branches, or two machines), and which revision holds is not settled; nothing was written.`,
    hint: `settle it first: \`vitest-rubric status ${display}\` lists both revisions, and \`vitest-rubric resolve ${display} ${caseId} --keep <save>\` keeps one.`,
  })
}
