import type { RawFile } from '../json/read.js'
import { sha256Hex } from '../json/canonical-json.js'
import { readCaseEntries, readReviewDocument, type CaseEntries, type ReviewDocument } from './documents.js'
import type { CaseEntry } from './fixture.js'
import type { SomeKindDefinition } from './kind.js'

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

function shaOf(file: RawFile): string {
  return file.sha256 ?? sha256Hex(file.bytes)
}
