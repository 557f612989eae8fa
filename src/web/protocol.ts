// The review page's wire protocol: every JSON shape the server sends and the page reads, and the
// one body the page sends (its save: save-protocol.ts). Types only, importing nothing but its own parts, so that both sides compile against it:
// the server's builders (page-data.ts, compare-data.ts, report.ts, routes/) return these types
// and the page (client/) reads them, so a field renamed on one side fails the build of the other.
// Where the server sends one of the engine's reports whole (agreement, calibration),
// the shape here is the part the page reads: the engine's report must still be assignable to it.

import type { PageEstimate, PageSampleProgress } from './estimate-protocol.js'

/** A case's decision status, as every kind decides it. */
export type Status = 'accepted' | 'rejected' | 'pending' | 'refused'

/** How many cases a fixture (or one split of it) holds, and how they are decided. */
export interface Counts {
  readonly candidates: number
  readonly graded: number
  readonly pending: number
  readonly refused: number
  /** `null` when no case was graded: zero completed reviews are not a quality figure. */
  readonly outcomes: { readonly accepted: number; readonly rejected: number; readonly rate: number; readonly interval: readonly [number, number] } | null
}

/** A fixture's review coverage, and each split's: counts only, since the lists of pending and refused cases would make every answer grow with the fixture. */
export interface Coverage extends Counts {
  readonly splits: Readonly<Record<string, Counts>>
}

/** One item's agreement between the independent reviewers (`agreement --json`'s item). */
export interface ItemAgreement {
  readonly alpha: number | null
  readonly alpha_ci: readonly [number, number] | null
  readonly reason: string | null
  readonly units: number
  readonly disagreements: readonly string[]
}

export interface Agreement {
  readonly reviewers: readonly string[]
  readonly items: Readonly<Record<string, ItemAgreement>>
}

/** One item's calibration of a judge against the adopted reviews (`calibrate --json`'s item). */
export interface ItemCalibration {
  readonly n: number
  readonly kappa: number | null
  readonly kappa_ci: readonly [number, number] | null
  readonly kappa_reason: string | null
  readonly failure_recall: number | null
  readonly false_accepts: readonly string[]
}

export interface Calibration {
  readonly judges: Readonly<
    Record<
      string,
      {
        readonly origin: string
        readonly cases: number
        readonly stale: number
        readonly criteria: Readonly<Record<string, ItemCalibration>>
        readonly predictions: { readonly pending: number; readonly accepted: number; readonly rejected: number }
      }
    >
  >
}

/**
 * What the page needs of a fixture's kind to draw its cases, as the kind's definition says it: the
 * page hard-codes no kind's name and no rating.
 */
export interface KindView {
  /** `form`: a card per item, reviewed and adjudicated on the page; `table`: read-only, the kind's table and the decision. */
  readonly view: 'form' | 'table'
  /** The ratings a reviewer gives an item, in the order of the keys 1, 2, 3…; empty for a kind not rated on the page. */
  readonly ratings: readonly string[]
  /** The rating an item passes with; `null` for a kind without one. */
  readonly passing: string | null
  /** What an item is called, one and many: `criterion`, `criteria`. */
  readonly item: string
  readonly items: string
  /** What the page says of a case whose decision gives no reason: `every criterion meets`. */
  readonly noReason: string
}

/** One case in the overview's list, with what the filters look at. */
export interface CaseRow {
  readonly id: string
  readonly split: string
  readonly status: Status
  /** As the CLI words it. */
  readonly reason: string
  /** Why a pending case waits: `no review`, `missing criteria`, `reviewers disagree`, … */
  readonly waiting: string | null
  /** Some recorded hash of the case or its review no longer matches its file. */
  readonly stale: boolean
  readonly disagreement: boolean
  /** The items rated as failing. */
  readonly failed: readonly string[]
  /** The items the item filter finds the case by: failing, undecided or not judged. */
  readonly flagged: readonly string[]
  /** The answer's text, for search. */
  readonly text: string
}

/** A gate's check of a fixture, as the run decides it: passed, failed, or todo while it has no figure (report-gates.ts). */
export interface GateCheck {
  readonly name: string
  readonly status: 'passed' | 'failed' | 'todo'
  readonly message: string
}

/** The overview of one fixture: its figures, which do not depend on a run, and a row per case. */
export interface PageFixture {
  readonly index: number
  readonly dir: string
  readonly name: string
  readonly kind: string
  /** Who or what made the judgements (`annotations.json › origin`); `null` while it is not given. */
  readonly origin: string | null
  /** How the page draws the kind's cases. */
  readonly page: KindView
  readonly coverage: Coverage
  readonly agreement: Agreement | null
  readonly calibration: Calibration | null
  /** Each split's judge-assisted acceptance rate, for a fixture with a review sample and a judge; `null` otherwise, and for a blind reviewer. */
  readonly estimate: PageEstimate | null
  /** How far the review of the fixture's sample has come (counts only, for every viewer); `null` without a sample. */
  readonly sample: PageSampleProgress | null
  /** The reviewers with independent reviews: with any, the page reviews blind. */
  readonly reviewers: readonly string[]
  /** The criteria (or dimensions) a case is judged on, in the rubric's order. */
  readonly criteria: readonly string[]
  readonly cases: readonly CaseRow[]
  /** SHA-256 over the fixture's files: the page compares it to see a fixture edited on disk. */
  readonly version: string
  /** The static report only: the outcome of every gate that checks the fixture. */
  readonly gates?: readonly GateCheck[]
}

/** A fixture that could not be loaded: its directory and the refusal, as the CLI words it. */
export interface RefusedFixture {
  readonly index: number
  readonly dir: string
  readonly refused: string
  readonly version: null
}

export type FixtureEntry = PageFixture | RefusedFixture

/** `GET /api/overview`. */
export interface OverviewAnswer {
  readonly fixtures: readonly FixtureEntry[]
}

/** One criterion of a case as the review page shows it, with the judgement of the review shown. */
export interface PageCriterion {
  readonly criterion: string
  readonly marker: number
  readonly rule: string
  readonly referenceQuote: string
  /** Where the reference quote occurs in the source, `[start, end)` in UTF-16 units; `null` when it does not. */
  readonly quoteAt: readonly [number, number] | null
  readonly rating: string | null
  readonly reason: string | null
  readonly answerSpan: string | null
  readonly spanAt: readonly [number, number] | null
}

/** A criterion's card: the criterion and the judgement shown, and what its form starts from. */
export interface PageCriterionCard extends PageCriterion {
  /**
   * What the form is pre-filled with: the shown review's judgement; `carried` when it was made on
   * earlier files and is saved only once the reviewer confirms it. `null` starts the form empty.
   */
  readonly prefill: { readonly rating: string; readonly reason: string; readonly answerSpan: string; readonly carried: boolean } | null
  /** What keeps the independent reviewers from agreeing on the criterion, in words; `null` when they agree, or for a blind reviewer. */
  readonly dispute: string | null
}

/** One judgement of a review, side by side with the others'. */
export interface PageJudgement {
  readonly rating: string
  readonly reason: string
  readonly answer_span: string
}

/** A reviewer's judgements of a case, side by side with the others'. */
export interface PageReviewer {
  readonly reviewer: string
  readonly decision: string
  readonly judgements: Readonly<Record<string, PageJudgement>>
}

/**
 * An automated judge's label of a case, as the adjudication view shows it: a prediction beside
 * the reviews, never adopted by itself. A stale label is named, without its judgements.
 */
export type PageJudgeHint =
  | {
      readonly judge: string
      readonly origin: string
      readonly current: true
      /** What the label alone would decide, as the reviewers' decisions are shown. */
      readonly prediction: string
      readonly judgements: Readonly<Record<string, PageJudgement>>
    }
  | { readonly judge: string; readonly origin: string; readonly current: false; readonly reason: string }

/** A read-only table of a case (a scored case's dimensions beside its baseline's). */
export interface PageTable {
  readonly caption: string
  readonly head: readonly string[]
  /** Each row's cells; `low` marks a row the page shows as a weak one. */
  readonly rows: readonly { readonly cells: readonly string[]; readonly low: boolean }[]
}

/** A binding of the case or its review, and whether it still holds. */
export interface PageBinding {
  readonly location: string
  readonly stale: boolean
  readonly meaning: string
  readonly recorded: string | null
  readonly current: string
}

/** A binding as a read-only view shows it: the static report sends no hashes. */
export type ShownBinding = Pick<PageBinding, 'location' | 'stale' | 'meaning'>

/** What a save of a case replaces, as read: each file's SHA-256, `null` for one not there yet. Sent back with the save. */
export type CaseVersions = Readonly<Record<string, string | null>>

/** `GET /api/case`: one case, as the viewer may see it. */
export interface PageCase {
  readonly fixture: number
  readonly id: string
  readonly split: string
  readonly kind: string
  readonly question: string | null
  readonly answer: string | null
  readonly citation: string | null
  readonly source: string | null
  readonly criteria: readonly PageCriterionCard[]
  readonly table: PageTable | null
  /** As `evaluate --json` shows it. */
  readonly decision: { readonly status: Status; readonly reason: string } & Readonly<Record<string, unknown>>
  /** The refusal's message as the CLI words it; `null` for a case not refused. */
  readonly refusal: string | null
  readonly bindings: readonly PageBinding[]
  /** Whose judgements `criteria` shows: the adopted review, or the viewing reviewer's own. */
  readonly shows: 'adopted' | 'own'
  /** The independent reviews side by side; `hidden` until a blind viewer's own review of the case is complete. */
  readonly reviewers: readonly PageReviewer[] | 'hidden'
  /** The judges' labels of the case, as hints; empty for a blind reviewer and in the static report. */
  readonly judges: readonly PageJudgeHint[]
  /** A review exists where a save would write: saving replaces it. */
  readonly existing: boolean
  /** The viewing reviewer's own review is bound to earlier files: the case is refused, and the form revises the review. */
  readonly revisable: boolean
  /** For a reader: the case has independent reviews, so only an adjudication adopts its review. */
  readonly adjudicationOnly: boolean
  readonly versions: CaseVersions
}

/** One judgement of a draft, as a save sends it. */
export interface DraftJudgement {
  readonly rating: string
  readonly reason: string
  readonly answer_span: string
}

/** `GET /api/version`: each served fixture's version, `null` for one refused. */
export interface VersionAnswer {
  readonly versions: readonly (string | null)[]
}

/** The data of a `changed` event on `GET /api/events`: which fixture changed, nothing of what. */
export interface ChangedEvent {
  readonly fixture: number
}

/** Every refused request's answer, with the HTTP status of its code. */
export interface ErrorAnswer {
  readonly error: { readonly code: string; readonly message: string }
}

/** One side of a task in the comparison view: its decision in that fixture, and the criteria it failed. */
export interface CompareSide {
  readonly status: Status
  readonly reason: string
  readonly failed: readonly string[]
}

/** A task of the comparison view's table: both systems' decisions, discordant pairs first. */
export interface CompareTask {
  readonly id: string
  readonly split: string
  /** `null`: the case is in the other fixture only. */
  readonly a: CompareSide | null
  readonly b: CompareSide | null
  /** A decided pair the systems disagree on: which way. */
  readonly discordant: 'a_accepted_b_rejected' | 'b_accepted_a_rejected' | null
}

/** One split's figures as the comparison view shows them, worded as `vitest-rubric compare` words them. */
export interface CompareSection {
  readonly split: string
  readonly standing: 'result' | 'development'
  /** The development label, or `null` for held-out cases. */
  readonly label: string | null
  readonly coverage: string
  /** `result: B − A = …` (held-out) or `development figures: …`. */
  readonly difference: string
  /** `worst case for B: …`: the undecided pairs counted against B; `null` when every pair is decided. */
  readonly worstCase: string | null
  /** Each system's rate with its interval; `null` without a decided pair. */
  readonly rates: string | null
  /** The paired 2×2 table; `null` without a decided pair. */
  readonly table: { readonly both: number; readonly a_only: number; readonly b_only: number; readonly neither: number } | null
  readonly leaks: readonly string[]
  /** Per criterion (criteria fixtures with decided pairs): the row `compare` prints, under {@link PageComparison.itemHead}. */
  readonly criteria: readonly { readonly criterion: string; readonly cells: readonly string[] }[]
  /** The mean score line (scored fixtures). */
  readonly scores: string | null
  /** With `serve --judge`: the judge-assisted (PPI++) lines of B − A over every paired task, as `compare --judge` prints them; `null` otherwise. */
  readonly judgeAssisted: readonly string[] | null
}

/** `GET /api/compare`: the comparison view of two served fixtures, and each task's two decisions. */
export interface PageComparison {
  readonly kind: string
  readonly a: { readonly fixture: number; readonly name: string; readonly dir: string; readonly cases: number }
  readonly b: { readonly fixture: number; readonly name: string; readonly dir: string; readonly cases: number }
  /** What the two fixtures share, byte for byte. */
  readonly same: string
  readonly notes: readonly string[]
  /** The words of each decision: accepted and rejected, or passed and failed (scored). */
  readonly nouns: { readonly accepted: string; readonly rejected: string }
  /** The head of each section's per-item table. */
  readonly itemHead: readonly string[]
  readonly sections: readonly CompareSection[]
  readonly tasks: readonly CompareTask[]
}

/** What every case of a fixture shows alike, written once per fixture in the static report. */
export interface ReportShared {
  readonly source: string | null
  readonly criteria: readonly Pick<PageCriterion, 'criterion' | 'marker' | 'rule' | 'referenceQuote' | 'quoteAt'>[]
}

/** The static report's first data block: the overview, what each fixture's cases share, and the gates set. */
export interface ReportData {
  readonly fixtures: readonly FixtureEntry[]
  readonly shared: Readonly<Record<string, ReportShared>>
  /** The gates the project's Vitest config sets: the file (`null`: none found, no gate set) and what each requires. */
  readonly gates: { readonly config: string | null; readonly requirements: readonly string[] }
}

/** A case of the static report's second block (keyed `<fixture>/<id>`): the case less what its fixture shares. */
export interface ReportCase extends Omit<PageCase, 'source' | 'criteria' | 'bindings'> {
  /** Only when it is not the fixture's shared one. */
  readonly source?: string | null
  readonly criteria: readonly Pick<PageCriterion, 'rating' | 'reason' | 'answerSpan' | 'spanAt'>[]
  readonly bindings: readonly ShownBinding[]
}

/** The answers of assignment's routes (`serve --team`): kept in their own file, part of the one protocol. */
export type { AssignmentsAnswer, NextAnswer, NextReason, ReleaseAnswer } from './assignment-protocol.js'
export type { PageEstimate, PageSampleProgress, PageSplitEstimate, RateRange } from './estimate-protocol.js'
