import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { RevisionError } from '../common/errors.js'
import { sha256Hex } from '../json/canonical-json.js'
import type { FileWrite } from '../json/atomic-write.js'
import type { RawFile } from '../json/read.js'
import { detectStyle, listOf, parseDocument, styled } from './document-style.js'
import { type FixtureRecords, RecordStore, type StoreKeys } from './record-store.js'
import {
  bucketOf,
  bucketsFor,
  DOCUMENTS_FILE,
  type DocumentRecord,
  GIT_ATTRIBUTES,
  type ItemRecord,
  LAYOUT_FILE,
  LAYOUT_NAME,
  LAYOUT_VERSION,
  newProvenance,
  RECORDS_DIR,
  recordLine,
} from './records.js'

/** A seed document of a fixture: its path relative to the fixture directory, and its text. */
export interface SeedDocument {
  readonly doc: string
  readonly text: string
}

/**
 * The files of the records layout that hold exactly `documents` (seed documents, cases first), and
 * the check that reading them back gives every document byte for byte: a document the records
 * cannot give back as it is refuses the conversion (`CONVERT_NOT_LOSSLESS`), and nothing is written.
 */
export async function recordsOf(
  dir: string,
  display: string,
  documents: readonly SeedDocument[],
  keys: StoreKeys,
  buckets?: number,
): Promise<{ files: Map<string, string>; buckets: number }> {
  const provenance = newProvenance()
  const cases = documents.find((each) => each.doc === 'cases.json')
  const count = cases === undefined ? 0 : parseDocument('cases.json', cases.text).items.length
  const chosen = buckets ?? bucketsFor(count)
  const files = new Map<string, string>()
  const add = (name: string, line: string) => files.set(name, (files.get(name) ?? '') + line)
  files.set(LAYOUT_FILE, `${JSON.stringify({ layout: LAYOUT_NAME, version: LAYOUT_VERSION, buckets: chosen }, null, 2)}\n`)
  files.set('.gitattributes', GIT_ATTRIBUTES)
  for (const { doc, text } of documents) {
    const style = detectStyle(text)
    let parsed: ReturnType<typeof parseDocument>
    try {
      parsed = parseDocument(doc, text)
    } catch {
      throw notLossless(
        display,
        doc,
        `it is not a JSON document with a ${listOf(doc)} list`,
        'make the fixture load (`vitest-rubric status` names what is wrong), then convert it.',
      )
    }
    const again = styled({ ...parsed.members, [parsed.list]: parsed.items }, style)
    if (again !== text && text.includes('\r\n'))
      throw notLossless(
        display,
        doc,
        'its line breaks are CR LF, and the records write it back with LF',
        `convert the file's line breaks to LF (an editor or git's core.autocrlf wrote CR LF; \`sed -i 's/\\r$//' ${join(display, doc)}\`), then convert it.`,
      )
    // The records give back what JSON.stringify writes: spaces of one width a level, or one line.
    const layout = 'indent it with spaces (any number a level, the same at every level) or write it on one line, one key a line, as JSON.stringify writes it'
    if (again !== text && style.indent === 0 && text.trimEnd().includes('\n'))
      throw notLossless(
        display,
        doc,
        `its lines are not indented with spaces (line 2 reads ${JSON.stringify(text.split('\n')[1]!.slice(0, 80))}), and the records write a document back indented with spaces or on one line`,
        `${layout}; then convert it.`,
      )
    if (again !== text)
      throw notLossless(
        display,
        doc,
        `it is not laid out as the records write it back (${firstDifference(text, again)})`,
        `${layout}, and write numbers such as 1.0 as 1; then convert it.`,
      )
    const record: DocumentRecord = { doc, list: parsed.list, members: parsed.members, style, replaces: [], ...provenance }
    add(DOCUMENTS_FILE, recordLine(record))
    parsed.items.forEach((item, n) => {
      const key = keys.keyOf(doc, item)
      if (key === undefined)
        throw notLossless(
          display,
          doc,
          `${listOf(doc)}[${n}] names no case`,
          'make the fixture load (`vitest-rubric status` names what is wrong), then convert it.',
        )
      const line: ItemRecord = { doc, case: key.case, ...(key.slot === undefined ? {} : { slot: key.slot }), n, item, replaces: [], ...provenance }
      add(bucketOf(key.case, chosen), recordLine(line))
    })
  }
  // Read back as any load reads them: the documents must come back byte for byte.
  const raw = new Map<string, RawFile>()
  for (const [name, text] of files) raw.set(join(dir, RECORDS_DIR, name), { display: join(display, RECORDS_DIR, name), bytes: new TextEncoder().encode(text) })
  const store = await RecordStore.open(
    dir,
    display,
    async (path) => raw.get(path)!,
    async () => [...files.keys()],
    keys,
  )
  for (const { doc, text } of documents) {
    const back = store?.virtual(join(dir, doc))
    if (back === undefined || new TextDecoder().decode(back.bytes) !== text)
      throw notLossless(
        display,
        doc,
        'the records would not give it back byte for byte (two entries with one case and slot?)',
        'make the fixture load (`vitest-rubric status` names what is wrong), then convert it.',
      )
  }
  return { files, buckets: chosen }
}

/** The writes that replace a fixture's seed documents by `records` (from {@link recordsOf}), all or nothing. */
export async function toRecordsWrites(
  dir: string,
  display: string,
  documents: readonly SeedDocument[],
  records: ReadonlyMap<string, string>,
): Promise<FileWrite[]> {
  const writes: FileWrite[] = []
  for (const [name, text] of records)
    writes.push({ path: join(dir, RECORDS_DIR, name), display: join(display, RECORDS_DIR, name), contents: text, basedOn: null })
  for (const { doc } of documents) {
    const path = join(dir, doc)
    writes.push({ path, display: join(display, doc), contents: null, basedOn: sha256Hex(await readFile(path)) })
  }
  return writes
}

/** The writes that replace a fixture's records by the seed documents they hold, all or nothing. */
export function toSeedWrites(store: FixtureRecords, dir: string, display: string, documents: readonly SeedDocument[]): FileWrite[] {
  if (store.forks.length > 0) {
    const fork = store.forks[0]!
    throw notLossless(
      display,
      RECORDS_DIR,
      `case "${fork.caseId}"${store.forks.length > 1 ? ` and ${store.forks.length - 1} more` : ''} has records revised apart, which the seed layout cannot hold`,
      `resolve the fork first: \`vitest-rubric resolve ${display} ${fork.caseId} --keep <save>\` (\`vitest-rubric status\` names the saves).`,
    )
  }
  const writes: FileWrite[] = documents.map(({ doc, text }) => ({ path: join(dir, doc), display: join(display, doc), contents: text, basedOn: null }))
  for (const [name, file] of store.recordFiles()) {
    writes.push({
      path: join(dir, RECORDS_DIR, name),
      display: join(display, RECORDS_DIR, name),
      contents: null,
      basedOn: file.sha256 ?? sha256Hex(file.bytes),
    })
  }
  return writes
}

function notLossless(display: string, doc: string, why: string, hint: string): RevisionError {
  return new RevisionError({
    code: 'CONVERT_NOT_LOSSLESS',
    file: join(display, doc),
    summary: `the fixture cannot be converted without a loss: ${why}; nothing was written.`,
    hint,
  })
}

function firstDifference(a: string, b: string): string {
  const left = a.split('\n')
  const right = b.split('\n')
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    if (left[index] === right[index]) continue
    const line = (text: string) => JSON.stringify(text.slice(0, 80))
    if (right[index] === undefined)
      return `line ${index + 1} reads ${line(left[index]!)} after the end the records write: the file ends with more than they do, such as a second line break`
    if (left[index] === undefined) return `the file ends before line ${index + 1}, where the records write ${line(right[index]!)}`
    return `line ${index + 1} reads ${line(left[index]!)} where ${line(right[index]!)} is expected`
  }
  return 'the same lines, other bytes'
}
