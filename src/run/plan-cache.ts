import { kinds } from '../core/registry.js'
import { createHash } from 'node:crypto'
import { lstat, readdir, readFile, stat } from 'node:fs/promises'
import { readRegularFile } from '../core/json/regular-file.js'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'
import { BUILT, packageFile } from '../package-files.js'
import { fileNamesOf, fixtureKindsIn } from '../core/engine/fixture.js'
import type { SerializedRubricError } from '../core/common/errors.js'
import { sha256Hex } from '../core/json/canonical-json.js'
import { type RawFile, readFixtureFile } from '../core/json/read.js'
import { makeFolder, readOutputFile, removeOutputFiles, writeOutputFile, type OutputPlace } from '../core/json/output-file.js'
import { planFixture, type PlanResult } from './plan-fixture.js'
import type { PlanOptions, TestPlan } from '../core/engine/plan.js'
import type { PlannedCase } from '../core/contract/results.js'
import { planningChild, startPlanning, type HashedFile } from './plan-process.js'
import { payloadText } from './payload.js'
import { ADJUDICATIONS_FILE, JUDGES_DIR, listDirectory, REVIEWS_DIR } from '../core/engine/panel.js'
import { LAYOUT_FILE, RECORDS_DIR } from '../core/store/records.js'

// Bump when the shape of a cached plan changes.
const CACHE_FORMAT = 4

/**
 * Plans a fixture, reusing the plan of an earlier run when nothing it depends on has changed.
 *
 * Every fixture file is read once: the key is the SHA-256 of those bytes, the directory as shown,
 * the text of the deciding code (every file of `core/`), and the versions of what else shapes a
 * decision or its message (zod, which words refusals; Node's ICU, which normalizes verdicts). A
 * plan is computed from exactly the bytes that were hashed, so a save between reading and
 * planning can never store one revision's plan under another's key. Modification times are not
 * trusted for this. Fixture-level defects are never cached. A large fixture is read and decided
 * by a process of its own ({@link SEPARATE_PLANNING_BYTES}); its plan is stored under the hashes
 * of the bytes that process read.
 */
export async function cachedPlan(dir: string, root: string, cacheDir: string, options: PlanOptions = {}, separate: SeparatePlanning = {}): Promise<PlanResult> {
  const child = separate.child === undefined ? planningChild() : (separate.child ?? undefined)
  if (child !== undefined && (await fixtureBytes(dir)) >= (separate.minBytes ?? SEPARATE_PLANNING_BYTES))
    return plannedApart(child, dir, root, cacheDir, options)
  const files = await readFixtureFiles(dir, root)
  if (files === undefined) return planFixture(dir, root, undefined, options)
  return cachedResult({ dir, root, cacheDir, files, key: [options] }, () => planFixture(dir, root, servingReader(files), options))
}

/**
 * A fixture whose files add up to this many bytes or more is planned in a process of its own
 * (about 30,000 cases of the benchmark's size). Planned in Vitest's main process, its parsed
 * files stay in that heap until V8 next collects it in full, which may be after the tests are
 * declared: a cold run at 100k cases then peaked at 0.8 to 1.2 GiB. The process's own start costs
 * about 0.2 s, more than planning a small fixture takes.
 */
export const SEPARATE_PLANNING_BYTES = 64 * 1024 * 1024

/** When a fixture is planned in its own process: tests lower the size, or name the built child while they run from source. */
export interface SeparatePlanning {
  readonly minBytes?: number
  /** The planning process's module; `null` never starts one. */
  readonly child?: string | null
}

/**
 * Plans a large fixture in its own process, started at once. Meanwhile this process hashes the
 * files for the cache key, unless the cache holds nothing of the fixture (a first run, a fresh
 * machine), and stops the process if the plan is cached after all.
 */
async function plannedApart(child: string, dir: string, root: string, cacheDir: string, options: PlanOptions): Promise<PlanResult> {
  const planning = startPlanning(child, { dir, root, options })
  const computed = async (): Promise<Computed<TestPlan>> => {
    const reply = await planning.reply
    if ('error' in reply) return reply
    return {
      // Cast: the plan process serializes a TestPlan (plan-process.ts).
      plan: JSON.parse(reply.plan) as TestPlan,
      texts: { plan: reply.plan, payload: reply.payload },
      ...(reply.files === undefined ? {} : { files: reply.files }),
    }
  }
  try {
    const slot = { dir, root, cacheDir, key: [options] }
    if (!(await holdsAnyResult(slot))) return await storeFresh(slot, await computed())
    const files = await readFixtureFiles(dir, root)
    if (files === undefined) return await storeFresh(slot, await computed())
    // Only the hashes are wanted here: the bytes are the planning process's to read.
    for (const file of files) file.raw = undefined
    return await cachedResult({ ...slot, files }, computed)
  } finally {
    planning.stop()
  }
}

/** The bytes of a fixture's files, as far as they can be told (0 for a directory that is no fixture of one kind). */
async function fixtureBytes(dir: string): Promise<number> {
  const [kind, ...others] = await fixtureKindsIn(kinds, dir)
  if (kind === undefined || others.length > 0) return 0
  let bytes = 0
  const records = join(dir, RECORDS_DIR)
  for (const name of await listDirectory(records)) bytes += (await stat(join(records, name)).catch(() => undefined))?.size ?? 0
  for (const name of fileNamesOf(kind))
    bytes += await stat(join(dir, name)).then(
      (info) => info.size,
      () => 0,
    )
  return bytes
}

/**
 * A fixture's files as read once for a run: each file's SHA-256 (the plan cache's key) and its
 * bytes, until they are served to the loader. Served once, they are let go, so that a large
 * fixture's buffers do not outlive its parse.
 */
export type FixtureFiles = readonly { readonly name: string; readonly path: string; readonly sha256: string; raw: RawFile | undefined }[]

/** A reader that serves the bytes already read, once each, so that a plan is computed from exactly the bytes its key hashes. */
export function servingReader(files: FixtureFiles): (path: string, display: string) => Promise<RawFile> {
  return async (path, display) => {
    const file = files.find((each) => each.path === path)
    if (file === undefined) return readFixtureFile(path, display)
    const { raw } = file
    // An internal error (a bug of the cache, never the user's input): a plain Error, shown as one.
    if (raw === undefined) throw new Error(`${display} was served to the loader already: a second load would not be of the bytes the key hashed`)
    file.raw = undefined
    return raw
  }
}

/** Where a cached result is, and what besides the files its key holds. */
export interface CacheSlot {
  readonly dir: string
  readonly root: string
  readonly cacheDir: string
  readonly files: readonly HashedFile[]
  /** What else the result depends on (the plan options); the key hashes it with the files. */
  readonly key: readonly unknown[]
  /** Which result of the fixture this is, when it has several (a chunk): each keeps its own latest entry. */
  readonly part?: string
}

/** A fixture file as the cache key names it. */
/**
 * A result just computed. One computed elsewhere (in the planning process) may come with its
 * texts already written, and with the files it was computed from: it is then stored under their
 * hashes, which differ from the slot's if a file was saved in between.
 */
export type Computed<P> =
  | { readonly plan: P; readonly texts?: { readonly plan: string; readonly payload: string }; readonly files?: readonly HashedFile[] }
  | { readonly error: SerializedRubricError }

/**
 * A result (a plan, or a chunk's plan) from the cache, or computed and stored; a refusal is never
 * stored. Beside each plan the cache keeps its module's test payload ({@link payloadText}), whose
 * path the result names for the test worker.
 */
export async function cachedResult<P extends { readonly cases: readonly PlannedCase[] }>(
  slot: CacheSlot,
  compute: () => Promise<Computed<P>>,
): Promise<{ readonly plan: P; readonly file?: string } | { readonly error: SerializedRubricError }> {
  const entry = await entryOf(slot, slot.files)
  let cached: P | undefined
  try {
    // Decoded whole rather than as it is read: a text pieced together from chunks parses slower (at 100k cases 180 ms against 140).
    // Read as written: a symbolic link there is no entry of this cache, and never followed.
    const bytes = await readOutputFile(entry.path, entry.place)
    // Cast: a cache entry is a P this cache wrote, under a key that names the package and the files.
    if (bytes !== undefined) cached = JSON.parse(bytes.toString('utf8')) as P
  } catch {
    // not cached yet, or unreadable: decide afresh
  }
  if (cached !== undefined) {
    // A payload removed by hand is written again from the plan.
    const served = (await isFile(entry.payload)) || (await store(entry, [[entry.payload, payloadText(cached)]], [entry.path]))
    return served ? { plan: cached, file: entry.payload } : { plan: cached }
  }
  const result = await compute()
  if (!('plan' in result)) return result
  return storeComputed(result.files === undefined ? entry : await entryOf(slot, result.files), result)
}

/** Stores a result computed without a look at the cache (nothing of the fixture was there), under the files it was computed from. */
async function storeFresh<P extends { readonly cases: readonly PlannedCase[] }>(
  slot: Omit<CacheSlot, 'files'>,
  result: Computed<P>,
): Promise<{ readonly plan: P; readonly file?: string } | { readonly error: SerializedRubricError }> {
  if (!('plan' in result)) return result
  // Without the files' hashes (a fixture that is refused anyway) nothing is stored.
  if (result.files === undefined) return { plan: result.plan }
  return storeComputed(await entryOf(slot, result.files), result)
}

/** Whether the cache holds any result of the fixture (for any revision of its files). */
async function holdsAnyResult(slot: Omit<CacheSlot, 'files'>): Promise<boolean> {
  const { folder, prefix } = await entryOf(slot, [])
  try {
    return (await readdir(folder)).some((entry) => entry.startsWith(`${prefix}-`))
  } catch {
    return false
  }
}

interface CacheEntry {
  /** Vite's cache folder, which the entries must not leave through a link. */
  readonly place: OutputPlace
  readonly folder: string
  readonly prefix: string
  readonly path: string
  readonly payload: string
}

async function entryOf(slot: Omit<CacheSlot, 'files'>, files: readonly HashedFile[]): Promise<CacheEntry> {
  const { dir, root, cacheDir } = slot
  const key = sha256Hex(
    JSON.stringify([
      CACHE_FORMAT,
      await codeFingerprint(),
      planCacheEnvironment(),
      relative(root, dir),
      ...slot.key,
      files.map((file) => [file.name, file.sha256]),
    ]),
  )
  const folder = join(cacheDir, 'vitest-rubric', 'plans')
  const prefix = sha256Hex(slot.part === undefined ? relative(root, dir) : `${relative(root, dir)}\0${slot.part}`).slice(0, 16)
  return {
    place: { boundary: cacheDir, cwd: root },
    folder,
    prefix,
    path: join(folder, `${prefix}-${key}.json`),
    payload: join(folder, `${prefix}-${key}${PAYLOAD_SUFFIX}`),
  }
}

async function storeComputed<P extends { readonly cases: readonly PlannedCase[] }>(
  entry: CacheEntry,
  result: Extract<Computed<P>, { plan: P }>,
): Promise<{ readonly plan: P; readonly file?: string }> {
  const texts = result.texts ?? { plan: JSON.stringify(result.plan), payload: payloadText(result.plan) }
  const stored = await store(entry, [
    [entry.path, texts.plan],
    [entry.payload, texts.payload],
  ])
  return stored ? { plan: result.plan, file: entry.payload } : { plan: result.plan }
}

/** How a cached plan's test payload is named beside it. */
const PAYLOAD_SUFFIX = '.tests.json'

/** Whether a regular file is at `path`: a symbolic link is none, and is written over. */
async function isFile(path: string): Promise<boolean> {
  return lstat(path).then(
    (info) => info.isFile(),
    () => false,
  )
}

/** The fixture's files, each read once; `undefined` when the directory is no fixture of one kind, or a file is missing (then it is refused, never cached). */
export async function readFixtureFiles(dir: string, root: string): Promise<FixtureFiles | undefined> {
  const [kind, ...others] = await fixtureKindsIn(kinds, dir)
  if (kind === undefined || others.length > 0) return undefined
  try {
    // The independent reviews and adoptions decide too, and the judges' labels are calibrated: their bytes are part of the key.
    const panel: string[] = []
    for (const subdir of [REVIEWS_DIR, JUDGES_DIR]) {
      for (const name of (await listDirectory(join(dir, subdir))).filter((each) => each.endsWith('.json')).sort()) panel.push(`${subdir}/${name}`)
    }
    const names = await listDirectory(dir)
    if (names.includes(ADJUDICATIONS_FILE)) panel.push(ADJUDICATIONS_FILE)
    // In the records layout the seed documents are folded from records/: its files are the key, and those of the kind that it holds.
    const records = (await listDirectory(join(dir, RECORDS_DIR))).filter((name) => !name.startsWith('.') || name === '.gitattributes').sort()
    const own = records.includes(LAYOUT_FILE) ? fileNamesOf(kind).filter((name) => names.includes(name)) : fileNamesOf(kind)
    const stored = records.includes(LAYOUT_FILE) ? records.map((name) => join(RECORDS_DIR, name)) : []
    return await Promise.all(
      [...own, ...panel, ...stored].map(async (name) => {
        const path = join(dir, name)
        const bytes = await readRegularFile(path)
        const sha256 = sha256Hex(bytes)
        // Cast: widened so that the bytes can be let go (set to undefined) once served.
        return { name, path, sha256, raw: { display: relative(root, path), bytes, sha256 } as RawFile | undefined }
      }),
    )
  } catch {
    return undefined
  }
}

/** Writes each file (atomically) and removes the fixture's older entries, keeping those written and `keep`. */
async function store(
  entry: Pick<CacheEntry, 'place' | 'folder' | 'prefix'>,
  written: readonly (readonly [path: string, text: string])[],
  keep: readonly string[] = [],
): Promise<boolean> {
  const { place, folder, prefix } = entry
  try {
    await makeFolder(folder, place)
    for (const [path, text] of written) await writeOutputFile({ path, display: relative(place.cwd, path), contents: text }, place)
    const current = new Set([...written.map(([path]) => path), ...keep])
    const stale = (await readdir(folder)).filter((entry) => entry.startsWith(`${prefix}-`) && !current.has(join(folder, entry)))
    await removeOutputFiles(stale.map((entry) => join(folder, entry)))
    return true
  } catch {
    return false // a cache that cannot be written costs time, never correctness
  }
}

/** The versions of what shapes a plan beside its files and the deciding code. */
export function planCacheEnvironment(): readonly string[] {
  return [`zod@${zodVersion()}`, `icu@${process.versions.icu ?? 'none'}`, `unicode@${process.versions.unicode ?? 'none'}`]
}

let zod: string | undefined

function zodVersion(): string {
  if (zod !== undefined) return zod
  try {
    const require = createRequire(import.meta.url)
    // Cast: a package manifest; only its version is read, and may be absent.
    const manifest = require('zod/package.json') as { version?: string }
    zod = manifest.version ?? 'unknown'
  } catch {
    zod = 'unknown'
  }
  return zod
}

let code: Promise<string> | undefined

/**
 * A hash of the deciding code: every built module (the bundle mixes the engine with the rest), or,
 * run from source, every file below `src/core/`.
 */
function codeFingerprint(): Promise<string> {
  code ??= (async () => {
    const dir = packageFile(BUILT ? 'dist' : 'src/core')
    const entries = (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile() && (!BUILT || entry.name.endsWith('.js')))
      .map((entry) => join(entry.parentPath, entry.name))
      .sort()
    const hash = createHash('sha256')
    for (const file of entries)
      hash
        .update(relative(dir, file))
        .update('\0')
        .update(await readFile(file))
        .update('\0')
    return hash.digest('hex')
  })()
  return code
}
