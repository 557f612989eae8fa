import { kinds } from '../core/registry.js'
import { readRecordedDecisions, type RecordedDecisions } from '../core/engine/decision-record.js'
import { loadFixtureReading, type SomeFixture } from '../core/engine/fixture.js'
import type { SomeEvaluation } from '../core/engine/evaluate.js'
import type { IncrementalEvaluation } from '../core/engine/incremental.js'
import type { KeptEvaluations } from './kept.js'
import { planChunkOfEvaluation, planFixtureTests, type CaseChunk, type ChunkPlan, type PlanOptions } from '../core/engine/plan.js'
import type { PlannedCase } from '../core/contract/results.js'
import { readFixtureFile } from '../core/json/read.js'
import { cachedResult, readFixtureFiles, servingReader, type FixtureFiles } from './plan-cache.js'
import { evaluateForPlan, planChunk, refusing, type PlanResult } from './plan-fixture.js'
import { recoverForRun } from './recover.js'

/** What a session needs of its project. */
export interface SessionContext {
  readonly root: string
  /** Where plans are cached; `undefined` when caching is off. */
  readonly cacheDir: string | undefined
  /** The plan options of this fixture (which gates check it is known once the gates' globs are matched). */
  readonly planOptions: Promise<PlanOptions>
  /**
   * Whether the run plans the whole fixture anyway (its reporter and fixture-level checks do,
   * unless it is a shard writing a blob report): then the whole fixture is decided once and each
   * chunk's plan is a slice of those decisions.
   */
  readonly wholeRun: boolean
  /** In watch mode, the fixtures kept loaded and decided from run to run: then nothing is read from the plan cache. */
  readonly kept?: KeptEvaluations | undefined
}

/**
 * What one run knows of a fixture in the main process, kept for as long as the run lasts: its
 * files, read once however many of its chunks the run plans; the fixture loaded from those bytes
 * once; the plan of the whole fixture (for the reporter and the fixture's own checks); and its
 * decision record. The next run (a rerun in watch mode) starts a new session; in watch mode the
 * fixture itself is kept from run to run ({@link KeptEvaluations}), and a session reads it up to date.
 */
export class FixtureSession {
  private files: Promise<FixtureFiles | undefined> | undefined
  private fixture: Promise<SomeFixture> | undefined
  private whole: Promise<PlanResult> | undefined
  private evaluation: Promise<SomeEvaluation> | undefined
  private readonly records = new Map<string, Promise<RecordedDecisions | undefined>>()
  private refreshed: Promise<IncrementalEvaluation> | undefined

  constructor(
    private readonly context: SessionContext,
    /** The fixture directory, absolute. */
    readonly dir: string,
  ) {}

  /** The plan of the whole fixture, through the plan cache when the project has one. */
  plan(): Promise<PlanResult> {
    this.whole ??= this.cached([], () => refusing(async () => planFixtureTests(await this.evaluate(), await this.context.planOptions)))
    return this.whole
  }

  /**
   * The plan of the whole fixture, as the end of a run asks for it (the reporter, the gate of a
   * split fixture): no chunk module asks for anything after that, so the loaded fixture and its
   * decisions are let go once the plan is made. A run over many large fixtures (a merge of shards)
   * then holds one loaded fixture at a time, and the plans.
   */
  async finalPlan(): Promise<PlanResult> {
    try {
      return await this.plan()
    } finally {
      this.fixture = undefined
      this.evaluation = undefined
      this.files = undefined
    }
  }

  /** The plan of one chunk: only its cases are decided, unless the run decides the whole fixture anyway. */
  chunk(chunk: CaseChunk): Promise<PlanResult<ChunkPlan>> {
    const { wholeRun, kept } = this.context
    if (kept !== undefined) return refusing(async () => planChunkOfEvaluation(await this.evaluate(), chunk))
    const alone = async () => planChunk(() => this.load(), chunk, await this.context.planOptions)
    const compute = async () => {
      if (!wholeRun) return alone()
      // The whole plan, from the cache or decided now: only in the second case are the decisions there to slice.
      await this.plan()
      return this.evaluation === undefined ? alone() : refusing(async () => planChunkOfEvaluation(await this.evaluate(), chunk))
    }
    return this.cached(['chunk', chunk.index, chunk.count], compute, `chunk ${chunk.index}`)
  }

  /** Every case of the fixture decided, once per run. */
  private evaluate(): Promise<SomeEvaluation> {
    if (this.context.kept !== undefined) this.evaluation ??= this.keptEvaluation().then((kept) => kept.evaluation)
    this.evaluation ??= Promise.all([this.load(), this.context.planOptions]).then(([fixture, options]) => evaluateForPlan(fixture, options))
    return this.evaluation
  }

  /** The kept evaluation, brought up to date once per run. */
  private keptEvaluation(): Promise<IncrementalEvaluation> {
    const { kept } = this.context
    if (kept === undefined) throw new TypeError('the fixture is not kept: the run is not in watch mode')
    this.refreshed ??= kept.current(this.dir)
    return this.refreshed
  }

  /** The fixture's decision record, read once; `undefined` when there is none. A defective record rejects, for every caller. */
  record(path: string, display: string): Promise<RecordedDecisions | undefined> {
    let read = this.records.get(path)
    if (read === undefined) {
      read = readRecordedDecisions(path, display, { root: this.context.root })
      // Whoever asks gets the rejection; an unasked one is no unhandled rejection.
      read.catch(() => {})
      this.records.set(path, read)
    }
    return read
  }

  private readFiles(): Promise<FixtureFiles | undefined> {
    this.files ??= recoverForRun(this.dir, this.context.root).then(() => readFixtureFiles(this.dir, this.context.root))
    return this.files
  }

  private load(): Promise<SomeFixture> {
    if (this.context.kept !== undefined) this.fixture ??= this.keptEvaluation().then((kept) => kept.fixture)
    this.fixture ??= this.readFiles().then((files) =>
      loadFixtureReading(kinds, this.dir, { cwd: this.context.root }, files === undefined ? readFixtureFile : servingReader(files)),
    )
    return this.fixture
  }

  private async cached<P extends { readonly cases: readonly PlannedCase[] }>(
    key: readonly unknown[],
    compute: () => Promise<PlanResult<P>>,
    part?: string,
  ): Promise<PlanResult<P>> {
    if (this.context.kept !== undefined) return compute()
    const files = await this.readFiles()
    const { cacheDir, root } = this.context
    if (files === undefined || cacheDir === undefined) return compute()
    const planOptions = await this.context.planOptions
    return cachedResult({ dir: this.dir, root, cacheDir, files, key: [planOptions, ...key], ...(part === undefined ? {} : { part }) }, compute)
  }
}
