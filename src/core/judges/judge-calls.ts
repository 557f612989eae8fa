// A judge run's calls: each made with a timeout and retried with backoff, each verdict checked, and the labels written in batches as they come.
import { formatLocation } from '../common/json-path.js'
import { malformedStringPath } from '../json/literals.js'
import { isObject, quoteSome } from '../common/primitives.js'
import { closestName } from '../common/suggest.js'
import type { DraftSource } from '../engine/authoring/draft.js'
import type { JudgedItem, KindContext, KindJudging, SomeKindDefinition } from '../contract/kind.js'
import { recordJudgeLabels, type JudgeLabelDraft } from './judge-labels.js'
import { MAX_VERDICT_CHARACTERS, verdictSize } from './verdict-limits.js'
import { abortion, pause } from './stoppable-wait.js'
import type { JudgeFailure, SomeRunJudgeOptions } from './judge-types.js'

/** One call to make: a case, and the criteria it judges (one for a per-criterion judge). */
export interface Task {
  readonly caseId: string
  /** What the judge is shown of the case beside its criteria, as the kind gives it. */
  readonly input: Readonly<Record<string, unknown>>
  readonly criteria: readonly JudgedItem[]
  /** The case as its kind parsed it. */
  readonly parsedCase: unknown
}

/** The kind of the fixture a run judges: its definition, its judging, and the items a judge labels. */
export interface JudgedKind {
  readonly context: KindContext<unknown>
  readonly definition: SomeKindDefinition
  readonly judging: KindJudging<unknown, unknown>
  readonly items: readonly JudgedItem[]
}

/** How long one call may take by default: 60 s. */
export const DEFAULT_JUDGE_TIMEOUT_MS = 60_000

/** A label's judgements by item, as they wait to be written. */
type Judgements = Record<string, unknown>

/** One run's calls, its verdicts waiting to be written, and its writes, one at a time. */
export class Run {
  written = 0
  /** The files written, as shown, in the order first written. */
  readonly files = new Set<string>()
  readonly failures: JudgeFailure[] = []
  interrupted = false
  private done = 0
  private readonly waiting = new Map<string, Judgements>()
  private waitingCount = 0
  /** Carried-over judgements by case, not yet among those waiting: written, but not counted as judged. */
  private readonly carried = new Map<string, Readonly<Judgements>>()
  private writing: Promise<void> | undefined
  private lastWrite = Date.now()
  private lastWriteTook = 0
  private writeError: unknown

  constructor(
    private readonly dir: string,
    private readonly judge: string,
    private readonly kind: JudgedKind,
    private readonly options: SomeRunJudgeOptions,
    private readonly total: number,
  ) {}

  /** Keeps a label's carried-over judgements, to be written with the case's first verdict, or with the run's last write. */
  carry(caseId: string, judgements: Readonly<Judgements>): void {
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
  private async call(task: Task): Promise<Judgements> {
    const { run } = this.options
    const criterion = task.criteria[0]!
    // Cast: the judge is typed against its kind's input (`JudgeItemsInput`, `JudgeItemInput` of what `KindJudging` shows), which the fixture's kind built here.
    const caseInput = () => ({ ...task.input, criteria: task.criteria.map((item) => item.shown) }) as never
    // Cast: as above, with the one item a per-item judge is shown.
    const criterionInput = () => ({ ...task.input, criterion: criterion.shown }) as never
    const raw: unknown =
      'perCase' in run ? await this.timed(() => run.perCase(caseInput())) : { [criterion.id]: await this.timed(() => run.perCriterion(criterionInput())) }
    if (!isObject(raw)) throw new Error(`the judge returned ${preview(raw)}, not verdicts by criterion id`)
    const { context, definition, judging, items } = this.kind
    const ids = items.map((item) => item.id)
    // A verdict under an id the rubric does not define is a judge that misnamed a criterion: never dropped unseen.
    for (const id of Object.keys(raw)) {
      if (ids.includes(id)) continue
      const meant = closestName(id, ids)
      throw new Error(
        `the judge returned a verdict for ${JSON.stringify(id)}, a ${definition.panel.words.item} ${context.files.rubric?.display ?? definition.files.rubric} does not define` +
          `${meant === undefined ? '' : ` (did you mean ${JSON.stringify(meant)}?)`}`,
      )
    }
    // A verdict left out is no judgement to check: say which, and what the judge owes, not the schema's "received undefined".
    const missing = task.criteria.filter(({ id }) => !Object.hasOwn(raw, id) || raw[id] === undefined).map(({ id }) => id)
    if (missing.length > 0) {
      const { item, items: itemsWord } = definition.panel.words
      throw new Error(
        'perCase' in run
          ? `the judge returned no verdict for ${quoteSome(missing)} (judgeCase must return one for every ${item} it is given, by id: ${task.criteria.map(({ id }) => id).join(', ')})`
          : `the judge returned undefined, not a verdict: its default export must return the verdict of the ${item} it is given (it is called once for each of the ${itemsWord})`,
      )
    }
    const verdicts: Judgements = {}
    for (const { id } of task.criteria) {
      const size = verdictSize(raw[id])
      if (size > MAX_VERDICT_CHARACTERS)
        throw new Error(
          `invalid verdict for ${id}: it is ${size.toLocaleString('en-US')} characters as JSON, more than the ${MAX_VERDICT_CHARACTERS.toLocaleString('en-US')} a verdict may have`,
        )
      const parsed = judging.judgement(raw[id], { judge: this.judge, caseId: task.caseId, item: id })
      if ('problem' in parsed) {
        const { path, message } = parsed.problem
        throw new Error(`invalid verdict for ${id}${path.length === 0 ? '' : ` › ${path.join(' › ')}`}: ${message}`)
      }
      const { judgement } = parsed
      // A text with no UTF-8 encoding would refuse the whole batch it is written in: it fails its own case instead.
      const malformed = malformedStringPath(judgement)
      if (malformed !== undefined)
        throw new Error(`invalid verdict for ${id} › ${malformed.join(' › ')}: the text holds a lone surrogate, which has no UTF-8 encoding`)
      // The kind's own check of a label (a span must occur in the answer): a verdict it would refuse is retried, never written.
      const checked = definition.authoring.newReview(context, task.parsedCase, 'review', judging.draft({ [id]: judgement }))
      if (checked.value === undefined) throw new Error(`invalid verdict for ${id}: ${checked.problems[0]!.summary}`)
      verdicts[id] = judgement
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

  private accept(task: Task, verdicts: Judgements): void {
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
    const labels: JudgeLabelDraft[] = batch.map(([caseId, judgements]) => ({
      caseId,
      draft: this.kind.judging.draft(judgements),
      source: runSource(caseId),
      at: [],
      place: `the judge's verdicts for case "${caseId}"`,
    }))
    try {
      const recorded = await recordJudgeLabels(this.dir, labels, {
        judge: this.judge,
        origin: this.options.origin,
        existing: 'merge',
        cwd: this.options.cwd,
        kinds: this.options.kinds,
        ...(this.options.io === undefined ? {} : { io: this.options.io }),
      })
      this.written += count
      for (const file of recorded.written) this.files.add(file)
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
