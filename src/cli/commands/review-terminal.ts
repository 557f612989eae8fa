import type { Terminal } from '../../core/contract/terminal.js'
import { RevisionError } from '../../core/common/errors.js'
import type { DraftSource } from '../../core/engine/authoring/draft.js'
import { openReviewTarget } from '../../core/engine/authoring/open-target.js'
import { refuseExistingReview } from '../../core/engine/authoring/refusals.js'
import { recordReview, type RecordedReview } from '../../core/engine/authoring/review.js'
import type { KindRegistry } from '../../core/engine/registry.js'
import { slotOptionOf } from '../../core/engine/slot-option.js'
import { usage } from '../command.js'
import { keepDraft } from '../drafts.js'

/** What a review on a terminal is of, and where it is recorded. */
export interface TerminalReviewOptions {
  readonly caseId: string
  readonly slot: string | undefined
  readonly reviewer: string | undefined
  readonly replace: boolean
  readonly cwd: string
  readonly dryRun: boolean
  /** The kinds the directory may hold: the command passes the shipped ones. */
  readonly kinds: KindRegistry
}

const promptSource: DraftSource = { label: 'the review', locate: (path) => `the review of ${path.map(String).join(' › ') || 'the case'}` }

/**
 * One case reviewed on a terminal by its kind's own prompt (`terminal.review` of its definition):
 * the questions, the decision, and the review written after confirmation. A kind without a prompt
 * is a usage error that says to pass the review as a file. When the case changes while the questions
 * are answered, what was typed is kept in a draft file, named in the refusal.
 */
export async function reviewOnTerminal(dir: string, options: TerminalReviewOptions, terminal: Terminal): Promise<RecordedReview | 'cancelled'> {
  const { caseId } = options
  const target = await openReviewTarget(options.kinds, dir, caseId, options.slot, options.cwd, options.reviewer)
  const prompts = target.definition.terminal
  if (prompts === undefined) throw usage('review', `a ${target.fixture.kind} review is recorded from a file: pass --from <review.json>.`)
  refuseExistingReview(target, options.replace)
  let typed: unknown
  return prompts
    .review(target, terminal, (draft, dryRun) => {
      typed = draft
      return recordReview(dir, draft, promptSource, { ...options, expected: target.versions, dryRun: dryRun || options.dryRun })
    })
    .catch(async (error: unknown) => {
      // The case changed while the questions were answered: on a terminal, what was typed would be lost with the refusal.
      if (!(error instanceof RevisionError) || error.code !== 'CASE_CHANGED_MEANWHILE' || typed === undefined) throw error
      const named = [
        ...(options.slot === undefined ? [] : [`--${slotOptionOf(target.fixture.definition)}`, options.slot]),
        ...(options.reviewer === undefined ? [] : ['--reviewer', options.reviewer]),
      ]
      const command = ['vitest-rubric', 'review', dir, '--case', caseId, ...named, '--replace']
      const names = named.filter((word) => !word.startsWith('--'))
      throw await keepDraft(error, { dir, caseId, names, command, draft: typed }, options.cwd)
    })
}
