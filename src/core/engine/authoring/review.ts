import { checkCaseVersions, type CaseVersions } from '../case-versions.js'
import { FixtureRevision, reviseUnderLock } from '../revision.js'
import { reviewAuthor } from './authors.js'
import { drafted, refuseEmptyDraft, type DraftSource } from './draft.js'
import { describe } from './messages.js'
import type { AuthoringOptions } from './options.js'
import { stamp } from './stamp.js'
import { refuseDirectReview, refuseExistingReview } from './refusals.js'
import { reviewTarget } from './target.js'
import { writeReviews, type Destination } from './write.js'

/** Options of {@link recordReview}: which case and slot, and where the review goes. */
export interface RecordReviewOptions extends AuthoringOptions {
  readonly caseId: string
  /** The review slot (a scored case's `debate` or `baseline`); the kind's only slot when it has one. */
  readonly slot?: string | undefined
  /** Replace the case's review of that slot, if it has one: a revision, never a silent correction. */
  readonly replace: boolean
  /**
   * Record an independent review, in `reviews/<reviewer>.json`, instead of the adopted one: it
   * decides nothing until it is adjudicated, and the case does not acknowledge it.
   */
  readonly reviewer?: string | undefined
  /**
   * Record an automated judge's label, in `judges/<judge>.json`: it never decides a case and is
   * never counted as graded; `vitest-rubric calibrate` compares it with the adopted reviews.
   */
  readonly judge?: string | undefined
  /** With `judge`: the judge's file's `origin`, naming the model and the prompt's revision. */
  readonly origin?: string | undefined
  /**
   * The case's entries as the reviewer was shown them (`ReviewTarget.versions`): the review is
   * refused when one of them changed since. Without it, the review applies to the files as they are.
   */
  readonly expected?: CaseVersions | undefined
}

/** What `recordReview` recorded: the review as written, its ratings before and after, and the case's decision. */
export interface RecordedReview {
  readonly dir: string
  readonly caseId: string
  readonly slot: string
  /** The reviewer of an independent review; `undefined` for the adopted review. */
  readonly reviewer: string | undefined
  /** The judge of a judge's label; `undefined` otherwise. */
  readonly judge?: string | undefined
  /** The replaced review's summary (its ratings), or `null` when the case had none. */
  readonly before: Readonly<Record<string, string>> | null
  readonly after: Readonly<Record<string, string>>
  /**
   * The case's decision with the review: `accepted`, `pending (uncertain on support)`. For an
   * independent review, the decision that review alone would give: a reviewer never sees the others'.
   */
  readonly decision: string
  /**
   * Whether the slot reviewed is the one that decides the case (a scored case's debate review); a
   * review of another slot (its baseline) is recorded, but decides nothing by itself.
   */
  readonly decides: boolean
  /** The review as written, with its hashes. */
  readonly review: Readonly<Record<string, unknown>>
  readonly written: readonly string[]
}

/**
 * Records a review of a case: the one function behind `review` (from options, a file or a
 * terminal) and every later front end. The draft holds only what a reviewer judges (for a criteria
 * case: per criterion, the rating, the reason and the answer span); the case's id, every binding
 * hash and each criterion's reference quote are filled in. An adopted review goes to
 * `annotations.json` and the case acknowledges it; an independent review goes to the reviewer's
 * file. The review is added, or replaces the earlier one when `replace` is given; the rubric and
 * the source are never written. A draft that does not fit, a case whose own bindings are stale, or
 * a review that would be refused writes nothing.
 */
export async function recordReview(dir: string, draft: unknown, source: DraftSource, options: RecordReviewOptions): Promise<RecordedReview> {
  return reviseUnderLock(dir, options.cwd, () => recordReviewNow(dir, draft, source, options))
}

async function recordReviewNow(dir: string, draft: unknown, source: DraftSource, options: RecordReviewOptions): Promise<RecordedReview> {
  const scope = options.caseId === undefined ? undefined : [options.caseId]
  const { revision, base } = await FixtureRevision.open(options.kinds, dir, options.cwd, options.memo, scope)
  const { reviewer, judge } = reviewAuthor(base.fixture, options)
  const target = reviewTarget(base, options.caseId, options.slot, reviewer, judge)
  const { fixture, definition, context, entry, slot, existing } = target
  if (options.expected !== undefined) checkCaseVersions(fixture, entry.id, [slot], reviewer === undefined ? { adopted: true } : { reviewer }, options.expected)
  if (reviewer === undefined && judge === undefined) refuseDirectReview(target)
  refuseEmptyDraft(source, [], draft)
  refuseExistingReview(target, options.replace)
  const review = drafted(source, [], definition.authoring.reviewDraft(slot), draft, (parsed) =>
    definition.authoring.newReview(context, target.parsedCase, slot, parsed),
  )
  stamp(definition.bindings, 'review', review, context, entry.value, [slot])
  const destination: Destination =
    judge !== undefined
      ? { judge, ...(options.origin === undefined ? {} : { origin: options.origin }) }
      : reviewer === undefined
        ? { adopted: true }
        : { reviewer }
  const written = await writeReviews(revision, base, [{ target, review, destination }], source, options)
  return {
    dir: fixture.displayDir,
    caseId: entry.id,
    slot,
    reviewer,
    ...(judge === undefined ? {} : { judge }),
    before: existing === undefined ? null : definition.authoring.summarizeReview(existing.value),
    after: definition.authoring.summarizeReview(review),
    decision: describe(written.decisions[0]!),
    decides: definition.reviews.slots[0] === slot,
    review,
    written: written.files,
  }
}
