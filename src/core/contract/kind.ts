// The kind contract: what a kind definition is (its files, schemas, binding table, decision rule,
// presentation, authoring, panel and page), and what the engine hands its functions. Types only: it
// imports no engine module, so the engine and every kind compile against it without a circle.
import type { z } from 'zod'
import type { Colors } from '../common/colors.js'
import type { RubricErrorDetails, SerializedRubricError } from '../common/errors.js'
import type { PathSegment } from '../common/json-path.js'
import type { Split } from '../common/primitives.js'
import type { RawFile } from '../json/read.js'
import type { KindPage } from '../../web/kind-page.js'
import type { BindingRow, BindingTarget } from './bindings.js'
import type { KindComparison } from './compare.js'
import type { KindJudging } from './judge.js'
import type { KindTerminal } from './terminal.js'
import type { KindMatchers } from './matchers.js'
import type { CaseAt, KindContext } from './context.js'
import type { Decision } from './decision.js'
import type { FileRole } from './files.js'
import type { EvaluationJson, PlannedCase, PlannedCaseDetail, PlannedCheck } from './results.js'

export type { BindingRow, BindingSource, BindingTarget } from './bindings.js'
export type { CaseAt, KindContext } from './context.js'
export type { ComparedItemRow, ComparedSide, CompareParameters, KindComparison, KindComparisonText } from './compare.js'
export type { JudgedItem, KindJudging, VerdictProblem } from './judge.js'
export type {
  AdjudicationChoice,
  AdoptChoice,
  AdoptedChoice,
  InteractiveAdjudication,
  InteractiveReview,
  KindTerminal,
  RecordDraft,
  RecordedDraft,
  Terminal,
  TerminalAdjudicationView,
  TerminalTarget,
} from './terminal.js'
export type { AnswerDecided, KindAnswerForm, KindMatchers, MatcherCall, ReceivedReview } from './matchers.js'
export type { FileRole, FixtureFile } from './files.js'

/** A file's JSON Schema: the file it is named after, the zod schema it is generated from, how an editor titles it. */
export interface JsonSchemaSource {
  /** `rubric.schema.json`. */
  readonly name: string
  readonly schema: z.ZodType
  readonly title: string
  readonly description: string
}

/** One problem found in a case or a review: a refusal when it stands alone, one line among others when not. */
export type Problem = RubricErrorDetails

/** What became of one review slot of a case once its review was checked. */
export type SlotOutcome<V> =
  | { readonly status: 'reviewed'; readonly review: V }
  | { readonly status: 'absent' }
  | { readonly status: 'refused'; readonly reason: string; readonly error: SerializedRubricError }

/** The input of a kind's decision rule: the case, checked or refused, and the outcome of each review slot. */
export interface RuleInput<C, V> {
  readonly id: string
  readonly split: Split
  /** The case as parsed, or the refusal of the case as a whole (then every slot is moot). */
  readonly case:
    | { readonly status: 'checked'; readonly value: C }
    | { readonly status: 'refused'; readonly reason: string; readonly error: SerializedRubricError }
  readonly slots: Readonly<Record<string, SlotOutcome<V>>>
}

/** A review as the kind's provenance check sees it: as written, and as parsed when its format holds. */
export interface ReviewUnderCheck<V> {
  readonly value: unknown
  readonly parsed: V | undefined
  readonly path: readonly PathSegment[]
  readonly slot: string
  /** The file that holds the review, as shown: `annotations.json`, or a reviewer's or a judge's own file. */
  readonly file: string
}

/** How `status` names a group of cases and what it asks a reviewer to do. */
export interface StatusGroup {
  readonly title: string
  /** What to do; `{dir}` stands for the fixture directory. */
  readonly action: string
}

/** A pending case as `status` lists it: in which group, and why. */
export interface PendingFinding {
  readonly group: string
  readonly detail: string
}

/** How a kind names its outcomes in reports. */
export interface OutcomeWords {
  readonly positive: string
  readonly negative: string
  readonly graded: string
  readonly pending: string
}

/** The files `init` writes for a new fixture of a kind, and the rubric files a copy takes. */
export interface KindScaffold {
  /** The skeleton's rubric (and source) files, by name, for a fixture called `name`. */
  readonly skeleton: ((name: string, schema: (file: string) => string) => Readonly<Record<string, string>>) | undefined
  /** The files a copy of an existing rubric takes, byte for byte. */
  readonly rubricFiles: readonly string[]
  /** The empty cases and annotations documents; `schema` gives the reference to a JSON Schema file. */
  emptyCases(name: string, schema: (file: string) => string): Readonly<Record<string, unknown>>
  emptyAnnotations(schema: (file: string) => string): Readonly<Record<string, unknown>>
  /** The commands, one line each, that add a first case to a new fixture in `dir` and review it: what `init` suggests next. */
  nextSteps(dir: string): readonly string[]
}

/**
 * One kind of fixture, defined once: its files, schemas, binding table, decision rule and summary.
 * The engine does everything else (reading, envelopes, duplicate ids, reviews of unknown cases,
 * identities, coverage, the test plan, the decision record, status and bind) once for every kind.
 *
 * - `R`: the bound rubric (validated, with its revision);
 * - `C`: a case as parsed; `V`: a review as parsed;
 * - `D`: the kind's decisions; `S`: its fixture-level summary.
 */
export interface KindDefinition<R, C, V, D extends Decision, S> {
  /** The kind's name: `criteria`, `scored`. Loaded fixtures, records and `evaluate --json` carry it. */
  readonly name: string
  /** One line for listings. */
  readonly description: string
  /** The file of each role, by name; the `rubric` file marks the kind. */
  readonly files: { readonly rubric: string; readonly cases: string; readonly annotations: string; readonly source?: string }

  /** Validates the rubric (and its source) and binds them to their bytes. Throws a `FixtureError`. */
  bindRubric(files: { readonly rubric: RawFile; readonly source?: RawFile }): R

  readonly schemas: {
    /** `cases.json` as a whole, each case left to its own check (every case needs a string id). */
    readonly casesEnvelope: z.ZodType
    /** A review file as a whole, each review left to its own check. */
    readonly annotationsEnvelope: z.ZodType
    readonly case: z.ZodType<C>
    /** The review of each slot. */
    review(slot: string): z.ZodType<V>
    /** The hint of a malformed case and review: their shape in words. */
    readonly caseHint: string
    reviewHint(slot: string): string
    readonly casesHint: string
    readonly annotationsHint: string
    /** The JSON Schemas editors validate each file against, generated from these zod schemas. */
    readonly jsonSchemas: readonly JsonSchemaSource[]
  }

  /** How reviews name their case, and which slot of it they fill. */
  readonly reviews: {
    /** The key of a review that holds its case's id: `answer_id`, `case_id`. */
    readonly caseKey: string
    /** The review slots of a case, in order: `['review']`, or one per system. */
    readonly slots: readonly [string, ...string[]]
    /** The key of a review that names its slot, when a case has more than one: `system`. */
    readonly slotKey?: string
    /** The command-line option that names the slot a review or an adjudication is for (`system`, for `--system debate`), when a case has more than one. */
    readonly slotOption?: string
    /** What a second review of one slot is called in a message: `a review`, `a debate review`. */
    slotName(slot: string): string
  }

  /** The split of a case (as written, or the file's), before the case is checked. */
  splitOf(caseValue: unknown, casesDocument: unknown): Split

  /** Every recorded hash of a case and its reviews: evaluation, `status` and `bind` read this table. */
  readonly bindings: readonly BindingRow[]
  /** How `status` names each binding target and what it asks before `bind` (which `status` adds). */
  readonly targets: Readonly<Record<BindingTarget, StatusGroup>>

  /** The kind's own checks of a case beyond its format (the question it asks, duplicate ids within it). */
  checkCase(context: KindContext<R>, theCase: C, at: CaseAt): readonly Problem[]
  /** The kind's provenance checks of a review: its excerpts and references against the case and rubric. */
  checkReview(context: KindContext<R>, theCase: C, review: ReviewUnderCheck<V>, at: CaseAt): readonly Problem[]

  /** The decision rule: the case, checked, and the outcome of each review slot become a decision. */
  decide(context: KindContext<R>, input: RuleInput<C, V>): D
  /** The fixture-level figures of the decisions (a benchmark's gates); `null` when the kind has none. */
  summarize(context: KindContext<R>, decisions: readonly D[], options: SummaryOptions): S

  readonly present: KindPresentation<R, D, S>
  readonly scaffold: KindScaffold
  readonly authoring: KindAuthoring<R, C>
  readonly panel: KindPanel<R, D>
  readonly page: KindPage<R, D>
  /** How two fixtures of the kind are compared (`vitest-rubric compare`); a kind without one cannot be compared. */
  readonly compare?: KindComparison<R, D>
  /** What an automated judge that `judge --run` calls is shown, and how its verdicts become labels; a kind without one is labelled by `review --judge` only. */
  readonly judging?: KindJudging<R, C>
  /** How a case is reviewed and adjudicated on a terminal, its prompts loaded when asked; a kind without one is reviewed from options or a file. */
  readonly terminal?: KindTerminal<R, C>
  /** How the rubric matchers word the kind's decisions, and its answer form; a kind without it is not decided by `toMeetRubric` and the others. */
  readonly matchers?: KindMatchers<R, D>
}

/** What one reviewer's review says of one item it judges (a criterion, a dimension). */
export interface PanelItem {
  /** As a reader sees it: `meets`, `uncertain`, `0.5`, `N/A`. */
  readonly shown: string
  /** What agreement figures compare; `null` for a missing value (`uncertain`, N/A). */
  readonly value: string | number | null
  /** Whether the judgement is final: `uncertain` is not, and keeps a consensus from being adopted. */
  readonly settled: boolean
}

/**
 * How a kind's reviews are compared when several reviewers review a case independently: the items
 * each review judges and at which level agreement is measured, and the pending decision of a case
 * whose independent reviews are not adopted yet.
 */
export interface KindPanel<R, D> {
  /** Krippendorff's alpha over the items' values: `nominal` (ratings) or `interval` (scores). */
  readonly level: 'nominal' | 'interval'
  /** What an item is called (`criterion`, `dimension`), in the plural (the key of `agreement --json`), and the scale its alpha is over, in words. */
  readonly words: { readonly item: string; readonly items: string; readonly scale: string }
  /** The categories of a nominal item (`meets`, `does_not_meet`), for AC1 and kappa; empty for interval. */
  readonly categories: readonly string[]
  /** Every item a review can judge, in the rubric's order: the order agreement reports them in. */
  order(context: KindContext<R>): readonly string[]
  /** The items of a review, from the decision the review alone gives the case. */
  items(context: KindContext<R>, decision: D): Readonly<Record<string, PanelItem>>
  /** A pending decision, for a case whose reviews wait for an adjudication, keeping what its reviewers agree on. */
  pending(context: KindContext<R>, decision: D, reason: string, agreed: Readonly<Record<string, PanelItem>>): D
  /**
   * A refused decision, for a case the several-reviewer rule refuses (a stale adoption), made from
   * the decision its adopted review gives: the kind builds it, so its presentation can read it.
   */
  refuse(context: KindContext<R>, decision: D, refusal: { readonly reason: string; readonly error: SerializedRubricError }): D
  /** A pending decision of a case that has no review of the one reviewer asked about (what a blind reviewer sees before reviewing it). */
  unreviewed(context: KindContext<R>, at: { readonly id: string; readonly split: Split }, reason: string): D
  /**
   * How automated judges' labels are calibrated against the adopted reviews: the two ratings a
   * reviewer's judgement settles on and the judge's undecided one, or, for a kind whose labels are
   * not calibrated (scores), what `calibrate` and a judge gate say instead.
   */
  readonly calibration: CalibrationRatings | { readonly uncalibrated: { readonly summary: string; readonly hint: string; readonly check: string } }
}

/** The ratings a judge's labels are calibrated on: the rows of its confusion matrix are `pass` and `fail`, its columns those and `undecided`. */
export interface CalibrationRatings {
  /** `meets`. */
  readonly pass: string
  /** `does_not_meet`: a judge's `pass` for it is a false accept. */
  readonly fail: string
  /** `uncertain`: a column of its own, never in agreement. */
  readonly undecided: string
}

/**
 * A problem of a draft (a new case, or a review as a reviewer or a judge gives it), at a path
 * inside the draft: the front end that took the draft names the place (`--span verification`,
 * `review.json › verification › answer_span`, or a question asked again).
 */
export interface DraftProblem {
  readonly path: readonly PathSegment[]
  readonly summary: string
  readonly expected?: string | undefined
  readonly found?: string | undefined
  readonly hint: string
}

/** What a draft became: the entry to write (its binding hashes left for the engine to stamp), or what is wrong with it. */
export type Drafted =
  | { readonly value: Readonly<Record<string, unknown>>; readonly problems: readonly [] }
  | { readonly value?: undefined; readonly problems: readonly DraftProblem[] }

/**
 * How a kind's cases and reviews are written by a command rather than by hand: the drafts it
 * takes and the entries it makes of them. The engine stamps every binding hash from the binding
 * table, writes the files and decides the result before anything is written.
 */
export interface KindAuthoring<R, C> {
  /** The fields of a new case, as `add` takes them (from options or a file). */
  readonly caseDraft: z.ZodType
  /** A case from its draft, keys in the format's order; its hashes are stamped after. */
  newCase(context: KindContext<R>, draft: unknown): Drafted
  /** The body of a review of a slot, without its case's id or any hash. */
  reviewDraft(slot: string): z.ZodType
  /** A review from its draft for a checked case, keys in the format's order; its hashes are stamped after. */
  newReview(context: KindContext<R>, theCase: C, slot: string, draft: unknown): Drafted
  /** A review as a short summary, one entry per item judged (`{ command: 'meets' }`), to show a revision's old and new ratings. */
  summarizeReview(review: unknown): Readonly<Record<string, string>>
  /** A review back as the draft it was made from (what was judged, without ids and hashes): an adjudication starts from it. */
  draftOf(review: unknown): Record<string, unknown>
  /** Whether a draft is keyed by item (criterion), so an adjudication can take each item from a different reviewer. */
  readonly draftByItem: boolean
}

/** A file revision a stale hash of a review was recorded against, and what the file's history holds of it. */
export interface EarlierRevision {
  readonly role: FileRole
  /** The SHA-256 the review recorded. */
  readonly sha256: string
  /** The committed revision with that SHA-256, and the file as it is now; `undefined` when the history does not have it (or there is no git). */
  readonly found: { readonly commit: string; readonly bytes: Uint8Array; readonly current: Uint8Array } | undefined
}

/** What a kind says of a stale binding of a review: one clause for `status`, its JSON, and the items whose judgement still reads the same text. */
export interface StaleChange {
  /** `since 1a2b3c4: rule of support reworded; command, … unchanged`. */
  readonly text: string
  /** What `status --json` carries beside the finding's detail. */
  readonly json: Readonly<Record<string, unknown>>
  /**
   * Items (criteria) of the review whose text did not change: a reviewer may confirm their
   * judgements as they are. Empty when nothing is known of the earlier revision. Nothing re-binds
   * them without a confirmation.
   */
  readonly unchanged: readonly string[]
}

/**
 * A kind definition seen from outside its kind: what a registry, a fixture of a kind not known
 * where it is read, and a front end hold. Every `KindDefinition<R, C, V, D, S>` is one, since its
 * hooks are methods (whose parameters the checker compares both ways); what its hooks take is
 * then `unknown` and what they give a bare {@link Decision}, so the code that holds one can only
 * hand a kind back what the same kind gave it.
 */
export type SomeKindDefinition = KindDefinition<unknown, unknown, unknown, Decision, unknown>

/** What a fixture-level summary asks beyond the decisions: the seed of its intervals, and how a margin gate reads them. */
export interface SummaryOptions {
  readonly seed: number | string
  /** `'lower-bound'` makes a margin gate compare the lower bound of its interval, not only the point estimate. */
  readonly marginGate: 'point' | 'lower-bound'
}

/** How a kind's decisions and summary are shown: in tests, as JSON, in text. */
export interface KindPresentation<R, D extends Decision, S> {
  /** The rubric and its revision, as records name it: `staging-rollback-explanation@1`. */
  rubricName(context: KindContext<R>): string
  /** What a case test carries beyond its status: ratings or scores, and its failure message. */
  plannedCase(decision: D, context: KindContext<R>): PlannedCaseDetail
  /** SomeFixture-level tests (a benchmark gate) from the summary. */
  checks(summary: S, context: KindContext<R>): readonly PlannedCheck[]
  /** A decision as `evaluate --json` shows it, beyond `status`, `split` and `reason`. */
  decisionJson(decision: D): Readonly<Record<string, unknown>>
  /** The summary as `evaluate --json` shows it, under its own key; `undefined` for none. */
  summaryJson(summary: S): { readonly key: string; readonly value: unknown } | undefined
  /** Why a pending case is pending, for `status`. */
  pendingFindings(decision: D): readonly PendingFinding[]
  /** Every refusal message a decision carries: its own, and any its kind adds (a refused baseline review). */
  refusals(decision: D): readonly string[]
  /** Findings beyond the case's own status (a scored case's baseline review). */
  extraFindings(decision: D): readonly PendingFinding[]
  /**
   * What a stale binding of a target means for a review: the criteria a rubric revision affects,
   * say. `earlier` holds each file revision the review's stale hashes were recorded against, with
   * its bytes when the file's history (git) has them; without them a kind can only say what the
   * review itself tells. `status` prints its text, `status --json` carries its JSON, and `review
   * --replace`, the page and a judge's run read its `unchanged` items.
   */
  staleDetail?(target: BindingTarget, context: KindContext<R>, review: unknown, earlier: readonly EarlierRevision[]): StaleChange | undefined
  /** The pending groups of `status`, in order. */
  readonly pendingGroups: Readonly<Record<string, StatusGroup>>
  readonly words: OutcomeWords
  /** The body of `evaluate`'s report, after the fixture's name, origin and review coverage. */
  evaluationLines(json: EvaluationJson): readonly string[]
  /** The kind's lines in the reporter's block (failures by criterion, a benchmark section). */
  reportLines(cases: readonly PlannedCase[], summary: S, colors: Colors): readonly string[]
  /** The same for the Markdown job summary. */
  markdownLines(name: string, summary: S): readonly string[]
  /** One case for `show`: what was judged and how, as data and as text for a reader. */
  showCase(context: KindContext<R>, caseValue: unknown, reviews: Readonly<Record<string, unknown>>, colors: Colors): CaseShown
}

/** A case as `show` prints it, beside the bindings and the decision the engine adds. */
export interface CaseShown {
  readonly json: Readonly<Record<string, unknown>>
  readonly lines: readonly string[]
}
