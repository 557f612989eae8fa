// What a judge module and the caller of a judge run see: the inputs a judge is called with, the
// verdict it returns, the options of a run and its result. Types only. The judge types are generic
// over the kind (what `KindJudging` shows a judge and takes back), their defaults the criteria kind's.
import type { WriteIo } from '../json/atomic-write.js'
import type { Case, Criterion, Rating, Rubric } from '../kinds/criteria/schemas.js'
import type { KindRegistry } from '../engine/registry.js'
import type { inShard, JudgeShard } from './judge-shard.js'

/**
 * What a judge called once per item of a case is shown, for a fixture of any kind: the kind's input
 * for the case (`KindJudging.input`) and the item to judge under `criterion` (`JudgedItem.shown`).
 * For the criteria kind it is {@link JudgeCriterionInput}.
 */
export type JudgeItemInput<CaseInput extends object, Item> = CaseInput & { readonly criterion: Item }

/**
 * What a judge called once per case is shown, for a fixture of any kind: the kind's input for the
 * case (`KindJudging.input`) and the items still to judge under `criteria`, in the rubric's order.
 * For the criteria kind it is {@link JudgeCaseInput}.
 */
export type JudgeItemsInput<CaseInput extends object, Item> = CaseInput & { readonly criteria: readonly Item[] }

/** What a judge is shown of one criterion of one case of a criteria fixture. */
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

/** What a judge called once per case of a criteria fixture is shown: every criterion still to judge for that case. */
export interface JudgeCaseInput extends Omit<JudgeCriterionInput, 'criterion'> {
  /** The criteria to judge, in the rubric's order: those without a current label. */
  readonly criteria: readonly Criterion[]
}

/** A judge's verdict on one criterion of a criteria fixture: what the criteria kind's `KindJudging.judgement` takes. */
export interface JudgeVerdict {
  readonly rating: Rating
  /** Why: for an omission, the requirement the answer leaves out. Not empty; at most 4,000 characters, and the whole verdict at most 32,000 as JSON. */
  readonly reason: string
  /**
   * An exact excerpt of the answer the rating rests on.
   * @default "" (an omission)
   */
  readonly span?: string | undefined
  /**
   * The judge's probability, from 0 to 1, that its rating is right: recorded with the label, it is
   * what `vitest-rubric sample --method active` draws by. Anything else fails the call
   * (`JUDGE_CONFIDENCE_INVALID`).
   * @default none
   */
  readonly confidence?: number | undefined
}

/**
 * A judge called once per case × criterion (item): the default export of a judge module. Its input
 * and verdict default to the criteria kind's; a judge of another kind's fixture is a
 * `CriterionJudge<JudgeItemInput<CaseInput, Item>, Verdict>`, in that kind's types.
 */
export type CriterionJudge<Input = JudgeCriterionInput, Verdict = JudgeVerdict> = (input: Input) => Verdict | Promise<Verdict>

/**
 * A judge called once per case, returning a verdict for each criterion (item) asked, by its id: a
 * module's `judgeCase` export. A verdict under an id the rubric does not define refuses the call.
 * Its input and verdict default to the criteria kind's; a judge of another kind's fixture is a
 * `CaseJudge<JudgeItemsInput<CaseInput, Item>, Verdict>`, in that kind's types.
 */
export type CaseJudge<Input = JudgeCaseInput, Verdict = JudgeVerdict> = (
  input: Input,
) => Readonly<Record<string, Verdict>> | Promise<Readonly<Record<string, Verdict>>>

/**
 * A module `vitest-rubric judge --run` loads: a default export judging one criterion, or a
 * `judgeCase` export judging a case. Its types default to the criteria kind's.
 */
export interface JudgeModule<ItemInput = JudgeCriterionInput, CaseInput = JudgeCaseInput, Verdict = JudgeVerdict> {
  readonly default?: CriterionJudge<ItemInput, Verdict>
  readonly judgeCase?: CaseJudge<CaseInput, Verdict>
  /** Named in the judge file's `origin`, before the module and its version: the model, the prompt's revision. */
  readonly description?: string
}

/** The judge a run calls: per criterion or per case. Its types default to the criteria kind's. */
export type JudgeFunction<ItemInput = JudgeCriterionInput, CaseInput = JudgeCaseInput, Verdict = JudgeVerdict> =
  | { readonly perCriterion: CriterionJudge<ItemInput, Verdict> }
  | { readonly perCase: CaseJudge<CaseInput, Verdict> }

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

/** Options of {@link runJudge}; the judge's types default to the criteria kind's. */
export interface RunJudgeOptions<ItemInput = JudgeCriterionInput, CaseInput = JudgeCaseInput, Verdict = JudgeVerdict> {
  /** Paths in messages are shown relative to this directory. */
  readonly cwd: string
  /** The kinds the directory may hold: the registry of the front end that starts from it. */
  readonly kinds: KindRegistry
  /** The judge's name: its labels go to `judges/<judge>.json`. */
  readonly judge: string
  readonly run: JudgeFunction<ItemInput, CaseInput, Verdict>
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

/**
 * A run's options as the runner holds them, for a judge of any kind: the fixture's `KindJudging`
 * builds the judge's input and checks its verdicts, so the runner needs neither type.
 */
export type SomeRunJudgeOptions = RunJudgeOptions<never, never, unknown>

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
   * The files the run wrote, as shown, in the order first written: the judge's file, or in the
   * records layout the record files its labels were appended to. Empty when it wrote nothing.
   */
  readonly files: readonly string[]
  /**
   * Pairs of a per-criterion judge's stale labels carried over without a call: the label was bound
   * to an earlier rubric found in git, and the criterion's rule and reference quote are unchanged.
   * They are re-bound to the rubric as it is, and the judge file's `origin` says so.
   */
  readonly carried: number
  /**
   * Cases of a per-criterion judge whose stale labels were bound to an earlier rubric that the
   * repository, a shallow clone, does not hold: nothing of them was carried over, and every
   * criterion of theirs is judged again. 0 in a full clone.
   */
  readonly shallowHistory: number
  readonly failures: readonly JudgeFailure[]
  /** Cases that cannot be labelled as they are (malformed, another question), with why. */
  readonly skipped: readonly { readonly caseId: string; readonly reason: string }[]
  /** The run was stopped before it finished: what it finished is written. */
  readonly interrupted: boolean
  readonly dryRun: boolean
}
