import type { Readable, Writable } from 'node:stream'
import type { AdjudicationResult, AdjudicationView } from '../../core/engine/adjudicate.js'
import type { RecordedReview } from '../../core/engine/authoring/review.js'
import type { ReviewTarget } from '../../core/engine/authoring/target.js'

/** The terminal a prompt reads keys from and draws on. */
export interface Terminal {
  readonly input: Readable
  readonly output: Writable
}

/** Records a draft (a dry run first, to show the decision), as the command would from options. */
export type RecordDraft = (draft: unknown, dryRun: boolean) => Promise<RecordedReview>

/** An interactive review of one case: the recorded review, or `cancelled` with nothing written. */
export type InteractiveReview = (target: ReviewTarget, terminal: Terminal, record: RecordDraft) => Promise<RecordedReview | 'cancelled'>

/** What an adjudicator chose: a reviewer's whole review, an item from a reviewer each, judgements written. */
export interface AdjudicationChoice {
  readonly take?: string
  readonly picks?: Readonly<Record<string, string>>
  readonly written?: Readonly<Record<string, unknown>>
}

/** Adopts a choice (a dry run first, to show the decision). */
export type AdoptChoice = (choice: AdjudicationChoice, preview: boolean) => Promise<AdjudicationResult>

/** An interactive adjudication of one case: what was adopted, or `cancelled` with nothing written. */
export type InteractiveAdjudication = (view: AdjudicationView, terminal: Terminal, adopt: AdoptChoice) => Promise<AdjudicationResult | 'cancelled'>
