import { confinement } from '../json/confinement.js'
import { displayPath } from '../common/display-path.js'
import { join, resolve } from 'node:path'
import { FixtureError } from '../common/errors.js'
import { convertedRevisions, type ConvertedRevisions } from '../json/line-endings.js'
import { confineToProject, hashOnce, projectBoundary, readFixtureFile, type FixtureFileReader, type RawFile } from '../json/read.js'
import { recoverFixture } from '../json/fixture-lock.js'
import { requireFixtureDirectory } from './fixture-directory.js'
import { readCaseEntries, readReviewDocument } from './documents.js'
import {
  ADJUDICATIONS_FILE,
  JUDGES_DIR,
  listDirectory,
  readJudges,
  readPanel,
  REVIEWS_DIR,
  type DirectoryLister,
  type LabelSet,
  type LabelSource,
  type Panel,
} from './panel.js'
import type { Decision } from '../contract/decision.js'
import type { FileRole, FixtureFile, KindContext, KindDefinition, SomeKindDefinition } from '../contract/kind.js'
import type { KindRegistry } from './registry.js'
import type { ParseMemo } from './parse-memo.js'
import type { BucketCache } from '../store/bucket-cache.js'
import { CheckedBuckets } from '../store/checked-buckets.js'
import { RecordStore } from '../store/record-store.js'
import { RECORDS_DIR } from '../store/records.js'
import { fixtureKindsIn, noFixtureError } from './fixture-files.js'
import { storeKeys, type FixtureRecordsView, type RecordsOverlay } from './records-view.js'

export type { CaseEntry, ReviewEntry, ReviewIndex } from './entries.js'
import type { CaseEntry, ReviewIndex } from './entries.js'

/**
 * A fixture directory of one kind, loaded: its rubric bound to its bytes, its cases and reviews as
 * written, and the definition of its kind, which everything after loading reads.
 */
export interface KindFixture<R = unknown, C = unknown, V = unknown, D extends Decision = Decision, S = unknown> {
  /** The kind's name (`definition.name`). */
  readonly kind: string
  readonly definition: KindDefinition<R, C, V, D, S>
  /** Absolute path of the directory. */
  readonly dir: string
  /** The directory as shown in messages, relative to the working directory. */
  readonly displayDir: string
  /** `cases.json › name`. */
  readonly name: string
  readonly rubric: R
  /** Each file of the fixture by role, with its SHA-256. */
  readonly files: FixtureFiles
  /** What the rubric and source would hash to with converted line endings. */
  readonly conversions: Readonly<Partial<Record<FileRole, ConvertedRevisions>>>
  readonly cases: readonly CaseEntry[]
  /** `annotations.json › origin`: who or what produced the reviews. */
  readonly origin: string
  /** The reviews of `annotations.json`, which decide the cases. */
  readonly reviews: ReviewIndex
  /** The members of the `cases.json` document other than `cases` and `$schema`: part of the case-set identity. */
  readonly casesDocument: Readonly<Record<string, unknown>>
  /** Independent reviews (`reviews/<reviewer>.json`) and adoptions (`adjudications.json`); empty when there are none. */
  readonly panel: Panel
  /** Automated judges' labels (`judges/<judge>.json`): calibrated against the adopted reviews, never deciding a case. */
  readonly judges: LabelSet
  /** The fixture's records, when it is in the records layout (`records/`), whose documents the other members were read from. */
  readonly records?: FixtureRecordsView
}

/** Each file of a loaded fixture by role: every kind has a rubric, cases and annotations; a source only some. */
export interface FixtureFiles {
  readonly rubric: FixtureFile
  readonly source?: FixtureFile
  readonly cases: FixtureFile
  readonly annotations: FixtureFile
}

/** A loaded fixture of some kind, as code that works on any kind holds it. */
export type SomeFixture = KindFixture<unknown, unknown, unknown, Decision, unknown>

/** The loaded fixture of a kind definition's type. */
export type FixtureOf<K> = K extends KindDefinition<infer R, infer C, infer V, infer D, infer S> ? KindFixture<R, C, V, D, S> : never

/** Options of {@link loadFixture}. */
export interface LoadFixtureOptions {
  /**
   * Paths in messages are shown relative to this directory.
   * @default process.cwd()
   */
  readonly cwd?: string
}

export { fileNamesOf, fixtureKindsIn } from './fixture-files.js'

/** Which kind of fixture a directory holds, by its marker file; `undefined` if none (or several). */
export async function detectFixtureKind(kinds: KindRegistry, dir: string): Promise<string | undefined> {
  const found = await fixtureKindsIn(kinds, dir)
  return found.length === 1 ? found[0]?.name : undefined
}

/**
 * Loads a fixture directory of one of the registry's kinds: its rubric, source, cases and reviews
 * with their revision hashes. A fixture-level defect throws a {@link FixtureError} naming the
 * file, the JSON path and the fix; everything about a single case is left to its assessment.
 */
export async function loadFixture(kinds: KindRegistry, dir: string, options: LoadFixtureOptions & { readonly kind?: string } = {}): Promise<SomeFixture> {
  await recoverInFixture(dir, options.cwd ?? process.cwd())
  return loadFixtureReading(kinds, dir, options, readFixtureFile)
}

/**
 * Finishes or discards a save that a killed or fenced writer left in the fixture, before it is
 * read: only inside the project, so a fixture directory that is a link leading out is never acted on.
 */
export async function recoverInFixture(dir: string, cwd: string): Promise<void> {
  const absolute = resolve(cwd, dir)
  const display = displayPath(cwd, absolute)
  try {
    await confineToProject(absolute, display, projectBoundary(cwd, absolute))
  } catch {
    return // refused by the load that follows, with its message
  }
  await recoverFixture(absolute, display)
}

/** {@link loadFixture}, reading the files through `read`: a revision is checked on its new contents before it is written. */
export async function loadFixtureReading(
  kinds: KindRegistry,
  dir: string,
  options: LoadFixtureOptions & {
    readonly kind?: string
    readonly scope?: readonly string[]
    /** Whether a file was confined to the project at an earlier read and is still the file it was then: it is not resolved again. */
    readonly confined?: (path: string) => boolean
  },
  read: FixtureFileReader,
  list: DirectoryLister = listDirectory,
  memo?: ParseMemo,
  records?: RecordsOverlay,
): Promise<SomeFixture> {
  const cwd = options.cwd ?? process.cwd()
  const absolute = resolve(cwd, dir)
  const display = displayPath(cwd, absolute)
  // Every file and folder of the fixture, the directory itself included, must lie in the project: a link never reads what lies outside.
  const boundary = projectBoundary(cwd, absolute)
  await confineToProject(absolute, display, boundary)
  const confine = confinement(boundary)
  const confinedRead: FixtureFileReader = async (path, shown) => {
    if (options.confined?.(path) !== true) await confine(path, shown)
    return read(path, shown)
  }
  const confinedList: DirectoryLister = async (folder) => {
    await confineToProject(folder, displayPath(cwd, folder), boundary)
    return list(folder)
  }
  const definition = await kindOf(kinds, absolute, display, cwd, options.kind)
  const overlay = records ?? (await openRecords(definition, absolute, display, confinedRead, confinedList, options.scope, memo?.buckets, cwd))
  if (overlay === undefined) return loadFixtureAs(definition, absolute, display, confinedRead, confinedList, memo)
  const { store, overrides } = overlay
  if (memo !== undefined && !store.partial && overrides === undefined)
    for (const doc of store.documentNames()) {
      const file = store.virtual(join(absolute, doc))
      if (file !== undefined) memo.primeDerived(definition, file)
    }
  const overlaid: FixtureFileReader = async (path, shown) => overrides?.get(path) ?? store.virtual(path) ?? confinedRead(path, shown)
  const overlaidList: DirectoryLister = async (folder) => [...new Set([...(await confinedList(folder)), ...store.virtualNames(folder)])]
  // A read of some bucket files makes partial documents: parsed through the memo, they would take the place of the whole ones it keeps.
  const fixture = await loadFixtureAs(definition, absolute, display, overlaid, overlaidList, store.partial ? undefined : memo)
  return { ...fixture, records: store }
}

/** The fixture's records, when it is in the records layout; a directory holding both layouts is refused. */
async function openRecords(
  definition: SomeKindDefinition,
  absolute: string,
  display: string,
  read: FixtureFileReader,
  list: DirectoryLister,
  scope: readonly string[] | undefined,
  cache: BucketCache | undefined,
  cwd: string,
): Promise<RecordsOverlay | undefined> {
  // A read of some cases' buckets checks the others once after each changed, by a note kept in the project.
  const checked = scope === undefined ? undefined : await CheckedBuckets.open(absolute, cwd)
  let store: RecordStore | undefined
  try {
    store = await RecordStore.open(absolute, display, read, list, storeKeys(definition), false, scope, cache, checked)
  } finally {
    // What was found sound is noted even when a later file refuses the fixture.
    await checked?.save()
  }
  if (store === undefined) return undefined
  // A seed document beside records/ (a branch made before `convert` adds reviews/carol.json) would be read with the records, or half-read.
  const names = await list(absolute)
  const seedFiles = names.filter((name) => name === definition.files.cases || name === definition.files.annotations || name === ADJUDICATIONS_FILE)
  for (const folder of [REVIEWS_DIR, JUDGES_DIR]) if (names.includes(folder) && (await list(join(absolute, folder))).length > 0) seedFiles.push(`${folder}/`)
  if (seedFiles.length > 0) {
    const documents = seedFiles.every((name) => name !== definition.files.cases && name !== definition.files.annotations)
    throw new FixtureError({
      code: 'FIXTURE_LAYOUT_AMBIGUOUS',
      file: display,
      summary: `the directory holds both ${seedFiles.join(' and ')} (the seed layout) and ${RECORDS_DIR}/ (the records layout), so which one holds the fixture would be a guess.`,
      found: [...seedFiles, `${RECORDS_DIR}/`].join(', '),
      hint: documents
        ? `to keep what ${seedFiles.join(' and ')} ${seedFiles.length === 1 ? 'holds' : 'hold'} (a branch made before the fixture moved to records/), move ${seedFiles.length === 1 ? 'it' : 'them'} aside, run \`vitest-rubric convert ${display} --to seed\`, put ${seedFiles.length === 1 ? 'it' : 'them'} back and run \`vitest-rubric convert ${display} --to records\`; else remove ${seedFiles.length === 1 ? 'it' : 'them'}.`
        : `keep one: check which holds the work, then remove the other; \`vitest-rubric convert ${display} --to seed|records\` moves a fixture between the layouts in one step.`,
    })
  }
  return { store }
}

/**
 * Reads the files of a fixture of a known kind through `read` and checks them, without looking at
 * the directory itself: what {@link loadFixture} does once it has told the kind.
 */
export async function loadFixtureAs<R, C, V, D extends Decision, S>(
  definition: KindDefinition<R, C, V, D, S>,
  absolute: string,
  display: string,
  read: FixtureFileReader,
  list: DirectoryLister = listDirectory,
  memo?: ParseMemo,
): Promise<KindFixture<R, C, V, D, S>> {
  const names = definition.files
  const shown = (name: string) => join(display, name)
  const roles: (readonly [FileRole, string])[] = []
  for (const role of ['rubric', 'source', 'cases', 'annotations'] as const) {
    const name = names[role]
    if (name !== undefined) roles.push([role, name])
  }
  const raw: (RawFile | undefined)[] = await Promise.all(roles.map(([, name]) => read(join(absolute, name), shown(name))))
  const byRole: Partial<Record<FileRole, RawFile>> = {}
  roles.forEach(([role], index) => {
    const file = raw[index]
    if (file !== undefined) byRole[role] = file
  })
  const rubricFile = byRole.rubric
  // Every kind names its rubric file, and the reader returns a file or throws.
  if (rubricFile === undefined) throw new TypeError(`${definition.name}: no rubric file was read`)
  const rubricFiles = byRole.source === undefined ? { rubric: rubricFile } : { rubric: rubricFile, source: byRole.source }
  const rubric = memo === undefined ? definition.bindRubric(rubricFiles) : memo.rubric(rubricFiles, () => definition.bindRubric(rubricFiles))
  const found: Partial<Record<FileRole, FixtureFile>> = {}
  roles.forEach(([role, name], index) => {
    const file = raw[index]
    // Taken when asked for: a document the records make is hashed only if its identity is shown (`evaluate --json`, a decision record).
    if (file === undefined) return
    const sha256 = hashOnce(file)
    found[role] = {
      name,
      display: file.display,
      get sha256() {
        return sha256()
      },
    }
  })
  const files = completeFiles(definition.name, found)
  const conversions: Partial<Record<FileRole, ConvertedRevisions>> = { rubric: convertedRevisions(rubricFile.bytes) }
  if (byRole.source !== undefined) conversions.source = convertedRevisions(byRole.source.bytes)

  // Each large file is let go once parsed: the cases' bytes need not outlive them while the reviews are parsed.
  raw.fill(undefined)
  const cases = memo === undefined ? readCaseEntries(definition, take(byRole, 'cases')) : memo.cases(definition, take(byRole, 'cases'))
  const annotationsFile = take(byRole, 'annotations')
  const annotations =
    memo === undefined
      ? readReviewDocument(definition, annotationsFile, cases.entries, files.cases.display)
      : memo.reviewDocument(definition, annotationsFile, cases.entries, files.cases.display)
  const labels: LabelSource = { definition, absolute, display, cases: cases.entries, casesFile: files.cases.display, read, list, memo }
  const panel = await readPanel(labels)
  const judges = await readJudges(labels)
  return {
    kind: definition.name,
    definition,
    dir: absolute,
    displayDir: display,
    name: cases.name,
    rubric,
    files,
    conversions,
    cases: cases.entries,
    origin: annotations.origin,
    reviews: annotations.reviews,
    casesDocument: cases.members,
    panel,
    judges,
  }
}

/** The files read, each role a kind always has present (in the order of the roles, which identities keep). */
function completeFiles(kind: string, found: Partial<Record<FileRole, FixtureFile>>): FixtureFiles {
  const { rubric, source, cases, annotations } = found
  // Every kind names these three files, and the reader returns a file or throws.
  if (rubric === undefined || cases === undefined || annotations === undefined) throw new TypeError(`${kind}: a rubric, cases or annotations file was not read`)
  return source === undefined ? { rubric, cases, annotations } : { rubric, source, cases, annotations }
}

/** A file of the map, removed from it, so that the caller holds its only reference. */
function take(byRole: Partial<Record<FileRole, RawFile>>, role: 'cases' | 'annotations'): RawFile {
  const file = byRole[role]!
  delete byRole[role]
  return file
}

/** What the kind's checks see of a loaded fixture. */
export function kindContext<R>(fixture: {
  readonly rubric: R
  readonly displayDir: string
  readonly files: KindFixture['files']
  readonly conversions: KindFixture['conversions']
}): KindContext<R> {
  return { rubric: fixture.rubric, dir: fixture.displayDir, files: fixture.files, conversions: fixture.conversions }
}

async function kindOf(registry: KindRegistry, absolute: string, display: string, cwd: string, wanted: string | undefined): Promise<SomeKindDefinition> {
  await requireFixtureDirectory(absolute, display, cwd)
  const kinds = await fixtureKindsIn(registry, absolute)
  const marker = (kind: SomeKindDefinition) => kind.files.rubric
  if (kinds.length > 1) {
    throw new FixtureError({
      code: 'FIXTURE_KIND_AMBIGUOUS',
      file: display,
      summary: `the directory holds the marker files of ${kinds.length} kinds of fixture, so which one it is would be a guess.`,
      found: kinds.map(marker).join(' and '),
      hint: 'keep one fixture per directory: move one of the rubrics, with its cases and annotations, to a directory of its own.',
    })
  }
  const kind = kinds[0]
  if (kind === undefined) throw await noFixtureError(registry, absolute, display, cwd)
  const wantedKind = wanted === undefined ? undefined : registry.get(wanted)
  if (wanted !== undefined && kind.name !== wanted) {
    throw new FixtureError({
      code: 'FIXTURE_KIND_UNKNOWN',
      file: display,
      summary: `the directory holds a ${kind.name} fixture, not a ${wanted} fixture.`,
      expected: `${wantedKind === undefined ? 'its marker file' : marker(wantedKind)} (a ${wanted} fixture)`,
      found: `${marker(kind)} (a ${kind.name} fixture)`,
      hint: `load it without { kind: '${wanted}' }, or point at a ${wanted} fixture.`,
    })
  }
  return kind
}
