import { lstat, readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { displayPath } from '../common/display-path.js'
import { sha256Hex } from '../json/canonical-json.js'
import type { FileWrite, WriteIo } from '../json/atomic-write.js'
import { removeEmptyFolder } from '../json/output-file.js'
import { writeProjectFiles } from '../json/project-write.js'
import { projectBoundary } from '../json/read.js'
import { recordsOf, toRecordsWrites, toSeedWrites, type SeedDocument } from '../store/convert.js'
import { RECORDS_DIR, withRecordsAttributes } from '../store/records.js'
import { loadFixtureReading, type SomeFixture } from './fixture.js'
import { ADJUDICATIONS_FILE, authorDocument, JUDGES_DIR, REVIEWS_DIR } from './panel.js'
import { recordStoreOf, storeKeys } from './records-view.js'
import type { KindRegistry } from './registry.js'
import { reviseUnderLock } from './revision.js'
import { readFixtureFile } from '../json/read.js'

/** The two layouts a fixture's cases and reviews can be kept in. */
export type FixtureLayout = 'seed' | 'records'

/** Options of {@link convertFixture}. */
export interface ConvertOptions {
  readonly cwd: string
  readonly kinds: KindRegistry
  /** Bucket files of the records layout (a power of two); by default about a thousand cases a file, at least 16. */
  readonly buckets?: number
  /** @internal the filesystem calls of the write, replaced in tests */
  readonly io?: WriteIo
}

/** What {@link convertFixture} did. */
export interface ConvertResult {
  readonly dir: string
  readonly from: FixtureLayout
  readonly to: FixtureLayout
  /** Files written and removed, as shown; none when the fixture was in that layout already. */
  readonly written: readonly string[]
  readonly removed: readonly string[]
  /** Bucket files of the records layout. */
  readonly buckets?: number
}

/**
 * Moves a fixture between the seed layout (`cases.json`, `annotations.json`, `reviews/`, …) and
 * the records layout (`records/`), under the fixture's lock and all or nothing: the documents the
 * new layout holds are checked to be the old ones byte for byte before anything is written.
 */
export async function convertFixture(dir: string, to: FixtureLayout, options: ConvertOptions): Promise<ConvertResult> {
  const cwd = options.cwd
  const absolute = resolve(cwd, dir)
  const display = displayPath(cwd, absolute)
  return reviseUnderLock(dir, cwd, async () => {
    const fixture = await loadFixtureReading(options.kinds, dir, { cwd }, readFixtureFile)
    const from: FixtureLayout = fixture.records === undefined ? 'seed' : 'records'
    const base = { dir: display, from, to }
    const boundary = projectBoundary(cwd, absolute)
    if (from === to) {
      const records = recordStoreOf(fixture)
      if (records === undefined || records.mergesByLine)
        return { ...base, written: [], removed: [], ...(records === undefined ? {} : { buckets: records.layout.buckets }) }
      // Already converted, but git would merge its records line by line: the attribute is added.
      const path = join(absolute, RECORDS_DIR, '.gitattributes')
      const before = await readFile(path).catch(() => undefined)
      const text = before === undefined ? '' : new TextDecoder().decode(before)
      const write: FileWrite = {
        path,
        display: join(display, RECORDS_DIR, '.gitattributes'),
        contents: withRecordsAttributes(text),
        basedOn: before === undefined ? null : sha256Hex(before),
      }
      await writeProjectFiles([write], { boundary, lockDir: absolute, display, cwd, io: options.io })
      return { ...base, written: [write.display], removed: [], buckets: records.layout.buckets }
    }
    let writes: FileWrite[]
    const folders: string[] = []
    let buckets: number | undefined
    if (to === 'records') {
      const documents = await seedDocuments(fixture, absolute)
      const records = await recordsOf(absolute, display, documents, storeKeys(fixture.definition), options.buckets)
      buckets = records.buckets
      writes = await toRecordsWrites(absolute, display, documents, records.files)
      folders.push(join(absolute, RECORDS_DIR))
      // A records/.gitattributes kept from before (a fixture converted back, its attributes left) is kept, the merge line added if it lacks one.
      const attributes = join(absolute, RECORDS_DIR, '.gitattributes')
      const before = await lstat(attributes).then(
        async (stats) => (stats.isFile() ? await readFile(attributes) : undefined),
        () => undefined,
      )
      if (before !== undefined) {
        const write = writes.find((each) => each.path === attributes)!
        writes[writes.indexOf(write)] = { ...write, contents: withRecordsAttributes(new TextDecoder().decode(before)), basedOn: sha256Hex(before) }
      }
    } else {
      const store = recordStoreOf(fixture)!
      const documents: SeedDocument[] = store.documentNames().map((doc) => ({ doc, text: new TextDecoder().decode(store.virtual(join(absolute, doc))!.bytes) }))
      writes = toSeedWrites(store, absolute, display, documents)
      const attributes = join(absolute, RECORDS_DIR, '.gitattributes')
      const kept = await lstat(attributes).then(
        (stats) => stats.isFile(),
        () => false,
      )
      if (kept)
        writes.push({ path: attributes, display: join(display, RECORDS_DIR, '.gitattributes'), contents: null, basedOn: sha256Hex(await readFile(attributes)) })
      for (const folder of [REVIEWS_DIR, JUDGES_DIR]) if (documents.some((each) => each.doc.startsWith(`${folder}/`))) folders.push(join(absolute, folder))
    }
    await writeProjectFiles(writes, { boundary, lockDir: absolute, display, folders, cwd, io: options.io })
    for (const folder of to === 'records' ? [REVIEWS_DIR, JUDGES_DIR] : [RECORDS_DIR]) await removeEmptyFolder(join(absolute, folder))
    return {
      ...base,
      written: writes.filter((write) => write.contents !== null).map((write) => write.display),
      removed: writes.filter((write) => write.contents === null).map((write) => write.display),
      ...(buckets === undefined ? {} : { buckets }),
    }
  })
}

/** A seed fixture's documents, as they are on disk: cases, annotations, each reviewer's and judge's, the adoptions. */
async function seedDocuments(fixture: SomeFixture, absolute: string): Promise<SeedDocument[]> {
  const docs = [fixture.files.cases.name, fixture.files.annotations.name]
  for (const reviewer of fixture.panel.reviewers) docs.push(authorDocument(fixture.panel, REVIEWS_DIR, reviewer))
  for (const judge of fixture.judges.names) docs.push(authorDocument(fixture.judges, JUDGES_DIR, judge))
  if (fixture.panel.adjudications !== undefined) docs.push(ADJUDICATIONS_FILE)
  return Promise.all(docs.map(async (doc) => ({ doc, text: await readFile(join(absolute, doc), 'utf8') })))
}
