import { join, resolve } from 'node:path'
import { displayPath } from '../common/display-path.js'
import { sha256Hex } from '../json/canonical-json.js'
import type { FileWrite, WriteIo } from '../json/atomic-write.js'
import { writeProjectFiles } from '../json/project-write.js'
import { projectBoundary, type RawFile, readFixtureFile } from '../json/read.js'
import { compactRecordLines } from '../store/compact.js'
import { bucketLines } from '../store/bucket-cache.js'
import { RecordStore } from '../store/record-store.js'
import {
  checkDocumentRecord,
  type DocumentRecord,
  DOCUMENTS_FILE,
  itemKey,
  LAYOUT_FILE,
  newProvenance,
  parseRecordLines,
  RECORDS_DIR,
} from '../store/records.js'
import type { FixtureLayout } from './convert-layout.js'
import { fixtureKindsIn, loadFixtureReading } from './fixture.js'
import { listDirectory } from './panel.js'
import { storeKeys } from './records-view.js'
import type { KindRegistry } from './registry.js'
import { reviseUnderLock } from './revision.js'

/** Options of {@link compactFixture}. */
export interface CompactOptions {
  readonly cwd: string
  readonly kinds: KindRegistry
  /** @internal the filesystem calls of the write, replaced in tests */
  readonly io?: WriteIo
}

/** One record file as compacted. */
export interface CompactedFile {
  /** As shown: `fixtures/lab/records/3.jsonl`. */
  readonly file: string
  /** Lines before and after. */
  readonly before: number
  readonly after: number
}

/** What {@link compactFixture} did. */
export interface CompactResult {
  readonly dir: string
  /** The seed layout has no superseded lines: nothing is done there. */
  readonly layout: FixtureLayout
  /** The record files rewritten, with their lines before and after; none when no line was superseded. */
  readonly compacted: readonly CompactedFile[]
  /** Record files read, rewritten or not. */
  readonly files: number
  /** Lines of every record file read, before and after. */
  readonly before: number
  readonly after: number
}

/**
 * Rewrites each record file of a fixture in the records layout without its superseded lines (see
 * {@link compactRecordLines}), under the fixture's lock and all or nothing. Before anything is
 * written the compacted records are read back: every document they make must be the one the
 * records made before, byte for byte, and every fork the same fork.
 */
export async function compactFixture(dir: string, options: CompactOptions): Promise<CompactResult> {
  const { cwd, kinds } = options
  const absolute = resolve(cwd, dir)
  const display = displayPath(cwd, absolute)
  return reviseUnderLock(dir, cwd, async () => {
    const found = await fixtureKindsIn(kinds, absolute)
    const definition = found.length === 1 ? found[0]! : (await loadFixtureReading(kinds, dir, { cwd }, readFixtureFile)).definition
    const keys = storeKeys(definition)
    // Forked documents are read, not refused: a compaction keeps both revisions.
    const store = await RecordStore.open(absolute, display, readFixtureFile, listDirectory, keys, true)
    if (store === undefined) return { dir: display, layout: 'seed', compacted: [], files: 0, before: 0, after: 0 }

    const provenance = newProvenance()
    const writes: FileWrite[] = []
    const compacted: CompactedFile[] = []
    const texts = new Map<string, string>()
    let files = 0
    let before = 0
    let after = 0
    for (const [name, file] of store.recordFiles()) {
      if (name === LAYOUT_FILE) continue
      files++
      const text = new TextDecoder().decode(file.bytes)
      const superseded = new Set<string>()
      const result =
        name === DOCUMENTS_FILE
          ? compactRecordLines(
              text,
              parseRecordLines<DocumentRecord>(text, file.display, checkDocumentRecord, superseded),
              superseded,
              (record) => record.doc,
              provenance,
            )
          : (() => {
              const read = bucketLines(file, name, store.layout, display)
              return compactRecordLines(text, read.lines, read.superseded, (record) => itemKey(record.doc, record.case, record.slot), provenance)
            })()
      before += result.before
      after += result.after
      if (!result.changed) continue
      const path = join(absolute, RECORDS_DIR, name)
      texts.set(path, result.text)
      writes.push({ path, display: file.display, contents: result.text, basedOn: file.sha256 ?? sha256Hex(file.bytes) })
      compacted.push({ file: file.display, before: result.before, after: result.after })
    }
    if (writes.length === 0) return { dir: display, layout: 'records', compacted, files, before, after }

    const read = (path: string, shown: string): Promise<RawFile> => {
      const text = texts.get(path)
      return text === undefined ? readFixtureFile(path, shown) : Promise.resolve({ display: shown, bytes: new TextEncoder().encode(text) })
    }
    const again = await RecordStore.open(absolute, display, read, listDirectory, keys, true)
    if (again === undefined || !sameRecords(store, again, absolute)) {
      // The compaction removes only lines the fold passes over: a difference is a fault of this package.
      throw new Error(`compacting ${display} would change what its records hold; nothing was written`)
    }
    await writeProjectFiles(writes, { boundary: projectBoundary(cwd, absolute), lockDir: absolute, display, cwd, io: options.io })
    return { dir: display, layout: 'records', compacted, files, before, after }
  })
}

/** Whether two reads of a fixture's records make the same documents, byte for byte, and the same forks. */
function sameRecords(a: RecordStore, b: RecordStore, absolute: string): boolean {
  const names = a.documentNames()
  if (JSON.stringify(names) !== JSON.stringify(b.documentNames())) return false
  for (const doc of names) {
    const left = a.virtual(join(absolute, doc))?.bytes
    const right = b.virtual(join(absolute, doc))?.bytes
    if (left === undefined || right === undefined || Buffer.compare(left, right) !== 0) return false
  }
  // Where a fork's lines are changes; which lines, and which saves made them, does not; nor the order its records are found in.
  const sorted = (texts: string[]) => texts.sort().join('\n')
  const forks = (store: RecordStore) =>
    sorted([
      ...store.forks.map((fork) =>
        JSON.stringify([
          fork.caseId,
          sorted(fork.records.map((record) => JSON.stringify([record.doc, record.slot, record.heads.map((head) => head.hash).sort()]))),
        ]),
      ),
      ...store.documentForks().map((fork) => JSON.stringify([fork.key, fork.heads.map((head) => head.hash).sort()])),
    ])
  return forks(a) === forks(b)
}
