import { DEFAULT_SEED } from '../stats/bootstrap.js'
import { once } from '../common/primitives.js'
import { ChangeLog } from './change-log.js'
import { NO_PANEL_POLICY } from './panel-rule.js'
import { readFixtureFile, type FixtureFileReader, type RawFile } from '../json/read.js'
import { caseSetFingerprints, type CaseSetIdentity } from './case-set-fingerprints.js'
import { DecisionList } from './decision-list.js'
import type { CaseAssessment } from './assess.js'
import { CoverageTally } from './coverage-tally.js'
import type { Decision } from '../contract/decision.js'
import { caseDecider, conversionNotes, fileIdentities, type EvaluateOptions, type SomeEvaluation } from './evaluate.js'
import { kindContext, loadFixtureReading, recoverInFixture, type CaseEntry, type LoadFixtureOptions, type ReviewEntry, type SomeFixture } from './fixture.js'
import type { FixtureIdentities } from '../contract/results.js'
import type { FileRole } from '../contract/kind.js'
import type { Adoption } from './panel.js'
import { ParseMemo } from './parse-memo.js'
import { sameAdoptions, sameEntry, sameGraded, samePanelReviews, sameSlots } from './same-entries.js'
import type { KindRegistry } from './registry.js'
import { FileMovedError, hashRead, knownFile, listingsOf, retained, stampOf, stampsOf } from './fixture-files-seen.js'
import { appendedTo, knownAs, noteRead } from '../json/known-files.js'
import { changedPositions, decidesEverything, movesGraded, patchedCaseLists, staleFilesOf, staleOf, type DecisionChange } from './incremental-patch.js'

/** Options of {@link IncrementalEvaluation.open}: where messages are relative to, and what each evaluation asks beyond the files. */
export interface IncrementalOptions extends EvaluateOptions, LoadFixtureOptions {
  /** Load only a fixture of this kind. */
  readonly kind?: string
}

/** What one {@link IncrementalEvaluation.refresh} found and did. */
export interface EvaluationChange {
  /** The fixture's files whose bytes changed, as shown, sorted. */
  readonly files: readonly string[]
  /**
   * `'all'` when every case was decided again (the rubric, the source, the members of `cases.json`
   * beside its cases, or whether the several-reviewer rule applies changed); else the ids of the cases decided again, in
   * the order of `cases.json`, removed cases left out.
   */
  readonly decided: 'all' | readonly string[]
  /** The ids of cases no longer in `cases.json`. */
  readonly removed: readonly string[]
}

/** One case as last decided, with what its decision was made from. */
interface CaseState {
  readonly entry: CaseEntry
  readonly text: string | undefined
  readonly decision: Decision
  /** What the checks found, the binding states the stale ones only. */
  readonly assessment: CaseAssessment<Decision>
  readonly stale: readonly (readonly [FileRole, string])[]
  readonly reviews: Readonly<Record<string, ReviewEntry>> | undefined
  readonly panelReviews: ReadonlyMap<string, Readonly<Record<string, ReviewEntry>>> | undefined
  readonly adoptions: Readonly<Record<string, Adoption>> | undefined
}

/** A file as last read: its stat stamp and what the reader returned. */
interface ReadFile {
  readonly stamp: string
  readonly raw: RawFile
  /** The length of the bytes read (kept apart: a large file's bytes are let go once parsed). */
  readonly length: number
}

/**
 * A fixture kept loaded and decided, brought up to date by {@link refresh}: a file is read again
 * only when its stat stamp moved, and parsed again only when its bytes changed; a change to one
 * case's entries (the case, its review, a reviewer's review of it, its adoption) decides that case
 * again, and a change to the rubric or the source decides every case. Each evaluation it gives
 * equals {@link evaluateFixture} of the files as they were read.
 */
export class IncrementalEvaluation {
  private readonly memo = new ParseMemo()
  private readonly read = new Map<string, ReadFile>()
  private readonly tally = new CoverageTally()
  private states = new Map<string, CaseState>()
  private positions = new Map<string, number>()
  private current: SomeEvaluation | undefined
  private loaded: SomeFixture | undefined
  /** The case-set fingerprints of the cases as decided, taken when first asked for. */
  private caseSet: (() => CaseSetIdentity) | undefined
  private queue: Promise<unknown> = Promise.resolve()
  private listings: ReadonlyMap<string, string> | undefined
  private listed: readonly CaseAssessment<Decision>[] | undefined
  private decideWithStates: ((entry: CaseEntry) => { readonly assessment: CaseAssessment<Decision> }) | undefined
  /** The decisions of the evaluation as last made, made when first read. */
  private decisionList: DecisionList | undefined
  /** The stale recorded hashes of the cases as decided, by the file's role, in the order of `cases.json`. */
  private staleFiles = new Map<FileRole, string[]>()
  /** The cases each update decided again: what is kept of the evaluation case by case catches up with those. */
  readonly changes = new ChangeLog()

  private constructor(
    private readonly kinds: KindRegistry,
    private readonly dir: string,
    private readonly options: IncrementalOptions,
  ) {}

  /** Loads and decides a fixture directory, as {@link loadFixture} and {@link evaluateFixture} do. */
  static async open(kinds: KindRegistry, dir: string, options: IncrementalOptions = {}): Promise<IncrementalEvaluation> {
    const evaluation = new IncrementalEvaluation(kinds, dir, options)
    await evaluation.refresh()
    return evaluation
  }

  /** What was parsed of each file, by its bytes: a revision given it (`AuthoringOptions.memo`) parses only the files it changes. */
  get parsed(): ParseMemo {
    return this.memo
  }

  /** The fixture as last read. */
  get fixture(): SomeFixture {
    if (this.loaded === undefined) throw new TypeError('the fixture was not loaded: open it with IncrementalEvaluation.open')
    return this.loaded
  }

  /** The evaluation of the fixture as last read. */
  get evaluation(): SomeEvaluation {
    if (this.current === undefined) throw new TypeError('the fixture was not evaluated: open it with IncrementalEvaluation.open')
    return this.current
  }

  /** The position of each case in `cases.json` as last read, by id. */
  positionOf(id: string): number | undefined {
    return this.positions.get(id)
  }

  /** Each case's assessment as last read, in the order of `cases.json`, its binding states the stale ones only. */
  get assessments(): readonly CaseAssessment<Decision>[] {
    this.listed ??= [...this.states.values()].map((state) => state.assessment)
    return this.listed
  }

  /** The assessment of the case at `position` as last read, as {@link assessments} lists it, without listing every case. */
  assessmentAt(position: number): CaseAssessment<Decision> {
    const entry = this.fixture.cases[position]
    const state = entry === undefined ? undefined : this.states.get(entry.id)
    if (state === undefined) throw new RangeError(`no case at ${position}`)
    return state.assessment
  }

  /**
   * The assessment of the case at `position` with every binding state, current ones too (what a
   * view of one case shows): that case decided alone, as the evaluation decides it.
   */
  assess(position: number): CaseAssessment<Decision> {
    const entry = this.fixture.cases[position]
    if (entry === undefined) throw new RangeError(`no case at ${position}`)
    this.decideWithStates ??= caseDecider(this.fixture, { ...this.options, allStates: true })
    return this.decideWithStates(entry).assessment
  }

  /** The decision of one case as last read; `undefined` for an id `cases.json` does not hold. */
  decisionOf(id: string): Decision | undefined {
    return this.states.get(id)?.decision
  }

  /**
   * Reads again the files whose stat stamp moved, parses those whose bytes changed, and decides
   * again the cases they touch. A fixture-level defect (a file that no longer parses) throws its
   * {@link FixtureError}, and the evaluation stays as it was.
   */
  refresh(): Promise<EvaluationChange> {
    // One refresh at a time: a second one asked for meanwhile starts from what the first read.
    const run = this.queue.then(() => this.refreshNow())
    this.queue = run.catch(() => undefined)
    return run
  }

  private async refreshNow(): Promise<EvaluationChange> {
    try {
      return await this.refreshOnce(false)
    } catch (error) {
      if (!(error instanceof FileMovedError)) throw error
      return this.refreshOnce(true)
    }
  }

  private async refreshOnce(readAll: boolean): Promise<EvaluationChange> {
    // Nothing moved since the last read (every file's stamp, the names in the folders read): nothing is loaded.
    // The stamps taken to tell whether anything moved are those the read compares: each file is stat'ed once.
    const stamps = new Map<string, string | undefined>()
    // The folders are listed before the files are read: a file added while they are read moves the listing at the next check, and is read then.
    const listed = this.loaded === undefined ? undefined : await listingsOf(this.loaded.dir)
    if (!readAll && listed !== undefined && this.unmoved(listed, stamps)) return NO_CHANGE
    const changedFiles: string[] = []
    const seen = new Set<string>()
    // A changed `cases.json` can change the case ids every review file is checked against: then every file is read.
    let everything = readAll
    const reader: FixtureFileReader = async (path, display) => {
      seen.add(path)
      const before = this.read.get(path)
      const stamp = stamps.has(path) ? stamps.get(path) : await stampOf(path)
      if (!everything && before !== undefined && stamp !== undefined && before.stamp === stamp) return before.raw
      // Appended to by this process since it was read (a save through the page), and unchanged since: only the lines appended are new.
      const appended =
        everything || before === undefined || stamp === undefined
          ? undefined
          : appendedTo(knownAs(path, stamp), { length: before.length, sha256: before.raw.sha256 })
      if (appended !== undefined && stamp !== undefined) {
        const raw = knownFile(path, display, appended)
        changedFiles.push(display)
        this.read.set(path, { stamp, raw, length: appended.length })
        return raw
      }
      const file = await readFixtureFile(path, display)
      const raw = { display: file.display, bytes: file.bytes, ...hashRead(file.bytes, before && { length: before.length, sha256: before.raw.sha256 }) }
      if (stamp !== undefined) noteRead(path, stamp, { sha256: raw.sha256, length: file.bytes.length })
      if (before?.raw.sha256 !== raw.sha256) changedFiles.push(display)
      this.read.set(path, { stamp: stamp ?? '', raw: retained(path, raw), length: file.bytes.length })
      return raw
    }
    const casesPath = this.loaded === undefined ? undefined : `${this.loaded.dir}/${this.loaded.definition.files.cases}`
    // In the records layout `cases.json` is made from the records: the memo checks each review document's cases against it.
    if (casesPath !== undefined && !everything && this.loaded?.records === undefined) {
      const before = this.read.get(casesPath)
      everything = before === undefined || before.stamp !== (await stampOf(casesPath))
    }
    await recoverInFixture(this.dir, this.options.cwd ?? process.cwd())
    // A file confined to the project when it was read, whose stamp (its inode and change time among it) has not moved since, is the same file where it was.
    const confined = (path: string) => stamps.get(path) !== undefined && stamps.get(path) === this.read.get(path)?.stamp
    const fixture = await loadFixtureReading(this.kinds, this.dir, { ...this.options, confined }, reader, undefined, this.memo)
    // A file read before and gone now (a reviewer's file deleted, adjudications.json removed) is a change of every case it held, which the
    // memo cannot name: it parsed nothing anew. Every case is compared.
    let gone = false
    for (const [path, { raw }] of [...this.read]) {
      if (seen.has(path)) continue
      this.read.delete(path)
      changedFiles.push(raw.display)
      gone = true
    }
    // A first read has no listing from before it (the fixture's folder is confined to the project by the read): the next check reads again.
    this.listings = listed
    const changedCases = this.memo.takeChangedCases()
    return this.update(fixture, changedFiles.sort(), gone ? undefined : changedCases)
  }

  /** Whether every file last read has its stamp, and the fixture's folders (`listed` now) the names, they had then. */
  private unmoved(listed: ReadonlyMap<string, string>, stamps: Map<string, string | undefined>): boolean {
    const read = [...this.read]
    const now = stampsOf(read.map(([path]) => path))
    for (const [index, [path]] of read.entries()) stamps.set(path, now[index])
    if (read.some(([, { stamp }], index) => now[index] !== stamp)) return false
    if (this.listings === undefined) return false
    for (const [folder, names] of listed) if (this.listings.get(folder) !== names) return false
    return true
  }

  /**
   * Decides the cases of a newly read fixture that differ from the last one read: those the parse
   * memo gave anew (`changedCases`) when it parsed no file whole, else every case is compared.
   */
  private update(fixture: SomeFixture, files: readonly string[], changedCases: ReadonlySet<string> | undefined): EvaluationChange {
    const previous = this.loaded
    const all = previous === undefined || decidesEverything(previous, fixture, this.options)
    const positions = all || changedCases === undefined ? undefined : changedPositions(previous, fixture, changedCases, this.positions)
    if (positions !== undefined) return this.updateCases(fixture, files, positions)
    const decide = caseDecider(fixture, this.options)
    const next = new Map<string, CaseState>()
    const decided: string[] = []
    let casesMoved = previous === undefined || previous.cases.length !== fixture.cases.length
    let changed = all
    fixture.cases.forEach((entry, index) => {
      const before = this.states.get(entry.id)
      if (!casesMoved && previous?.cases[index]?.id !== entry.id) casesMoved = true
      const reviews = fixture.reviews.get(entry.id)
      const panelReviews = fixture.panel.reviews.get(entry.id)
      const adoptions = fixture.panel.adoptions.get(entry.id)
      if (!all && before !== undefined && sameEntry(before.entry, entry) && sameSlots(before.reviews, reviews)) {
        if (samePanelReviews(before.panelReviews, panelReviews) && sameAdoptions(before.adoptions, adoptions)) {
          // Read into the very same values (the parse of unchanged files is kept): the state stands as it was.
          const unchanged = before.entry === entry && before.reviews === reviews && before.panelReviews === panelReviews && before.adoptions === adoptions
          next.set(entry.id, unchanged ? before : { ...before, entry, reviews, panelReviews, adoptions })
          return
        }
      }
      const { assessment, text } = decide(entry)
      if (before !== undefined) this.tally.remove(before.decision)
      this.tally.add(assessment.decision)
      next.set(entry.id, { entry, text, decision: assessment.decision, assessment, stale: staleOf(assessment), reviews, panelReviews, adoptions })
      decided.push(entry.id)
      changed = true
      if (before?.text !== text) casesMoved = true
    })
    const removed: string[] = []
    for (const [id, state] of this.states) {
      if (next.has(id)) continue
      this.tally.remove(state.decision)
      removed.push(id)
      changed = true
      casesMoved = true
    }
    this.states = next
    if (casesMoved) this.positions = new Map(fixture.cases.map((entry, index) => [entry.id, index]))
    if (changed || this.current === undefined || files.length > 0) {
      this.listed = undefined
      this.decideWithStates = undefined
      this.loaded = fixture
      this.current = this.evaluate(fixture, casesMoved || all)
      this.changes.note(all || casesMoved ? 'all' : decided)
    }
    return { files, decided: all ? 'all' : decided, removed }
  }

  /**
   * {@link update} of a fixture that holds every case but those at `positions` as the last one read
   * did: only those are compared and decided again, and the evaluation before is patched with them.
   */
  private updateCases(fixture: SomeFixture, files: readonly string[], positions: readonly number[]): EvaluationChange {
    const decide = caseDecider(fixture, this.options)
    const decided: string[] = []
    const changes: (DecisionChange & { readonly state: CaseState; readonly was: CaseState })[] = []
    let textMoved = false
    for (const position of positions) {
      const entry = fixture.cases[position]!
      const before = this.states.get(entry.id)!
      const reviews = fixture.reviews.get(entry.id)
      const panelReviews = fixture.panel.reviews.get(entry.id)
      const adoptions = fixture.panel.adoptions.get(entry.id)
      if (
        sameEntry(before.entry, entry) &&
        sameSlots(before.reviews, reviews) &&
        samePanelReviews(before.panelReviews, panelReviews) &&
        sameAdoptions(before.adoptions, adoptions)
      ) {
        this.states.set(entry.id, { ...before, entry, reviews, panelReviews, adoptions })
        continue
      }
      const { assessment, text } = decide(entry)
      this.tally.remove(before.decision)
      this.tally.add(assessment.decision)
      const state: CaseState = { entry, text, decision: assessment.decision, assessment, stale: staleOf(assessment), reviews, panelReviews, adoptions }
      this.states.set(entry.id, state)
      decided.push(entry.id)
      changes.push({ position, before: before.decision, after: assessment.decision, state, was: before })
      if (before.text !== text) textMoved = true
    }
    if (changes.length === 0 && this.current !== undefined && files.length === 0) return { files, decided, removed: [] }
    // Listed again when next read (an overview of every case), not copied here: a save's answer reads its one case.
    this.listed = undefined
    this.decideWithStates = undefined
    this.loaded = fixture
    const previous = this.current!
    const decisions = (this.decisionList ?? DecisionList.of(previous.decisions)).patched(changes)
    this.decisionList = decisions
    if (textMoved || movesGraded(changes)) this.caseSet = undefined
    // A change of a case's stale hashes can reorder the notes' hashes: they are gathered again.
    if (changes.some(({ state, was }) => state.stale.length > 0 || was.stale.length > 0)) this.staleFiles = staleFilesOf(this.states.values())
    const lists = patchedCaseLists(previous.coverage, changes, (id) => this.positions.get(id)!)
    this.current = this.evaluationOf(fixture, decisions, this.tally.coverageListing(lists))
    this.changes.note(decided)
    return { files, decided, removed: [] }
  }

  /** The evaluation of the cases as decided: identities reused unless a case's text or the graded set moved. */
  private evaluate(fixture: SomeFixture, casesMoved: boolean): SomeEvaluation {
    const decisions = [...this.states.values()].map((state) => state.decision)
    const previous = this.current
    if (casesMoved || previous === undefined || !sameGraded(previous.decisions, decisions)) this.caseSet = undefined
    this.staleFiles = staleFilesOf(this.states.values())
    this.decisionList = DecisionList.of(decisions)
    return this.evaluationOf(fixture, this.decisionList, this.tally.coverage(decisions))
  }

  /** The evaluation of `decisions`, the cases as decided: what needs every case (the case-set fingerprints, the kind's summary) made when first read. */
  private evaluationOf(fixture: SomeFixture, decisions: DecisionList, coverage: SomeEvaluation['coverage']): SomeEvaluation {
    if (this.caseSet === undefined) {
      // The map of states, not a list of them: a later save replaces some of its values, whose texts are made again then.
      const states = this.states
      this.caseSet = once(() => caseSetFingerprints(fixture, decisions.list, states))
    }
    const caseSet = this.caseSet
    const definition = fixture.definition
    const options = { seed: this.options.seed ?? DEFAULT_SEED, marginGate: this.options.marginGate ?? 'point' } as const
    let identities: FixtureIdentities | undefined
    let summary: { readonly value: unknown } | undefined
    // The case-set fingerprints hash every case's text, and a kind's summary reads every decision: each made when first read, not on every save.
    return {
      fixture,
      get decisions() {
        return decisions.list
      },
      coverage,
      get identities() {
        identities ??= { ...caseSet(), files: fileIdentities(fixture) }
        return identities
      },
      get summary() {
        summary ??= { value: definition.summarize(kindContext(fixture), decisions.list, options) }
        return summary.value
      },
      notes: conversionNotes(fixture, this.staleFiles),
      panel: this.options.panel ?? NO_PANEL_POLICY,
    }
  }
}

const NO_CHANGE: EvaluationChange = { files: [], decided: [], removed: [] }
