import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import type { FixtureRecords } from '../store/record-store.js'
import { recordStoreOf } from './records-view.js'
import { displayPath } from '../common/display-path.js'
import { RubricError } from '../common/errors.js'
import { withFixtureLock } from '../json/fixture-lock.js'
import { sha256Hex } from '../json/canonical-json.js'
import { nodeWriteIo, type FileWrite, type WriteIo } from '../json/atomic-write.js'
import { writeProjectFiles } from '../json/project-write.js'
import { readGrownFile, readWhenAsked } from '../json/file-slices.js'
import { knownNow } from '../json/known-files.js'
import { decodeText, projectBoundary, readFixtureFile, type RawFile } from '../json/read.js'
import type { CaseAssessment } from './assess.js'
import type { Decision } from '../contract/decision.js'
import { caseDecider, evaluateWithStates, type DecidedEntry, type SomeEvaluation } from './evaluate.js'
import { loadFixtureReading, type CaseEntry, type SomeFixture } from './fixture.js'
import { ParseMemo } from './parse-memo.js'
import type { KindRegistry } from './registry.js'
import { listDirectory, type DirectoryLister } from './panel.js'
import { editedValue, type EntryChanges } from './entry-edits.js'
import { isObject } from '../common/primitives.js'

/** The two files a revision may write; the rubric and the source are never among them. */
export type WrittenFile = 'cases' | 'annotations'

/**
 * A fixture as read once for a revision, with what it decides now. A command that changes one case
 * asks for that case's assessment; the whole evaluation is made only when it is first read.
 */
export interface RevisionBase {
  readonly fixture: SomeFixture
  readonly evaluation: SomeEvaluation
  readonly assessments: readonly CaseAssessment<Decision>[]
  /** The assessment of the case at `index` of `cases.json`, exactly as the whole evaluation makes it, deciding that case alone. */
  readonly assess: (index: number) => CaseAssessment<Decision>
  /** The text of a written file as it was read. */
  readonly text: (file: WrittenFile) => string
}

/** The same fixture with new texts for some of its files, decided before anything is written. */
export interface RevisionCandidate extends RevisionBase {
  /** Writes the changed files, each only if it is still the file that was read. */
  readonly commit: (io?: WriteIo) => Promise<readonly string[]>
}

/** The new texts a revision proposes, by file; and, for `cases.json` and `annotations.json`, changes given entry by entry. */
export type ProposedTexts = { readonly [F in WrittenFile]?: string | undefined } & {
  readonly files?: Readonly<Record<string, string>>
  readonly entries?: { readonly [F in WrittenFile]?: EntryChanges | undefined }
}

/** The files a revision writes, made from its new texts before anything is written. */
interface StagedWrites {
  /** The fixture directory, as loaded. */
  readonly dir: string
  /** The new contents of each file that changes, by path. */
  readonly updated: ReadonlyMap<string, RawFile>
  /** In the records layout, the entries changed of each document made from its entries (by its name in the fixture directory), in the order of its list. */
  readonly entries: ReadonlyMap<string, readonly unknown[]>
  /** The files the revision creates. */
  readonly created: ReadonlySet<string>
  /** Each file that existed and changes, its text before and after, for the parse memo. */
  readonly edits: readonly {
    readonly display: string
    readonly before: { readonly sha: string; readonly text: string }
    readonly after: { readonly sha: string; readonly text: string }
  }[]
}

/** How many times a revision is made again from the files as they are now, when one changed on disk while it was made. */
const ATTEMPTS = 5

/**
 * Runs `work`, a command that reads a fixture, changes it and writes it (add, review, adjudicate,
 * bind), holding the fixture's lock: other writers of the fixture, in this process or another,
 * wait. Everything `work` reads, it reads under the lock, so a change to one case is made on the
 * files as they are now and can never undo another writer's save. A file changed meanwhile by a
 * writer that takes no lock (an editor) refuses the write (`FILE_CHANGED_MEANWHILE`); `work` is
 * then run again on the new files, a few times, before that refusal reaches the user.
 */
export async function reviseUnderLock<T>(dir: string, cwd: string, work: () => Promise<T>): Promise<T> {
  return withFixtureLock(
    resolve(cwd, dir),
    async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await work()
        } catch (error) {
          if (attempt < ATTEMPTS && error instanceof RubricError && error.code === 'FILE_CHANGED_MEANWHILE') continue
          throw error
        }
      }
    },
    displayPath(cwd, resolve(cwd, dir)),
  )
}

/**
 * One revision of a fixture's `cases.json`, `annotations.json` and its reviewers', judges' and
 * adjudications' files, as `bind`, `add`, `review`, `adjudicate` and a judge's labels make it: every
 * file is read once; the new texts are loaded and decided exactly as evaluation would decide them,
 * so a caller can refuse a revision that would leave a case refused (a judge's labels, which decide
 * nothing, are checked by their caller and written as they are); and the write replaces each file
 * atomically, refusing one that changed on disk since it was read.
 */
export class FixtureRevision {
  private readonly read = new Map<string, RawFile>()
  /** The fixture's records, when it is in the records layout: the documents are read from them and written back as records. */
  private store: FixtureRecords | undefined

  private constructor(
    private readonly kinds: KindRegistry,
    private readonly dir: string,
    private readonly cwd: string,
    /** What the base parsed (or a front end before it): the proposed fixture parses again only the files the revision changes. */
    private readonly memo: ParseMemo,
  ) {}

  /** Reads and decides the fixture as it is: a fixture refused as a whole throws its `FixtureError`. */
  static async open(
    kinds: KindRegistry,
    dir: string,
    cwd: string,
    memo = new ParseMemo(),
    /** The cases the revision changes, when known: a records-layout fixture then reads only their bucket files. */
    scope?: readonly string[],
    /** The scope names cases to add, which the fixture does not hold yet (all their records would be in the buckets read). */
    adding = false,
  ): Promise<{ revision: FixtureRevision; base: RevisionBase }> {
    let revision = new FixtureRevision(kinds, dir, cwd, memo)
    let fixture = await loadFixtureReading(
      kinds,
      dir,
      { cwd, ...(scope === undefined ? {} : { scope }) },
      (path, display) => revision.reader(path, display),
      undefined,
      revision.memo,
    )
    if (scope !== undefined && !adding && fixture.records !== undefined && !scope.every((caseId) => fixture.cases.some((entry) => entry.id === caseId))) {
      // A case not found is named against every case of the fixture, as in a full read.
      revision = new FixtureRevision(kinds, dir, cwd, memo)
      fixture = await loadFixtureReading(kinds, dir, { cwd }, (path, display) => revision.reader(path, display), undefined, revision.memo)
    }
    revision.store = recordStoreOf(fixture)
    return { revision, base: revision.decide(fixture) }
  }

  /**
   * The fixture with `texts` in place of the files named, decided; nothing is written until
   * `commit`. `files` names other files by their path in the fixture directory (a reviewer's
   * `reviews/alice.json`, `adjudications.json`), which may not exist yet.
   */
  async propose(base: RevisionBase, proposed: ProposedTexts): Promise<RevisionCandidate> {
    const { texts, values } = this.entryTexts(base, proposed)
    const staged = this.stage(base, texts, values)
    const { updated, created } = staged
    // One case or one review changed: the memo is given its parse from the parse of the text read, not the new text parsed whole.
    for (const edit of staged.edits) this.memo.primeEdit(base.fixture.definition, edit.display, edit.before, edit.after)
    const list: DirectoryLister = async (directory) => {
      const names = new Set(await listDirectory(directory))
      for (const path of created) if (dirname(path) === directory) names.add(basename(path))
      return [...names]
    }
    const store = this.store
    const fixture = await loadFixtureReading(
      this.kinds,
      this.dir,
      { cwd: this.cwd },
      async (path, display) => updated.get(path) ?? this.reader(path, display),
      list,
      this.memo,
      store === undefined ? undefined : { store, overrides: updated },
    )
    const decided = this.decide(fixture)
    return {
      fixture: decided.fixture,
      get evaluation() {
        return decided.evaluation
      },
      get assessments() {
        return decided.assessments
      },
      assess: decided.assess,
      text: (file) => {
        const written = updated.get(join(decided.fixture.dir, decided.fixture.definition.files[file]))
        return written === undefined ? decided.text(file) : decodeText(written)
      },
      commit: (io = nodeWriteIo) => this.commit(staged, io),
    }
  }

  /**
   * Writes `files` (by their path in the fixture directory: `judges/j1.json`) as given, without
   * loading or deciding the fixture again: for a revision that decides no case (a judge's labels),
   * which its caller has checked. Each file is written only if it is still the file that was read.
   */
  async write(base: RevisionBase, files: Readonly<Record<string, string>>, io: WriteIo = nodeWriteIo): Promise<readonly string[]> {
    return this.commit(this.stage(base, { files }), io)
  }

  /**
   * The changes given entry by entry made into new values of their documents, in the records
   * layout, where the edit is one the value shows; into new texts otherwise.
   */
  private entryTexts(base: RevisionBase, proposed: ProposedTexts): { texts: ProposedTexts; values: Map<string, ReturnType<typeof editedValue>> } {
    const { entries, ...given } = proposed
    const texts: { -readonly [F in WrittenFile]?: string | undefined } = {}
    const values = new Map<string, ReturnType<typeof editedValue>>()
    for (const file of ['annotations', 'cases'] as const) {
      const change = entries?.[file]
      if (change === undefined) continue
      const path = join(base.fixture.dir, base.fixture.definition.files[file])
      const document = this.store === undefined ? undefined : this.raw(path)?.json?.value
      const edited = isObject(document) ? editedValue(document, change.list, change.edits) : undefined
      if (edited === undefined) texts[file] = change.text()
      else values.set(path, edited)
    }
    return { texts: { ...given, ...texts }, values }
  }

  /** The new texts as the files to write, each against the file as it was read; a text the same as the file read is left out. */
  private stage(base: RevisionBase, texts: ProposedTexts, values: ReadonlyMap<string, ReturnType<typeof editedValue>> = new Map()): StagedWrites {
    const definition = base.fixture.definition
    const { dir } = base.fixture
    const updated = new Map<string, RawFile>()
    const entries = new Map<string, readonly unknown[]>()
    const created = new Set<string>()
    const edits: StagedWrites['edits'][number][] = []
    for (const [path, edited] of values) {
      // Made from the document's value: no text is made, hashed or compared, and the entries changed are what is written.
      const file = edited === undefined ? undefined : this.store?.documentWith(documentName(dir, path), edited.value)
      if (edited === undefined || file === undefined || edited.changed.length === 0) continue
      updated.set(path, file)
      entries.set(documentName(dir, path), edited.changed)
    }
    const stage = (path: string, display: string, text: string) => {
      const original = this.raw(path)
      if (original === undefined) created.add(path)
      const before = original === undefined ? undefined : decodeText(original)
      if (original !== undefined && text === before) return
      const bytes = new TextEncoder().encode(text)
      const sha256 = sha256Hex(bytes)
      updated.set(path, { display: original?.display ?? display, bytes, sha256 })
      // A document the records make is known to the memo by its version, never by the hash of a text: nothing to prime.
      if (original !== undefined && before !== undefined && this.store === undefined)
        edits.push({ display: original.display, before: { sha: original.sha256 ?? sha256Hex(original.bytes), text: before }, after: { sha: sha256, text } })
    }
    // annotations first: the review, then the case that acknowledges it (the order messages list them in).
    for (const [relativePath, text] of Object.entries(texts.files ?? {})) stage(join(dir, relativePath), join(base.fixture.displayDir, relativePath), text)
    for (const file of ['annotations', 'cases'] as const) {
      const text = texts[file]
      if (text !== undefined) stage(join(dir, definition.files[file]), '', text)
    }
    return { dir, updated, entries, created, edits }
  }

  /**
   * Writes what `stage` made: every file the package writes into a fixture directory is written
   * here, as the fixture's records when it is in the records layout, each confined to the project
   * and replaced atomically, refusing one that changed on disk since it was read.
   */
  private async commit({ dir, updated, entries, created }: StagedWrites, io: WriteIo): Promise<readonly string[]> {
    const store = this.store
    if (store !== undefined) {
      const texts = new Map<string, string>()
      for (const [path, file] of updated) if (!entries.has(documentName(dir, path))) texts.set(documentName(dir, path), decodeText(file))
      const records = store.writesFor(texts, entries)
      await writeProjectFiles(records, { boundary: projectBoundary(this.cwd, dir), lockDir: resolve(this.cwd, this.dir), cwd: this.cwd, io })
      return records.map((write) => write.display)
    }
    const writes: FileWrite[] = [...updated].map(([path, file]) => {
      const original = this.raw(path)
      return {
        path,
        display: file.display,
        contents: file.bytes,
        // A file this revision creates must still not exist when it is written.
        basedOn: created.has(path) || original === undefined ? null : (original.sha256 ?? sha256Hex(original.bytes)),
        // The bytes read, held anyway: the file on disk is compared with them rather than hashed.
        ...(created.has(path) || original === undefined ? {} : { basedOnBytes: original.bytes }),
      }
    })
    // A reviewer's first review creates reviews/: only the directory is made ahead of the write, and a link there that
    // leads nowhere is refused by name.
    await writeProjectFiles(writes, {
      boundary: projectBoundary(this.cwd, dir),
      lockDir: resolve(this.cwd, this.dir),
      folders: [...created].map((path) => dirname(path)),
      cwd: this.cwd,
      io,
    })
    return writes.map((write) => write.display)
  }

  private decide(fixture: SomeFixture): RevisionBase {
    const definition = fixture.definition
    const text = (file: WrittenFile) => decodeText(this.raw(join(fixture.dir, definition.files[file]))!)
    let whole: { evaluation: SomeEvaluation; assessments: readonly CaseAssessment<Decision>[] } | undefined
    const evaluated = () => {
      whole ??= evaluateWithStates(fixture, { allStates: true })
      return whole
    }
    let decideOne: ((entry: CaseEntry) => DecidedEntry<Decision>) | undefined
    const assess = (index: number): CaseAssessment<Decision> => {
      if (whole !== undefined) return whole.assessments[index]!
      decideOne ??= caseDecider(fixture, { allStates: true })
      return decideOne(fixture.cases[index]!).assessment
    }
    return {
      fixture,
      get evaluation() {
        return evaluated().evaluation
      },
      get assessments() {
        return evaluated().assessments
      },
      assess,
      text,
    }
  }

  private async reader(path: string, display: string): Promise<RawFile> {
    let file = this.read.get(path)
    if (file === undefined) {
      // A bucket file the fixture's reader parsed before: only the lines appended since are read (and the rest hashed).
      const before = this.memo.buckets.readBefore(basename(path), display)
      const grown = before === undefined ? undefined : await readGrownFile(path, display, before)
      // A file this process read or wrote, with the stat stamp it had then (the page's server read it): its SHA-256 is known, and
      // its bytes are read when asked for (the parse memo holds their parse), then refused if they are no longer those.
      const known = grown === undefined ? await knownNow(path) : undefined
      if (grown !== undefined) file = grown
      else if (known !== undefined && known.grownFrom === undefined) file = readWhenAsked(path, display, known.sha256)
      else {
        // Hashed once: the parse memo, the check before the write and the proposed fixture's identities read it.
        const read = await readFixtureFile(path, display)
        file = { ...read, sha256: sha256Hex(read.bytes) }
      }
      this.read.set(path, file)
    }
    return file
  }

  /** The text of a file of the fixture directory as it was read, or `undefined` if it was not read (it does not exist). */
  textOf(relativePath: string, base: RevisionBase): string | undefined {
    const file = this.raw(join(base.fixture.dir, relativePath))
    return file === undefined ? undefined : decodeText(file)
  }

  /** A file as read: from disk, or a document of the fixture's records. */
  private raw(path: string): RawFile | undefined {
    return this.read.get(path) ?? this.store?.virtual(path)
  }
}

/** A file's name as the records name its document: its path in the fixture directory, with `/` on every system (`judges/j1.json`). */
function documentName(dir: string, path: string): string {
  return relative(dir, path).split(sep).join('/')
}
