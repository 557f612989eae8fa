import { isObject } from '../common/primitives.js'
import { topLevelListItems } from '../json/json-edit.js'
import { jsonStructureProblem, MAX_JSON_DEPTH } from '../json/json-structure.js'
import type { RawFile } from '../json/read.js'
import { sha256Hex } from '../json/canonical-json.js'
import { BucketCache } from '../store/bucket-cache.js'
import { readCaseEntries, readReviewDocument, type CaseEntries, type ReviewDocument } from './documents.js'
import type { CaseEntry } from './entries.js'
import type { SomeKindDefinition } from '../contract/kind.js'
import { OverlayMap } from './overlay-map.js'
import { documentEdit } from '../store/materialise.js'

/**
 * What a loader parsed of each file, by the SHA-256 of its bytes: a fixture loaded again through
 * the same memo parses only the files whose bytes changed. A review file is reused while every
 * case it names is still in `cases.json`; otherwise it is read again, which names the review of an
 * unknown case exactly as a first load does.
 */
export class ParseMemo {
  private rubricEntry: { readonly key: string; readonly value: unknown } | undefined
  private casesEntry: { readonly key: string; readonly value: CaseEntries; readonly ids: ReadonlySet<string> } | undefined
  /** Each review document parsed, with the case ids (`casesEntry.ids`) every case it names was last found in. */
  private readonly documents = new Map<string, { readonly sha: string; readonly value: ReviewDocument; readonly ids?: ReadonlySet<string> }>()
  private readonly extra = new Map<string, { readonly sha: string; readonly value: ReadonlyMap<string, unknown> }>()
  /** The parsed lines of the bucket files of a fixture in the records layout. */
  readonly buckets = new BucketCache()
  /** What {@link derivedOf} made, by name. */
  private readonly made = new Map<string, { readonly parts: readonly object[]; readonly value: unknown }>()
  /** The last whole document the records made, by its display path. */
  private readonly derived = new Map<string, RawFile>()
  /** The ids of the cases whose parsed entries were put in place since {@link takeChangedCases}; `undefined` once a file was parsed whole. */
  private changed: Set<string> | undefined = new Set()

  /**
   * The ids of the cases whose entries (a case, a review of one) this memo gave anew since the last
   * call, every other entry it gave being the very value it gave before; `undefined` when a file was
   * parsed whole meanwhile, which may have changed any case. An evaluation kept up to date asks it
   * after each read, so that a save of one case decides that case without comparing every other.
   */
  takeChangedCases(): ReadonlySet<string> | undefined {
    const changed = this.changed
    this.changed = new Set()
    return changed
  }

  /** The bound rubric of these rubric (and source) bytes, bound again only when they changed. */
  rubric<R>(files: { readonly rubric: RawFile; readonly source?: RawFile }, bind: () => R): R {
    const key = `${shaOf(files.rubric)}:${files.source === undefined ? '' : shaOf(files.source)}`
    if (this.rubricEntry?.key === key) return this.rubricEntry.value as R // Cast: stored by this method for the same kind, under the same key.
    const value = bind()
    this.changed = undefined
    this.rubricEntry = { key, value }
    return value
  }

  /** `cases.json` read, parsed again only when its bytes changed. */
  cases(definition: SomeKindDefinition, file: RawFile): CaseEntries {
    const key = `${file.display}:${shaOf(file)}`
    if (this.casesEntry?.key === key) return this.casesEntry.value
    const value = readCaseEntries(definition, file)
    this.changed = undefined
    this.casesEntry = { key, value, ids: new Set(value.entries.map((entry) => entry.id)) }
    return value
  }

  /** A review file read, parsed again when its bytes changed or a case it names is gone. */
  reviewDocument(definition: SomeKindDefinition, file: RawFile, cases: readonly CaseEntry[], casesFile: string): ReviewDocument {
    const sha = shaOf(file)
    const kept = this.documents.get(file.display)
    const ids = this.casesEntry?.value.entries === cases ? this.casesEntry.ids : undefined
    // Checked against these very case ids before: every case it names is known still.
    if (kept !== undefined && kept.sha === sha && ids !== undefined && kept.ids === ids) return kept.value
    if (kept !== undefined && kept.sha === sha && this.allKnown(kept.value.reviews.keys(), cases)) {
      if (ids !== undefined) this.documents.set(file.display, { ...kept, ids })
      return kept.value
    }
    const value = readReviewDocument(definition, file, cases, casesFile)
    this.changed = undefined
    this.documents.set(file.display, { sha, value, ...(ids === undefined ? {} : { ids }) })
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
    const list = this.casesEntry?.key === `${display}:${before.sha}` ? 'cases' : 'reviews'
    this.primeElement(definition, display, before.sha, after.sha, editedElement(before.text, after.text, list))
  }

  /**
   * Primes the memo with a document the records layout made (`cases.json`, `annotations.json`, …,
   * folded from record lines), against the one made at the last read: the same entries (the very
   * objects the records were read into) carry their parse over, and one entry replaced or added is
   * parsed alone, as {@link primeEdit} does for a revision's edit. A save of one case through the
   * page or the command line then costs its entry's parse, not the whole document's. Only whole
   * documents are kept: a read of some bucket files makes partial ones, which prime nothing.
   */
  primeDerived(definition: SomeKindDefinition, file: RawFile): void {
    const before = this.derived.get(file.display)
    this.derived.set(file.display, file)
    if (before === undefined) return
    const [beforeKey, afterKey] = [shaOf(before), shaOf(file)]
    if (beforeKey === afterKey) return
    const list = this.casesEntry?.key === `${file.display}:${beforeKey}` ? 'cases' : 'reviews'
    // Made again by a save from the very document before: the records say which entries they put in place, and nothing is compared.
    const made = documentEdit(file)
    const edit =
      made?.from === before ? madeEntry(before.json?.value, file.json?.value, list, made.positions) : editedEntry(before.json?.value, file.json?.value, list)
    if (edit === 'same') this.rekey(file.display, beforeKey, afterKey)
    else this.primeElement(definition, file.display, beforeKey, afterKey, edit)
  }

  /** Carries what was parsed of a document over to the same contents under another key. */
  private rekey(display: string, before: string, after: string): void {
    if (this.casesEntry?.key === `${display}:${before}`) this.casesEntry = { ...this.casesEntry, key: `${display}:${after}` }
    const kept = this.documents.get(display)
    if (kept?.sha === before) this.documents.set(display, { ...kept, sha: after })
    for (const [name, extra] of this.extra) if (extra.sha === before) this.extra.set(name, { sha: after, value: extra.value })
  }

  /** Gives the memo the parse of a document whose one element `edited` differs from the one parsed under `before`. */
  private primeElement(definition: SomeKindDefinition, display: string, before: string, after: string, edited: EditedElement | undefined): void {
    if (edited === undefined) return
    if (this.casesEntry?.key === `${display}:${before}`) {
      if (edited.insert) return
      const value = editedCases(definition, this.casesEntry.value, edited.index, edited.value)
      if (value === undefined) return
      this.casesEntry = { key: `${display}:${after}`, value, ids: this.casesEntry.ids }
      this.changed?.add(value.entries[edited.index]!.id)
      return
    }
    const kept = this.documents.get(display)
    if (kept === undefined || kept.sha !== before) return
    const ids = this.casesEntry?.ids
    if (ids === undefined) return
    const edit = editedReviews(definition, kept.value, edited, ids)
    if (edit === undefined) return
    // The entry edited names a case of `ids`, and the others were checked against them: so is the whole.
    this.documents.set(display, { sha: after, value: edit.value, ...(kept.ids === ids ? { ids } : {}) })
    this.changed?.add(edit.caseId)
  }

  /**
   * What is made of several parsed documents (a directory's labels, by case): made again only when
   * one of them is not the very value it was at the last call under the same name.
   */
  derivedOf<T>(name: string, parts: readonly object[], make: () => T): T {
    const kept = this.made.get(name)
    if (kept !== undefined && kept.parts.length === parts.length && kept.parts.every((part, index) => part === parts[index])) return kept.value as T // Cast: stored by this method under the same name, by the same maker.
    const value = make()
    // As many parts as before: each part not the very value it was is a document this memo parsed whole (which gave up the changed cases) or edited
    // in one entry (whose case it noted), so what is made differs from before in those cases alone. Parts added or taken away may change any case.
    if (kept === undefined || kept.parts.length !== parts.length) this.changed = undefined
    this.made.set(name, { parts, value })
    return value
  }

  /** Anything else read of one file by case id (the adoptions), by a name of its own: reused like a review file. */
  byCase<T extends ReadonlyMap<string, unknown>>(name: string, file: RawFile, cases: readonly CaseEntry[], make: () => T): T {
    const sha = shaOf(file)
    const kept = this.extra.get(name)
    if (kept !== undefined && kept.sha === sha && this.allKnown(kept.value.keys(), cases)) return kept.value as T // Cast: stored by this method under the same name, by the same reader.
    const value = make()
    this.changed = undefined
    this.extra.set(name, { sha, value })
    return value
  }

  private allKnown(caseIds: Iterable<string>, cases: readonly CaseEntry[]): boolean {
    const ids = this.casesEntry?.value.entries === cases ? this.casesEntry.ids : new Set(cases.map((entry) => entry.id))
    for (const caseId of caseIds) if (!ids.has(caseId)) return false
    return true
  }
}

interface EditedElement {
  readonly index: number
  readonly insert: boolean
  readonly value: unknown
}

/**
 * How document value `after` differs from `before`, by identity, not by content: `'same'` when
 * every member and entry is the very value it was; the one entry of the list `key` replaced or
 * appended; `undefined` for any other difference (which parses the document whole).
 */
function editedEntry(before: unknown, after: unknown, key: string): EditedElement | 'same' | undefined {
  if (!isObject(before) || !isObject(after)) return undefined
  const [was, now] = [before[key], after[key]]
  const names = Object.keys(after)
  if (!Array.isArray(was) || !Array.isArray(now) || names.length !== Object.keys(before).length) return undefined
  // The other members are a few small values, made anew at each read: compared as JSON.
  for (const name of names) if (name !== key && JSON.stringify(before[name]) !== JSON.stringify(after[name])) return undefined
  if (now.length !== was.length && now.length !== was.length + 1) return undefined
  let changed = -1
  for (let index = 0; index < was.length; index++) {
    if (was[index] === now[index]) continue
    if (changed !== -1) return undefined
    changed = index
  }
  if (now.length === was.length) return changed === -1 ? 'same' : { index: changed, insert: false, value: now[changed] }
  return changed === -1 ? { index: was.length, insert: true, value: now[was.length] } : undefined
}

/** The entry at `positions` of the list `key` of a document made again from the one before, as {@link editedEntry} tells it. */
function madeEntry(before: unknown, after: unknown, key: string, positions: readonly number[]): EditedElement | 'same' | undefined {
  const [was, now] = [isObject(before) ? before[key] : undefined, isObject(after) ? after[key] : undefined]
  if (!Array.isArray(was) || !Array.isArray(now) || positions.length > 1) return undefined
  const index = positions[0]
  if (index === undefined) return 'same'
  return { index, insert: index >= was.length, value: now[index] }
}

/** The one element of the top-level list `key` that `after` replaces or appends in `before`, parsed; `undefined` for any other difference. */
function editedElement(before: string, after: string, key: string): EditedElement | undefined {
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
    if (value !== NOT_PARSED) return { index, insert: false, value }
    // An element appended after the last one changes the text from that one's very end: it is not an edit of it.
    if (index !== items.length - 1 || prefix !== stop) return undefined
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
  const entries = cases.entries.slice()
  entries[index] = { id: before.id, split: definition.splitOf(value, cases.members), value, path: before.path }
  return { name: cases.name, entries, members: cases.members }
}

/** The reviews with the one at `index` replaced, or one appended, when it names a case `cases.json` holds and a slot free for it. */
function editedReviews(
  definition: SomeKindDefinition,
  document: ReviewDocument,
  edited: EditedElement,
  ids: ReadonlySet<string>,
): { readonly value: ReviewDocument; readonly caseId: string } | undefined {
  const { caseKey, slotKey, slots } = definition.reviews
  const { value } = edited
  if (!isObject(value)) return undefined
  const caseId = value[caseKey]
  const slot = slotKey === undefined ? slots[0] : value[slotKey]
  if (typeof caseId !== 'string' || caseId === '' || !ids.has(caseId) || typeof slot !== 'string' || !slots.includes(slot)) return undefined
  const bySlot = document.reviews.get(caseId)
  const earlier = bySlot?.[slot]
  if (edited.insert ? earlier !== undefined : earlier?.path[1] !== edited.index) return undefined
  // The other cases' reviews are shared with the document before, not copied: one review saved costs one entry.
  const reviews = OverlayMap.withEntries(document.reviews, [[caseId, { ...bySlot, [slot]: { caseId, slot, value, path: ['reviews', edited.index] } }]])
  return { value: { origin: document.origin, reviews }, caseId }
}

/** The key of a file's contents: a document made from records is known by its version, which costs nothing. */
function shaOf(file: RawFile): string {
  return file.version ?? file.sha256 ?? sha256Hex(file.bytes)
}
