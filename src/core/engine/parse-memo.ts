import { isObject } from '../common/primitives.js'
import { topLevelListItems } from '../json/json-edit.js'
import { jsonStructureProblem, MAX_JSON_DEPTH } from '../json/json-structure.js'
import type { RawFile } from '../json/read.js'
import { sha256Hex } from '../json/canonical-json.js'
import { BucketCache } from '../store/record-store.js'
import { readCaseEntries, readReviewDocument, type CaseEntries, type ReviewDocument } from './documents.js'
import type { CaseEntry } from './entries.js'
import type { SomeKindDefinition } from '../contract/kind.js'

/**
 * What a loader parsed of each file, by the SHA-256 of its bytes: a fixture loaded again through
 * the same memo parses only the files whose bytes changed. A review file is reused while every
 * case it names is still in `cases.json`; otherwise it is read again, which names the review of an
 * unknown case exactly as a first load does.
 */
export class ParseMemo {
  private rubricEntry: { readonly key: string; readonly value: unknown } | undefined
  private casesEntry: { readonly key: string; readonly value: CaseEntries; readonly ids: ReadonlySet<string> } | undefined
  private readonly documents = new Map<string, { readonly sha: string; readonly value: ReviewDocument }>()
  private readonly extra = new Map<string, { readonly sha: string; readonly value: ReadonlyMap<string, unknown> }>()
  /** The parsed lines of the bucket files of a fixture in the records layout. */
  readonly buckets = new BucketCache()
  /** The last whole document the records made, by its display path. */
  private readonly derived = new Map<string, RawFile>()

  /** The bound rubric of these rubric (and source) bytes, bound again only when they changed. */
  rubric<R>(files: { readonly rubric: RawFile; readonly source?: RawFile }, bind: () => R): R {
    const key = `${shaOf(files.rubric)}:${files.source === undefined ? '' : shaOf(files.source)}`
    if (this.rubricEntry?.key === key) return this.rubricEntry.value as R // Cast: stored by this method for the same kind, under the same key.
    const value = bind()
    this.rubricEntry = { key, value }
    return value
  }

  /** `cases.json` read, parsed again only when its bytes changed. */
  cases(definition: SomeKindDefinition, file: RawFile): CaseEntries {
    const key = `${file.display}:${shaOf(file)}`
    if (this.casesEntry?.key === key) return this.casesEntry.value
    const value = readCaseEntries(definition, file)
    this.casesEntry = { key, value, ids: new Set(value.entries.map((entry) => entry.id)) }
    return value
  }

  /** A review file read, parsed again when its bytes changed or a case it names is gone. */
  reviewDocument(definition: SomeKindDefinition, file: RawFile, cases: readonly CaseEntry[], casesFile: string): ReviewDocument {
    const sha = shaOf(file)
    const kept = this.documents.get(file.display)
    if (kept !== undefined && kept.sha === sha && this.allKnown(kept.value.reviews.keys(), cases)) return kept.value
    const value = readReviewDocument(definition, file, cases, casesFile)
    this.documents.set(file.display, { sha, value })
    return value
  }

  /**
   * Gives the memo the parse of a file's new text, made from the parse of its old text without
   * reading the new one whole, when the two differ in one element of the file's top-level list
   * (`cases` or `reviews`), replaced or appended: what a revision's edit of one case or one review
   * makes. Anything else (another edit, an element the file's checks would refuse, an old text the
   * memo did not parse) primes nothing, and the new text is parsed whole when it is loaded, which
   * also names what is wrong with it.
   */
  primeEdit(
    definition: SomeKindDefinition,
    display: string,
    before: { readonly sha: string; readonly text: string },
    after: { readonly sha: string; readonly text: string },
  ): void {
    if (this.casesEntry?.key === `${display}:${before.sha}`) {
      const edited = editedElement(before.text, after.text, 'cases')
      if (edited === undefined || edited.insert) return
      const value = editedCases(definition, this.casesEntry.value, edited.index, edited.value)
      if (value !== undefined) this.casesEntry = { key: `${display}:${after.sha}`, value, ids: this.casesEntry.ids }
      return
    }
    const kept = this.documents.get(display)
    if (kept === undefined || kept.sha !== before.sha) return
    const edited = editedElement(before.text, after.text, 'reviews')
    const ids = this.casesEntry?.ids
    if (edited === undefined || ids === undefined) return
    const value = editedReviews(definition, kept.value, edited, ids)
    if (value !== undefined) this.documents.set(display, { sha: after.sha, value })
  }

  /**
   * Primes the memo with a document the records layout made (`cases.json`, `annotations.json`, …,
   * folded from record lines): its text against the one made at the last read, as
   * {@link primeEdit} does for a revision's edit. A save of one case through the page or the command
   * line then costs its element's parse, not the whole document's. Only whole documents are kept:
   * a read of some bucket files makes partial ones, which prime nothing.
   */
  primeDerived(definition: SomeKindDefinition, file: RawFile): void {
    const before = this.derived.get(file.display)
    this.derived.set(file.display, file)
    if (before === undefined) return
    const [beforeSha, afterSha] = [shaOf(before), shaOf(file)]
    if (beforeSha === afterSha) return
    this.primeEdit(definition, file.display, { sha: beforeSha, text: textOf(before) }, { sha: afterSha, text: textOf(file) })
  }

  /** Anything else read of one file by case id (the adoptions), by a name of its own: reused like a review file. */
  byCase<T extends ReadonlyMap<string, unknown>>(name: string, file: RawFile, cases: readonly CaseEntry[], make: () => T): T {
    const sha = shaOf(file)
    const kept = this.extra.get(name)
    if (kept !== undefined && kept.sha === sha && this.allKnown(kept.value.keys(), cases)) return kept.value as T // Cast: stored by this method under the same name, by the same reader.
    const value = make()
    this.extra.set(name, { sha, value })
    return value
  }

  private allKnown(caseIds: Iterable<string>, cases: readonly CaseEntry[]): boolean {
    const ids = this.casesEntry?.value.entries === cases ? this.casesEntry.ids : new Set(cases.map((entry) => entry.id))
    for (const caseId of caseIds) if (!ids.has(caseId)) return false
    return true
  }
}

/** The one element of the top-level list `key` that `after` replaces or appends in `before`, parsed; `undefined` for any other difference. */
function editedElement(before: string, after: string, key: string): { readonly index: number; readonly insert: boolean; readonly value: unknown } | undefined {
  const items = topLevelListItems(before, key)
  if (items === undefined || items.length === 0) return undefined
  const shorter = Math.min(before.length, after.length)
  let prefix = 0
  while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++
  let suffix = 0
  while (suffix < shorter - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++
  const end = before.length - suffix
  const grown = after.length - before.length
  // An element nests two levels below the top (the document, its list): a deep element or a key held twice is named by parsing the file whole.
  const parse = (start: number, stop: number): unknown => {
    const element = after.slice(start, stop)
    try {
      const value: unknown = JSON.parse(element)
      return jsonStructureProblem(element, MAX_JSON_DEPTH - 2) === undefined ? value : NOT_PARSED
    } catch {
      return NOT_PARSED
    }
  }
  const index = items.findIndex(([start, stop]) => start <= prefix && end <= stop)
  if (index !== -1) {
    const [start, stop] = items[index]!
    const value = parse(start, stop + grown)
    return value === NOT_PARSED ? undefined : { index, insert: false, value }
  }
  // Appended: the new text holds one element more, the others as they were.
  const last = items[items.length - 1]!
  if (prefix < last[1] || end > last[1]) return undefined
  const afterItems = topLevelListItems(after, key)
  const added = afterItems?.[items.length]
  if (afterItems === undefined || added === undefined || afterItems.length !== items.length + 1) return undefined
  const value = parse(added[0], added[1])
  return value === NOT_PARSED ? undefined : { index: items.length, insert: true, value }
}

const NOT_PARSED = Symbol('not parsed')

/** The cases with the one at `index` replaced by `value`, when it keeps its id. */
function editedCases(definition: SomeKindDefinition, cases: CaseEntries, index: number, value: unknown): CaseEntries | undefined {
  const before = cases.entries[index]
  if (before === undefined || !isObject(value) || value['id'] !== before.id) return undefined
  const entries = [...cases.entries]
  entries[index] = { id: before.id, split: definition.splitOf(value, cases.members), value, path: before.path }
  return { name: cases.name, entries, members: cases.members }
}

/** The reviews with the one at `index` replaced, or one appended, when it names a case `cases.json` holds and a slot free for it. */
function editedReviews(
  definition: SomeKindDefinition,
  document: ReviewDocument,
  edited: { readonly index: number; readonly insert: boolean; readonly value: unknown },
  ids: ReadonlySet<string>,
): ReviewDocument | undefined {
  const { caseKey, slotKey, slots } = definition.reviews
  const { value } = edited
  if (!isObject(value)) return undefined
  const caseId = value[caseKey]
  const slot = slotKey === undefined ? slots[0] : value[slotKey]
  if (typeof caseId !== 'string' || caseId === '' || !ids.has(caseId) || typeof slot !== 'string' || !slots.includes(slot)) return undefined
  const bySlot = document.reviews.get(caseId)
  const earlier = bySlot?.[slot]
  if (edited.insert ? earlier !== undefined : earlier?.path[1] !== edited.index) return undefined
  const reviews = new Map(document.reviews)
  reviews.set(caseId, { ...bySlot, [slot]: { caseId, slot, value, path: ['reviews', edited.index] } })
  return { origin: document.origin, reviews }
}

function shaOf(file: RawFile): string {
  return file.sha256 ?? sha256Hex(file.bytes)
}

/** A document made from records: UTF-8 the store encoded itself. */
function textOf(file: RawFile): string {
  return new TextDecoder().decode(file.bytes)
}
