import { type FSWatcher, watch } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { RubricError } from '../core/common/errors.js'
import type { CaseAssessment } from '../core/engine/assess.js'
import type { Decision } from '../core/engine/decision.js'
import { type EvaluateOptions, evaluateWithStates, type SomeEvaluation } from '../core/engine/evaluate.js'
import { loadFixtureReading, type SomeFixture } from '../core/engine/fixture.js'
import { JUDGES_DIR, listDirectory, REVIEWS_DIR } from '../core/engine/panel.js'
import type { KindRegistry } from '../core/engine/registry.js'
import { sha256Hex } from '../core/json/canonical-json.js'
import { type FixtureFileReader, readFixtureFile } from '../core/json/read.js'
import { fixtureVersion, type PageFixture } from './page-data.js'

/** The evaluation of a loaded fixture with every binding state: what the page's views are made from. */
export interface Decided {
  readonly evaluation: SomeEvaluation
  readonly assessments: readonly CaseAssessment<Decision>[]
}

/** A fixture as loaded and decided: what {@link Reevaluate} is handed as the state before a change. */
export interface LoadedState {
  readonly fixture: SomeFixture
  readonly decided: Decided
}

/**
 * Brings a fixture's evaluation up to date after some of its files changed. `previous` is the
 * state before the change (none on the first load), `fixture` the fixture as its files are now,
 * and `changed` the absolute paths of the files (or folders, for a file added or removed) whose
 * bytes differ from `previous`'s.
 */
export type Reevaluate = (previous: LoadedState | undefined, fixture: SomeFixture, changed: readonly string[], options: EvaluateOptions) => Decided

/** The whole fixture decided again, whatever changed. */
export const evaluateAgain: Reevaluate = (_previous, fixture, _changed, options) => evaluateWithStates(fixture, { ...options, allStates: true })

/** One viewer's overview of a loaded fixture, and its JSON as served: bytes, so that a request copies nothing. */
export interface OverviewView {
  readonly page: PageFixture
  readonly json: Buffer
}

/** A served directory as last read: the fixture and its evaluation, or the error that refused it. */
export type LoadedEntry =
  | (LoadedState & {
      readonly version: string
      /** The overviews made of it so far, by who may see what: a blind reviewer's is their own. */
      readonly views: Map<string, OverviewView>
      readonly error?: undefined
    })
  | { readonly error: RubricError; readonly version: null; readonly fixture?: undefined }

/** What a file was when it was read: its size, time and inode checked first, its bytes hashed only when those moved. */
interface FileStamp {
  size: number
  mtimeMs: number
  ino: number
  /** `null`: the file was missing. */
  readonly sha256: string | null
}

interface Snapshot {
  readonly dir: string
  readonly files: Map<string, FileStamp>
  /** The file names of the directory, `reviews/` and `judges/`, hidden (temporary) files aside. */
  readonly listings: Map<string, string>
}

/** How long a burst of file events is let settle before the files are checked (a save writes several). */
const SETTLE_MS = 30

export interface LoadedFixturesOptions {
  readonly kinds: KindRegistry
  readonly dirs: readonly string[]
  readonly cwd: string
  readonly evaluate: EvaluateOptions
  /** Hears the position of each fixture whose files changed since it was last read. */
  readonly onChange: (index: number) => void
  /** @default {@link evaluateAgain} */
  readonly reevaluate?: Reevaluate
}

/**
 * The served fixtures, each loaded once and kept with its evaluation until one of its files
 * changes. A change is told by content, not by time alone: a file whose size, modification time
 * and inode are as read is taken as unchanged; one whose are not is hashed, and only different
 * bytes (or a file added to or removed from the folders read) load the fixture again. Directory
 * watches check the files as soon as something is written there, whoever wrote it.
 */
export class LoadedFixtures {
  private readonly entries: (LoadedEntry & { readonly snapshot: Snapshot })[] = []
  private readonly queues: Promise<unknown>[] = []
  private readonly watchers = new Map<string, FSWatcher>()
  private readonly timers = new Map<number, NodeJS.Timeout>()
  private readonly announced: (string | null | undefined)[] = []
  private closed = false

  constructor(private readonly options: LoadedFixturesOptions) {}

  /** The fixture at `index` as its files are now: loaded again only when one of them changed. */
  current(index: number): Promise<LoadedEntry> {
    // One check at a time per fixture, each after the last: a check never returns what an earlier, slower one read.
    const next = (this.queues[index] ?? Promise.resolve()).then(() => this.refresh(index))
    this.queues[index] = next.catch(() => undefined)
    return next
  }

  /** Watches each served directory and its `reviews/` and `judges/`, so that an edit made elsewhere is seen at once. */
  watch(): void {
    for (const [index, dir] of this.options.dirs.entries()) this.watchDirs(index, dir)
  }

  close(): void {
    this.closed = true
    for (const watcher of this.watchers.values()) watcher.close()
    this.watchers.clear()
    for (const timer of this.timers.values()) clearTimeout(timer)
    this.timers.clear()
  }

  private watchDirs(index: number, dir: string): void {
    for (const folder of [dir, join(dir, REVIEWS_DIR), join(dir, JUDGES_DIR)]) {
      if (this.closed || this.watchers.has(folder)) continue
      try {
        const watcher = watch(folder, { persistent: false }, () => this.changed(index, dir))
        watcher.on('error', () => {
          watcher.close()
          this.watchers.delete(folder)
        })
        this.watchers.set(folder, watcher)
      } catch {
        // Not there (yet): a `reviews/` made later is watched from the next event in the directory.
      }
    }
  }

  private changed(index: number, dir: string): void {
    if (this.closed) return
    clearTimeout(this.timers.get(index))
    this.timers.set(
      index,
      setTimeout(() => {
        this.timers.delete(index)
        this.watchDirs(index, dir)
        this.current(index).catch(() => undefined)
      }, SETTLE_MS),
    )
  }

  private async refresh(index: number): Promise<LoadedEntry> {
    const kept = this.entries[index]
    const changed = kept === undefined ? [] : await changedFiles(kept.snapshot)
    if (kept !== undefined && changed.length === 0) return kept
    const entry = await this.load(index, kept?.fixture === undefined ? undefined : kept, changed)
    this.entries[index] = entry
    if (this.announced[index] !== undefined && this.announced[index] !== entry.version) this.options.onChange(index)
    // A refusal that stays a refusal is announced too: its file changed.
    else if (kept !== undefined && entry.version === null) this.options.onChange(index)
    this.announced[index] = entry.version
    return entry
  }

  private async load(index: number, previous: LoadedState | undefined, changed: readonly string[]): Promise<LoadedEntry & { readonly snapshot: Snapshot }> {
    const { kinds, dirs, cwd, evaluate, reevaluate = evaluateAgain } = this.options
    const dir = dirs[index]
    if (dir === undefined) throw new RangeError(`no fixture at ${index}`)
    const files = new Map<string, FileStamp>()
    const listings = await listingsOf(dir)
    const read: FixtureFileReader = async (path, display) => {
      const before = await stat(path).catch(() => null)
      try {
        const file = await readFixtureFile(path, display)
        const sha256 = sha256Hex(file.bytes)
        files.set(path, { size: before?.size ?? -1, mtimeMs: before?.mtimeMs ?? -1, ino: before?.ino ?? -1, sha256 })
        return { ...file, sha256 }
      } catch (error) {
        files.set(path, { size: -1, mtimeMs: -1, ino: -1, sha256: null })
        throw error
      }
    }
    const snapshot: Snapshot = { dir, files, listings }
    try {
      const fixture = await loadFixtureReading(kinds, dir, { cwd }, read)
      const decided = reevaluate(previous, fixture, changed, evaluate)
      return { fixture, decided, version: await fixtureVersion(fixture), views: new Map(), snapshot }
    } catch (error) {
      if (!(error instanceof RubricError)) throw error
      return { error, version: null, snapshot }
    }
  }
}

async function listingsOf(dir: string): Promise<Map<string, string>> {
  const listings = new Map<string, string>()
  for (const folder of [dir, join(dir, REVIEWS_DIR), join(dir, JUDGES_DIR)]) {
    const names = await listDirectory(folder).catch(() => [])
    listings.set(
      folder,
      names
        .filter((name) => !name.startsWith('.'))
        .sort()
        .join('\n'),
    )
  }
  return listings
}

/** The files (and folders whose listing moved) that differ from `snapshot`: none when only times moved. */
async function changedFiles(snapshot: Snapshot): Promise<string[]> {
  const changed: string[] = []
  const listings = await listingsOf(snapshot.dir)
  for (const [folder, names] of listings) if (snapshot.listings.get(folder) !== names) changed.push(folder)
  for (const [path, stamp] of snapshot.files) {
    const now = await stat(path).catch(() => null)
    if (now === null) {
      if (stamp.sha256 !== null) changed.push(path)
      continue
    }
    if (now.size === stamp.size && now.mtimeMs === stamp.mtimeMs && now.ino === stamp.ino) continue
    const bytes = await readFile(path).catch(() => null)
    if (bytes === null || sha256Hex(bytes) !== stamp.sha256) {
      changed.push(path)
      continue
    }
    // The same bytes written again: the next check need not hash them.
    stamp.size = now.size
    stamp.mtimeMs = now.mtimeMs
    stamp.ino = now.ino
  }
  return changed
}
