import { RevisionError } from '../../common/errors.js'
import { shellWord } from '../bindings.js'
import type { SomeFixture } from '../fixture.js'
import { slotOptionOf } from '../slot-option.js'
import type { ReviewTarget } from './target.js'

// Whether a review of a case found may be written where it would go: not straight to the adopted
// review of a case that independent reviews have, nor over an earlier review unless it replaces it.

/**
 * Refuses a review written straight to `annotations.json` for a slot that independent reviews have:
 * only an adjudication adopts a review of such a case, so that the adoption records what it resolved.
 */
export function refuseDirectReview(target: ReviewTarget): void {
  const { fixture, entry, slot, definition } = target
  const reviewers = independentReviewersOf(fixture, entry.id, slot)
  if (reviewers.length === 0) return
  const system = definition.reviews.slots.length === 1 ? '' : ` --${slotOptionOf(definition)} ${slot}`
  throw new RevisionError({
    code: 'ADJUDICATION_REQUIRED',
    file: fixture.files.annotations?.display,
    caseId: entry.id,
    summary: `case "${entry.id}" has independent reviews (${reviewers.join(', ')}), so only an adjudication adopts its review; nothing was written.`,
    expected: 'a review by a reviewer (--reviewer <name>), or an adjudication of the reviews',
    found: 'a review without --reviewer, which would decide the case with no adjudication recorded',
    hint: `adjudicate the case: \`vitest-rubric adjudicate ${shellWord(fixture.displayDir)} --case ${shellWord(entry.id)}${system} --adjudicator <name>\`, or record your own review with --reviewer <name>.`,
  })
}

/**
 * The reviewers with an independent review of the case's slot: with any, a review written straight
 * to `annotations.json` is refused (`ADJUDICATION_REQUIRED`) and only an adjudication adopts one.
 */
export function independentReviewersOf(fixture: SomeFixture, caseId: string, slot: string): string[] {
  return [...(fixture.panel.reviews.get(caseId) ?? [])].filter(([, reviews]) => reviews[slot] !== undefined).map(([name]) => name)
}

/**
 * Refuses to add a review to a case that has one already, unless `replace` is given: the same
 * refusal (exit 1, with the fix) whether the review comes from options, a file or the terminal.
 */
export function refuseExistingReview(target: ReviewTarget, replace: boolean | undefined): void {
  const { existing, definition, slot, entry, by } = target
  if (existing === undefined || replace === true) return
  throw new RevisionError({
    code: 'REVIEW_EXISTS',
    file: target.file,
    path: existing.path,
    caseId: entry.id,
    summary: `the case has ${by === undefined ? definition.reviews.slotName(slot) : `${definition.reviews.slotName(slot)} by ${by}`} already; nothing was written.`,
    // Only the adopted review is acknowledged by its case; a reviewer's review or a judge's label is revised in its own file.
    hint:
      by === undefined
        ? 'pass --replace to revise it: the old and new ratings are printed, and the case acknowledges the new revision.'
        : 'pass --replace to revise it: the old and new ratings are printed.',
  })
}
