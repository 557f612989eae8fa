import { z } from 'zod'
import { UsageError } from '../common/errors.js'
import { formatLocation } from '../common/json-path.js'
import { malformedStringPath } from '../json/literals.js'
import { isObject } from '../common/primitives.js'
import { closestName } from '../common/suggest.js'
import type { WriteIo } from '../json/atomic-write.js'
import { safeParseReporting } from '../json/schema-error.js'
import type { CriteriaRubric } from '../kinds/criteria/rubric.js'
import { RatingSchema, type Case, type Criterion, type Rating, type Rubric } from '../kinds/criteria/schemas.js'
import { criteriaKind } from '../kinds/criteria/index.js'
import { checkReviewer, refuseCaseTwin } from '../engine/authoring/authors.js'
import type { DraftSource } from '../engine/authoring/draft.js'
import { kindContext } from '../engine/fixture.js'
import { carriedLabels, carriedOrigin } from './judge-carry.js'
import type { KindRegistry } from '../engine/registry.js'
import type { KindContext } from '../contract/kind.js'
import { isCurrentLabel, judgeableCase, openForLabels, recordJudgeLabels, type JudgeLabelDraft } from './judge-labels.js'
import { MAX_REASON_CHARACTERS, MAX_VERDICT_CHARACTERS, verdictSize } from './verdict-limits.js'
import { abortion, pause } from './stoppable-wait.js'
import { judgeFileDisplay, JUDGES_DIR } from '../engine/panel.js'
import { inShard, type JudgeShard } from './judge-shard.js'

/** What a judge is shown of one criterion of one case. */
export interface JudgeCriterionInput {
  /** The case's question: the rubric's task. */
  readonly question: string
  /** The answer under judgement: its text and the source it cites. */
  readonly answer: { readonly text: string; readonly citation: string }
  /** `source.txt`, the text the criteria quote. */
  readonly source: string
  /** The criterion to judge: its id, its rule and its reference quote. */
  readonly criterion: Criterion
  /** `rubric.json` as parsed. */
  readonly rubric: Rubric
  /** The case as `cases.json` holds it. */
  readonly case: Case
}

/** What a judge called once per case is shown: every criterion still to judge for that case. */
export interface JudgeCaseInput extends Omit<JudgeCriterionInput, 'criterion'> {
  /** The criteria to judge, in the rubric's order: those without a current label. */
  readonly criteria: readonly Criterion[]
}

/** A judge's verdict on one criterion. */
export interface JudgeVerdict {
  readonly rating: Rating
  /** Why: for an omission, the requirement the answer leaves out. Not empty; at most 4,000 characters, and the whole verdict at most 32,000 as JSON. */
  readonly reason: string
  /**
   * An exact excerpt of the answer the rating rests on.
   * @default "" (an omission)
   */
  readonly span?: string | undefined
}

/** A judge called once per case × criterion: the default export of a judge module. */
export type CriterionJudge = (input: JudgeCriterionInput) => JudgeVerdict | Promise<JudgeVerdict>

/**
 * A judge called once per case, returning a verdict for each criterion asked: a module's `judgeCase`
 * export. A verdict under an id the rubric does not define refuses the call.
 */
export type CaseJudge = (input: JudgeCaseInput) => Readonly<Record<string, JudgeVerdict>> | Promise<Readonly<Record<string, JudgeVerdict>>>

/** A module `vitest-rubric judge --run` loads: a default export judging one criterion, or a `judgeCase` export judging a case. */
export interface JudgeModule {
  readonly default?: CriterionJudge
  readonly judgeCase?: CaseJudge
  /** Named in the judge file's `origin`, before the module and its version: the model, the prompt's revision. */
  readonly description?: string
}

/** The judge a run calls: per criterion or per case. */
export type JudgeFunction = { readonly perCriterion: CriterionJudge } | { readonly perCase: CaseJudge }

/** How far a run has got, reported after each call. */
export interface JudgeProgress {
  /** Case × criterion pairs the run has to judge. */
  readonly total: number
  readonly done: number
  readonly failed: number
  readonly remaining: number
  /** Labels (case × criterion) written so far. */
  readonly written: number
}

/** A case × criterion the judge gave no valid verdict for, after every retry: never written as a label. */
export interface JudgeFailure {
  readonly caseId: string
  readonly criterion: string
  readonly attempts: number
  /** The last error, or what was wrong with the last result. */
  readonly error: string
}

/** Options of {@link runJudge}. */
export interface RunJudgeOptions {
  /** Paths in messages are shown relative to this directory. */
  readonly cwd: string
  /** The kinds the directory may hold: the registry of the front end that starts from it. */
  readonly kinds: KindRegistry
  /** The judge's name: its labels go to `judges/<judge>.json`. */
  readonly judge: string
  readonly run: JudgeFunction
  /** The judge file's `origin`: the model, the prompt's revision, the module and its version. */
  readonly origin?: string | undefined
  /**
   * Calls in flight at once.
   * @default 4
   */
  readonly concurrency?: number | undefined
  /**
   * Further calls after one that throws or returns an invalid verdict, with exponential backoff.
   * @default 2
   */
  readonly retries?: number | undefined
  /**
   * The first retry's delay in milliseconds; each further one doubles it.
   * @default 500
   */
  readonly backoffMs?: number | undefined
  /**
   * How long one call may take, in milliseconds: a call with no verdict by then is given up (its
   * result, should it come later, is ignored) and counts as a failed call, retried like one.
   * @default 60000
   */
  readonly timeoutMs?: number | undefined
  /**
   * Write the finished labels once this many are waiting…
   * @default 200
   */
  readonly batchSize?: number | undefined
  /**
   * …or once this many milliseconds have passed since the last write.
   * @default 2000
   */
  readonly batchMs?: number | undefined
  /**
   * Say what would be judged, call nothing, write nothing.
   * @default false
   */
  readonly dryRun?: boolean | undefined
  /** Judge only the cases of this shard ({@link inShard}): the other shards, run anywhere, judge the rest. */
  readonly shard?: JudgeShard | undefined
  /** Stops the run: no new call is made, the finished labels are written, and the run resolves with `interrupted`. */
  readonly signal?: AbortSignal | undefined
  readonly onProgress?: ((progress: JudgeProgress) => void) | undefined
  /** @internal the filesystem calls of the writes, replaced in tests */
  readonly io?: WriteIo
}

/** What {@link runJudge} did. */
export interface JudgeRunResult {
  readonly dir: string
  readonly judge: string
  /** The judge's file, as shown. */
  readonly file: string
  /** The cases the run covers: every case of the fixture, or those of its shard. */
  readonly cases: number
  /** The shard run, and how many cases the fixture has in all. */
  readonly shard?: (JudgeShard & { readonly fixtureCases: number }) | undefined
  /** Case × criterion pairs with a current label: not judged again. */
  readonly current: number
  /** Pairs the run had to judge, and the cases they are of. */
  readonly total: number
  readonly casesToJudge: number
  /** Pairs judged and written. */
  readonly written: number
  /**
   * Pairs of a per-criterion judge's stale labels carried over without a call: the label was bound
   * to an earlier rubric found in git, and the criterion's rule and reference quote are unchanged.
   * They are re-bound to the rubric as it is, and the judge file's `origin` says so.
   */
  readonly carried: number
  readonly failures: readonly JudgeFailure[]
  /** Cases that cannot be labelled as they are (malformed, another question), with why. */
  readonly skipped: readonly { readonly caseId: string; readonly reason: string }[]
  /** The run was stopped before it finished: what it finished is written. */
  readonly interrupted: boolean
  readonly dryRun: boolean
}

/** One call to make: a case, and the criteria it judges (one for a per-criterion judge). */
interface Task {
  readonly caseId: string
  readonly input: Omit<JudgeCriterionInput, 'criterion'>
  readonly criteria: readonly Criterion[]
  readonly parsedCase: Case
}

/** How long one call may take by default: 60 s. */
export const DEFAULT_JUDGE_TIMEOUT_MS = 60_000

export { MAX_REASON_CHARACTERS, MAX_VERDICT_CHARACTERS } from './verdict-limits.js'

const VerdictSchema = z.strictObject({
  rating: RatingSchema,
  reason: z
    .string()
    .trim()
    .min(1, { error: 'a non-empty reason' })
    .max(MAX_REASON_CHARACTERS, { error: `a reason of at most ${MAX_REASON_CHARACTERS.toLocaleString('en-US')} characters` }),
  span: z.string().optional(),
})

/**
 * Runs an automated judge over a criteria fixture and records its labels in `judges/<judge>.json`.
 * The judge is called only for the case × criterion pairs without a current label (one bound to
 * the answer, the source and the rubric as they are): a second run calls nothing, and after an
 * answer is edited only that case is judged again. Finished labels are written in batches through
 * the same locked, compare-and-swap revision as `review --judge`, so a run stopped midway keeps
 * them and the next run resumes. A call that throws or returns an invalid verdict is retried with
 * backoff; in the end it is reported as a failure, never written as a label.
 */
export async function runJudge(dir: string, options: RunJudgeOptions): Promise<JudgeRunResult> {
  const fixture = await openForLabels(options.kinds, dir, options.cwd)
  if (fixture.kind !== 'criteria') {
    throw new UsageError({
      code: 'USAGE',
      file: fixture.displayDir,
      summary: `a judge runs on a criteria fixture; this one is ${fixture.kind}, and its judges' labels are not calibrated yet. Nothing was judged.`,
      hint: "run a judge on a criteria fixture; record a scored case's label with `vitest-rubric review <dir> --case <id> --system <system> --judge <name> --from <file>`.",
    })
  }
  const judge = checkReviewer(options.judge, '--judge')
  refuseCaseTwin(fixture, judge, JUDGES_DIR, '--judge')
  const definition = fixture.definition
  // Cast: the runner refuses any fixture but a criteria one above, so this is its rubric.
  const context = kindContext(fixture) as KindContext<CriteriaRubric>
  const { rubric } = context
  const tasks: Task[] = []
  const skipped: { caseId: string; reason: string }[] = []
  const file = judgeFileDisplay(fixture, judge)
  // A per-case judge saw every criterion at once, so after a rubric revision its case is judged again whole.
  const { shard } = options
  const covered = (caseId: string) => shard === undefined || inShard(caseId, shard)
  const carried =
    'perCriterion' in options.run ? await carriedLabels(fixture, context, judge, file, covered) : { judgements: new Map(), from: new Set<string>(), count: 0 }
  let current = 0
  let cases = 0
  fixture.cases.forEach((entry, index) => {
    if (!covered(entry.id)) return
    cases++
    const judgeable = judgeableCase(fixture, context, index)
    if (!judgeable.ok) {
      skipped.push({ caseId: entry.id, reason: judgeable.reason })
      return
    }
    // Cast: as above, a criteria case as its schema parsed it.
    const parsedCase = judgeable.value as Case
    const label = fixture.judges.reviews.get(entry.id)?.get(judge)?.['review']?.value
    const labelled = label !== undefined && isCurrentLabel(definition.bindings, context, entry.value, label, 'review') ? judgementsOf(label) : {}
    const carriedHere = carried.judgements.get(entry.id) ?? {}
    const criteria = [...rubric.criteria.values()].filter((criterion) => !Object.hasOwn(labelled, criterion.id) && !Object.hasOwn(carriedHere, criterion.id))
    current += rubric.criteria.size - criteria.length - Object.keys(carriedHere).length
    if (criteria.length === 0) return
    const input = { question: parsedCase.input.question, answer: parsedCase.input.answer, source: rubric.source, rubric: rubric.document, case: parsedCase }
    if ('perCase' in options.run) tasks.push({ caseId: entry.id, input, criteria, parsedCase })
    else for (const criterion of criteria) tasks.push({ caseId: entry.id, input, criteria: [criterion], parsedCase })
  })
  const total = tasks.reduce((sum, task) => sum + task.criteria.length, 0)
  const carriedCount = carried.count
  const casesToJudge = new Set(tasks.map((task) => task.caseId)).size
  const base = {
    dir: fixture.displayDir,
    judge,
    file,
    cases,
    ...(shard === undefined ? {} : { shard: { ...shard, fixtureCases: fixture.cases.length } }),
    current,
    total,
    casesToJudge,
    skipped,
    dryRun: options.dryRun === true,
    carried: carriedCount,
  }
  if (options.dryRun === true || (total === 0 && carriedCount === 0)) return { ...base, written: 0, failures: [], interrupted: false }

  // Shards carry over different counts: noted in the origin, they would fork the judge file's origin when merged.
  const origin =
    carriedCount === 0 || shard !== undefined ? options.origin : carriedOrigin(options.origin ?? fixture.judges.files[judge]?.origin, carried, context)
  const run = new Run(dir, judge, context, { ...options, origin }, total)
  // A case's carried judgements are written with its first verdict, so that its label is rewritten once; those left (no call
  // to make, a call that failed, a run stopped midway) with the last write.
  for (const [caseId, judgements] of carried.judgements) run.carry(caseId, judgements)
  await run.judgeAll(tasks)
  return { ...base, written: run.written, failures: run.failures, interrupted: run.interrupted }
}

function judgementsOf(label: unknown): Record<string, unknown> {
  const judgements = isObject(label) ? label['judgements'] : undefined
  return isObject(judgements) ? judgements : {}
}

/** One run's calls, its verdicts waiting to be written, and its writes, one at a time. */
class Run {
  written = 0
  readonly failures: JudgeFailure[] = []
  interrupted = false
  private done = 0
  private readonly waiting = new Map<string, Record<string, { rating: string; reason: string; answer_span: string }>>()
  private waitingCount = 0
  /** Carried-over judgements by case, not yet among those waiting: written, but not counted as judged. */
  private readonly carried = new Map<string, Record<string, { rating: string; reason: string; answer_span: string }>>()
  private writing: Promise<void> | undefined
  private lastWrite = Date.now()
  private lastWriteTook = 0
  private writeError: unknown

  constructor(
    private readonly dir: string,
    private readonly judge: string,
    private readonly context: KindContext<CriteriaRubric>,
    private readonly options: RunJudgeOptions,
    private readonly total: number,
  ) {}

  /** Keeps a label's carried-over judgements, to be written with the case's first verdict, or with the run's last write. */
  carry(caseId: string, judgements: Record<string, { rating: string; reason: string; answer_span: string }>): void {
    this.carried.set(caseId, judgements)
  }

  /** The carried judgements of a case (or of every case left) among those waiting to be written. */
  private takeCarried(caseIds: Iterable<string>): void {
    for (const caseId of caseIds) {
      const judgements = this.carried.get(caseId)
      if (judgements === undefined) continue
      this.carried.delete(caseId)
      this.waiting.set(caseId, { ...judgements, ...this.waiting.get(caseId) })
    }
  }

  async judgeAll(tasks: readonly Task[]): Promise<void> {
    const { signal } = this.options
    let next = 0
    let yielded = Date.now()
    const worker = async () => {
      while (next < tasks.length && signal?.aborted !== true && this.writeError === undefined) {
        await this.judgeTask(tasks[next++]!)
        // A judge that answers at once never leaves the microtask queue: let timers (the progress bar) and signals (Ctrl-C) in.
        if (Date.now() - yielded >= 50) {
          await new Promise((resolve) => setImmediate(resolve))
          yielded = Date.now()
        }
      }
    }
    const workers = Promise.all(Array.from({ length: Math.max(1, Math.min(this.options.concurrency ?? 4, tasks.length)) }, worker))
    // On a stop, the calls in flight are not waited for: what is finished is written, and the run ends.
    await Promise.race([workers, abortion(signal)])
    this.interrupted = signal?.aborted === true
    await this.writing
    const carriedLeft = this.carried.size > 0
    this.takeCarried([...this.carried.keys()])
    if ((this.waitingCount > 0 || carriedLeft) && this.writeError === undefined) await this.write()
    if (this.writeError !== undefined) throw this.writeError
  }

  private async judgeTask(task: Task): Promise<void> {
    const attempts = 1 + Math.max(0, this.options.retries ?? 2)
    let failure = ''
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1 && !(await pause((this.options.backoffMs ?? 500) * 2 ** (attempt - 2), this.options.signal))) return
      try {
        const verdicts = await this.call(task)
        if (this.options.signal?.aborted === true) return
        this.accept(task, verdicts)
        return
      } catch (error) {
        if (this.options.signal?.aborted === true) return
        failure = error instanceof Error ? error.message : String(error)
      }
    }
    for (const criterion of task.criteria) this.failures.push({ caseId: task.caseId, criterion: criterion.id, attempts, error: failure })
    this.progress(task.criteria.length)
  }

  /** Calls the judge and checks every verdict: a wrong one throws, so the call is retried. */
  private async call(task: Task): Promise<Record<string, { rating: string; reason: string; answer_span: string }>> {
    const { run } = this.options
    const raw: unknown =
      'perCase' in run
        ? await this.timed(() => run.perCase({ ...task.input, criteria: task.criteria }))
        : { [task.criteria[0]!.id]: await this.timed(() => run.perCriterion({ ...task.input, criterion: task.criteria[0]! })) }
    if (!isObject(raw)) throw new Error(`the judge returned ${preview(raw)}, not verdicts by criterion id`)
    const { criteria } = this.context.rubric
    // A verdict under an id the rubric does not define is a judge that misnamed a criterion: never dropped unseen.
    for (const id of Object.keys(raw)) {
      if (criteria.has(id)) continue
      const meant = closestName(id, [...criteria.keys()])
      throw new Error(
        `the judge returned a verdict for ${JSON.stringify(id)}, a criterion ${this.context.files.rubric?.display ?? 'rubric.json'} does not define` +
          `${meant === undefined ? '' : ` (did you mean ${JSON.stringify(meant)}?)`}`,
      )
    }
    const verdicts: Record<string, { rating: string; reason: string; answer_span: string }> = {}
    for (const criterion of task.criteria) {
      const size = verdictSize(raw[criterion.id])
      if (size > MAX_VERDICT_CHARACTERS)
        throw new Error(
          `invalid verdict for ${criterion.id}: it is ${size.toLocaleString('en-US')} characters as JSON, more than the ${MAX_VERDICT_CHARACTERS.toLocaleString('en-US')} a verdict may have`,
        )
      const parsed = safeParseReporting(VerdictSchema, raw[criterion.id])
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!
        throw new Error(`invalid verdict for ${criterion.id}${issue.path.length === 0 ? '' : ` › ${issue.path.join(' › ')}`}: ${issue.message}`)
      }
      const judgement = { rating: parsed.data.rating, reason: parsed.data.reason, answer_span: parsed.data.span ?? '' }
      // A text with no UTF-8 encoding would refuse the whole batch it is written in: it fails its own case instead.
      const malformed = malformedStringPath(judgement)
      if (malformed !== undefined)
        throw new Error(`invalid verdict for ${criterion.id} › ${malformed.join(' › ')}: the text holds a lone surrogate, which has no UTF-8 encoding`)
      // The kind's own check of a label (a span must occur in the answer): a verdict it would refuse is retried, never written.
      const checked = criteriaKind.authoring.newReview(this.context, task.parsedCase, 'review', { [criterion.id]: judgement })
      if (checked.value === undefined) throw new Error(`invalid verdict for ${criterion.id}: ${checked.problems[0]!.summary}`)
      verdicts[criterion.id] = judgement
    }
    return verdicts
  }

  /** The judge's call, given up after the run's timeout: a call that never settles must not hold the run forever. */
  private async timed<T>(call: () => T | Promise<T>): Promise<T> {
    const ms = this.options.timeoutMs ?? DEFAULT_JUDGE_TIMEOUT_MS
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no verdict within ${seconds(ms)}: the call timed out and was given up`)), ms)
    })
    try {
      return await Promise.race([Promise.resolve().then(call), timeout])
    } finally {
      clearTimeout(timer)
    }
  }

  private accept(task: Task, verdicts: Record<string, { rating: string; reason: string; answer_span: string }>): void {
    this.takeCarried([task.caseId])
    const waiting = this.waiting.get(task.caseId) ?? {}
    Object.assign(waiting, verdicts)
    this.waiting.set(task.caseId, waiting)
    this.waitingCount += task.criteria.length
    this.progress(task.criteria.length)
    const since = Date.now() - this.lastWrite
    // Each write reads the fixture again under its lock: on a large fixture, keep writing to a fraction of the run.
    if (
      this.writing === undefined &&
      (this.waitingCount >= (this.options.batchSize ?? 200) || since >= (this.options.batchMs ?? 2000)) &&
      since >= 3 * this.lastWriteTook
    ) {
      this.writing = this.write().finally(() => (this.writing = undefined))
    }
  }

  private async write(): Promise<void> {
    const batch = [...this.waiting]
    const count = this.waitingCount
    this.waiting.clear()
    this.waitingCount = 0
    const started = Date.now()
    const labels: JudgeLabelDraft[] = batch.map(([caseId, draft]) => ({
      caseId,
      draft,
      source: runSource(caseId),
      at: [],
      place: `the judge's verdicts for case "${caseId}"`,
    }))
    try {
      await recordJudgeLabels(this.dir, labels, {
        judge: this.judge,
        origin: this.options.origin,
        existing: 'merge',
        cwd: this.options.cwd,
        kinds: this.options.kinds,
        ...(this.options.io === undefined ? {} : { io: this.options.io }),
      })
      this.written += count
    } catch (error) {
      this.writeError = error
    }
    this.lastWrite = Date.now()
    this.lastWriteTook = this.lastWrite - started
    this.progress(0)
  }

  private progress(step: number): void {
    this.done += step
    const failed = this.failures.length
    this.options.onProgress?.({ total: this.total, done: this.done - failed, failed, remaining: this.total - this.done, written: this.written })
  }
}

/** `60 s`, `0.5 s`. */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3)).toLocaleString('en-US')} s`
}

/** A returned value in a message: its JSON, cut short. */
function preview(value: unknown): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > 80 ? `${text.slice(0, 79)}…` : text
}

function runSource(caseId: string): DraftSource {
  const label = `the judge's verdicts for case "${caseId}"`
  return { label, locate: (path) => formatLocation(label, path) }
}
