import { RECORDS_DIR } from '../core/store/records.js'
import { type FSWatcher, watch } from 'node:fs'
import { join } from 'node:path'
import { RubricError } from '../core/common/errors.js'
import type { CaseAssessment } from '../core/engine/assess.js'
import type { Decision } from '../core/contract/decision.js'
import { DecidedUnder } from '../core/engine/decided-under.js'
import { KeptQueue, listedQueue, type ReviewerQueue } from '../core/engine/kept-queue.js'
import { reviewQueue } from '../core/engine/review-queue.js'
import type { ReadSample } from '../core/sample/sample-file.js'
import { evaluateWithStates, type DecidedWithStates, type EvaluateOptions, type SomeEvaluation } from '../core/engine/evaluate.js'
import type { SomeFixture } from '../core/engine/fixture.js'
import { IncrementalEvaluation } from '../core/engine/incremental.js'
import { JUDGES_DIR, REVIEWS_DIR } from '../core/engine/panel.js'
import type { ParseMemo } from '../core/engine/parse-memo.js'
import type { PanelPolicy } from '../core/engine/panel-rule.js'
import type { KindRegistry } from '../core/engine/registry.js'
import { fixtureVersion } from './page-data.js'
import type { PageFixture } from './protocol.js'

/**
 * The evaluation of a loaded fixture: what the page's views are made from. `assessments` are each
 * case's, with the stale binding states (what the overview's rows read); `assess` gives one case's
 * with every binding state (what the view of that case shows), deciding that case alone.
 */
export interface Decided {
  readonly evaluation: SomeEvaluation
  readonly assessments: readonly CaseAssessment<Decision>[]
  /** The assessment of the case at `position`, as `assessments` lists it, without listing every case. */
  readonly assessmentAt: (position: number) => CaseAssessment<Decision>
  readonly assess: (position: number) => CaseAssessment<Decision>
  /** Where a case is in `cases.json` as last read (the caller checks it against its fixture). */
  readonly positionOf: (id: string) => number | undefined
}

/** One viewer's overview of a loaded fixture, and its JSON as served (made when first read): bytes, so that a request copies nothing. */
export interface OverviewView {
  readonly page: PageFixture
  readonly json: Buffer
}

/** A served directory as last read: the fixture and its evaluation, or the error that refused it. */
export type LoadedEntry =
  | {
      readonly fixture: SomeFixture
      readonly decided: Decided
      readonly version: string
      /** The overviews made of it so far, by who may see what: a blind reviewer's is their own. */
      readonly views: Map<string, OverviewView>
      /** What was parsed of the fixture's files: a save given it (`memo`) parses only the files it changes. */
      readonly parsed: ParseMemo
      /** The fixture decided under another several-reviewer policy (a team's assignment): only its changed cases decided again. */
      readonly decidedUnder: (panel: PanelPolicy) => DecidedWithStates
      /** A reviewer's review queue under another several-reviewer policy: only its changed cases read again. */
      readonly queueFor: (reviewer: string, panel: PanelPolicy, sample: ReadSample) => ReviewerQueue
      readonly error?: undefined
    }
  | { readonly error: RubricError; readonly version: null; readonly fixture?: undefined }

function assessmentIn(assessments: readonly CaseAssessment<Decision>[], position: number): CaseAssessment<Decision> {
  const found = assessments[position]
  if (found === undefined) throw new RangeError(`no assessment of the case at ${position}`)
  return found
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
}

/**
 * The served fixtures, each kept loaded and decided ({@link IncrementalEvaluation}). A change is
 * told by content, not by time alone: a file whose size, times and inode are as read is taken as
 * unchanged; one whose are not is hashed, and only different bytes are parsed again, and only the
 * cases they touch decided again. Directory watches check the files as soon as something is
 * written there, whoever wrote it.
 */
export class LoadedFixtures {
  private readonly entries: LoadedEntry[] = []
  private readonly kept: (IncrementalEvaluation | undefined)[] = []
  /** Each kept fixture decided under the other policies asked for, by policy. */
  private readonly under: (Map<string, DecidedUnder> | undefined)[] = []
  /** Each kept fixture's reviewers' queues, by policy and reviewer. */
  private readonly reviewerQueues: (Map<string, KeptQueue> | undefined)[] = []
  private readonly queues: Promise<unknown>[] = []
  private readonly watchers = new Map<string, FSWatcher>()
  private readonly timers = new Map<number, NodeJS.Timeout>()
  private readonly announced: (string | null | undefined)[] = []
  private closed = false
  /** Watch events and checks counted in the order they happened; the count at each fixture's last check. */
  private events = 0
  private readonly checked: number[] = []

  constructor(private readonly options: LoadedFixturesOptions) {}

  /** The fixture at `index` as its files are now: loaded again only when one of them changed. */
  current(index: number): Promise<LoadedEntry> {
    // One check at a time per fixture, each after the last: a check never returns what an earlier, slower one read.
    const next = (this.queues[index] ?? Promise.resolve()).then(() => this.refresh(index))
    this.queues[index] = next.catch(() => undefined)
    return next
  }

  /** The fixture at `index` as last read, its files not checked again: `undefined` before the first read. */
  last(index: number): LoadedEntry | undefined {
    return this.entries[index]
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
    for (const folder of [dir, join(dir, REVIEWS_DIR), join(dir, JUDGES_DIR), join(dir, RECORDS_DIR)]) {
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
    const event = ++this.events
    clearTimeout(this.timers.get(index))
    this.timers.set(
      index,
      setTimeout(() => {
        this.timers.delete(index)
        this.watchDirs(index, dir)
        // A check begun since the last event saw what it told of (a save's own read after its write): the files are not stat'ed again.
        if ((this.checked[index] ?? 0) > event) return
        this.current(index).catch(() => undefined)
      }, SETTLE_MS),
    )
  }

  private async refresh(index: number): Promise<LoadedEntry> {
    this.checked[index] = ++this.events
    const before = this.entries[index]
    const entry = await this.load(index)
    if (entry === before) return entry
    this.entries[index] = entry
    if (this.announced[index] !== undefined && this.announced[index] !== entry.version) this.options.onChange(index)
    // A refusal that stays a refusal is announced too: its file changed.
    else if (before !== undefined && entry.version === null) this.options.onChange(index)
    this.announced[index] = entry.version
    return entry
  }

  /** The kept fixture at `index` decided under `panel`, kept for the next asking. */
  private underPolicy(index: number, panel: PanelPolicy): DecidedUnder {
    const key = JSON.stringify(panel)
    const under = this.under[index] ?? new Map<string, DecidedUnder>()
    this.under[index] = under
    const view = under.get(key) ?? new DecidedUnder(this.options.evaluate, panel)
    under.set(key, view)
    return view
  }

  /** The entry of the fixture as its files are now: the one kept when none of their bytes changed. */
  private async load(index: number): Promise<LoadedEntry> {
    const { kinds, dirs, cwd, evaluate } = this.options
    const dir = dirs[index]
    if (dir === undefined) throw new RangeError(`no fixture at ${index}`)
    try {
      let kept = this.kept[index]
      const before = this.entries[index]
      if (kept === undefined) {
        kept = await IncrementalEvaluation.open(kinds, dir, { cwd, ...evaluate })
        this.kept[index] = kept
        this.under[index] = undefined
        this.reviewerQueues[index] = undefined
      } else {
        const change = await kept.refresh()
        if (change.files.length === 0 && before !== undefined && before.error === undefined) return before
      }
      const evaluated = kept
      const { evaluation, fixture } = evaluated
      // Listed when an overview first reads them, not at each read: a save's answer reads its one case. Read once the
      // evaluation has moved on (a request begun before a later read), they are listed from the fixture this entry holds.
      const current = () => evaluated.evaluation === evaluation
      let assessments: readonly CaseAssessment<Decision>[] | undefined
      const decided: Decided = {
        evaluation,
        get assessments() {
          assessments ??= current() ? evaluated.assessments : evaluateWithStates(fixture, evaluate).assessments
          return assessments
        },
        assessmentAt: (position) => (current() && assessments === undefined ? evaluated.assessmentAt(position) : assessmentIn(decided.assessments, position)),
        assess: (position) => evaluated.assess(position),
        positionOf: (id) => evaluated.positionOf(id),
      }
      const decidedUnder = (panel: PanelPolicy): DecidedWithStates =>
        current() ? this.underPolicy(index, panel).of(evaluated) : evaluateWithStates(fixture, { ...evaluate, panel, allStates: true })
      const queueFor = (reviewer: string, panel: PanelPolicy, sample: ReadSample): ReviewerQueue => {
        if (!current()) return listedQueue(reviewQueue(fixture, { sample: sample.sample, for: { reviewer }, panel, decided: decidedUnder(panel) }).entries)
        const key = JSON.stringify([panel, reviewer])
        const queues = this.reviewerQueues[index] ?? new Map<string, KeptQueue>()
        this.reviewerQueues[index] = queues
        const queue = queues.get(key) ?? new KeptQueue(reviewer, this.underPolicy(index, panel))
        queues.set(key, queue)
        return queue.read(evaluated, sample)
      }
      return { fixture, decided, version: await fixtureVersion(fixture), views: new Map(), parsed: evaluated.parsed, decidedUnder, queueFor }
    } catch (error) {
      if (!(error instanceof RubricError)) throw error
      // Opened again from the files once they are fixed: a refused fixture keeps nothing.
      this.kept[index] = undefined
      this.under[index] = undefined
      this.reviewerQueues[index] = undefined
      return { error, version: null }
    }
  }
}
