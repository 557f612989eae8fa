import type { Readable, Writable } from 'node:stream'
import type { RecordedReview, ReviewTarget } from '../../core/engine/authoring.js'
import type { FixtureKind } from '../../core/kinds/index.js'
import { promptCriteriaReview } from './criteria-review.js'

/** The terminal a prompt reads keys from and draws on. */
export interface Terminal {
  readonly input: Readable
  readonly output: Writable
}

/** Records a draft (a dry run first, to show the decision), as the command would from options. */
export type RecordDraft = (draft: unknown, dryRun: boolean) => Promise<RecordedReview>

/** An interactive review of one case: the recorded review, or `cancelled` with nothing written. */
export type InteractiveReview = (target: ReviewTarget, terminal: Terminal, record: RecordDraft) => Promise<RecordedReview | 'cancelled'>

/**
 * The interactive review of each kind; `undefined` for a kind whose reviews are too structured to
 * ask for one question at a time (a scored review's claims), which is recorded from a file.
 */
export const INTERACTIVE_REVIEW: Readonly<Record<FixtureKind, InteractiveReview | undefined>> = {
  criteria: promptCriteriaReview,
  scored: undefined,
}
