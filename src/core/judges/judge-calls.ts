// A judge run's calls: each made with a timeout and retried with backoff, each verdict checked, and the labels written in batches as they come.
import { z } from 'zod'
import { formatLocation } from '../common/json-path.js'
import { malformedStringPath } from '../json/literals.js'
import { isObject } from '../common/primitives.js'
import { closestName } from '../common/suggest.js'
import { safeParseReporting } from '../json/schema-error.js'
import type { CriteriaRubric } from '../kinds/criteria/rubric.js'
import { RatingSchema, type Case, type Criterion } from '../kinds/criteria/schemas.js'
import { criteriaKind } from '../kinds/criteria/index.js'
import type { DraftSource } from '../engine/authoring/draft.js'
import type { KindContext } from '../contract/kind.js'
import { recordJudgeLabels, type JudgeLabelDraft } from './judge-labels.js'
import { MAX_REASON_CHARACTERS, MAX_VERDICT_CHARACTERS, verdictSize } from './verdict-limits.js'
import { abortion, pause } from './stoppable-wait.js'
import type { JudgeFailure, JudgeCriterionInput, RunJudgeOptions } from './judge-types.js'
import { checkedConfidence, type JudgedCriterion } from './judge-confidence.js'

/** One call to make: a case, and the criteria it judges (one for a per-criterion judge). */
export interface Task {
  readonly caseId: string
  readonly input: Omit<JudgeCriterionInput, 'criterion'>
  readonly criteria: readonly Criterion[]
  readonly parsedCase: Case
}

/** How long one call may take by default: 60 s. */
export const DEFAULT_JUDGE_TIMEOUT_MS = 60_000

const VerdictSchema = z.strictObject({
  rating: RatingSchema,
  reason: z
    .string()
    .trim()
    .min(1, { error: 'a non-empty reason' })
    .max(MAX_REASON_CHARACTERS, { error: `a reason of at most ${MAX_REASON_CHARACTERS.toLocaleString('en-US')} characters` }),
  span: z.string().optional(),
  // Checked on its own (judge-confidence.ts), so that its refusal names the judge, the case, the criterion and the value.
  confidence: z.unknown().optional(),
})

/** One run's calls, its verdicts waiting to be written, and its writes, one at a time. */
export class Run {
  written = 0
  readonly failures: JudgeFailure[] = []
  interrupted = false
  private done = 0
  private readonly waiting = new Map<string, Record<string, JudgedCriterion>>()
  private waitingCount = 0
  /** Carried-over judgements by case, not yet among those waiting: written, but not counted as judged. */
  private readonly carried = new Map<string, Record<string, JudgedCriterion>>()
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
  carry(caseId: string, judgements: Record<string, JudgedCriterion>): void {
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
  private async call(task: Task): Promise<Record<string, JudgedCriterion>> {
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
    const verdicts: Record<string, JudgedCriterion> = {}
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
      const confidence = checkedConfidence(parsed.data.confidence, { judge: this.judge, caseId: task.caseId, criterion: criterion.id })
      const judgement: JudgedCriterion = {
        rating: parsed.data.rating,
        reason: parsed.data.reason,
        answer_span: parsed.data.span ?? '',
        ...(confidence === undefined ? {} : { confidence }),
      }
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

  private accept(task: Task, verdicts: Record<string, JudgedCriterion>): void {
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
