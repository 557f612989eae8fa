import { join } from 'node:path'
import { RevisionError, UsageError } from '../../common/errors.js'
import type { PathSegment } from '../../common/json-path.js'
import { quoteSome, own } from '../../common/primitives.js'
import { safeParseReporting } from '../../json/schema-error.js'
import { bindCommand, isStale } from '../bindings.js'
import { caseIndex } from '../case-index.js'
import { caseVersions, type CaseVersions } from '../case-versions.js'
import type { Decision } from '../../contract/decision.js'
import { kindContext, type SomeFixture } from '../fixture.js'
import type { CarriedOver } from '../fixture-history.js'
import { slotOptionOf } from '../slot-option.js'
import type { KindContext, SomeKindDefinition } from '../../contract/kind.js'
import { judgeFileDisplay, REVIEWS_DIR } from '../panel.js'
import type { RevisionBase } from '../revision.js'
import { indent } from './messages.js'

// Finding what a review is of: the case and its slot in a fixture as read, the review it would
// replace, and what it is checked against when it is recorded; a case that is itself refused, or
// bound to other files, is refused here.

/** What a front end shows a reviewer before asking: the case, its current review and decision, its kind's context. */
export interface ReviewTarget {
  readonly fixture: SomeFixture
  readonly definition: SomeKindDefinition
  readonly context: KindContext<unknown>
  readonly entry: SomeFixture['cases'][number]
  /** The case as its kind parsed it. */
  readonly parsedCase: unknown
  readonly slot: string
  /** The review the new one would replace: the adopted review, or the reviewer's own. */
  readonly existing: { readonly value: unknown; readonly path: readonly PathSegment[] } | undefined
  readonly decision: Decision
  /** What a review of the target replaces, as read: pass it back as `expected` when the review is recorded later. */
  readonly versions: CaseVersions
  /** The file the review goes into, as shown: `annotations.json`, `reviews/<reviewer>.json` or `judges/<judge>.json`. */
  readonly file: string
  /** Whose review it is (`alice`, `judge gpt-judge`); `undefined` for the adopted review. */
  readonly by: string | undefined
  /**
   * Of a review being replaced that is bound to earlier files: the items whose text is unchanged
   * (found in git history), which a prompt offers to carry over, each once the reviewer confirms it,
   * and what changed. Set by `openReviewTarget`; empty when nothing is known.
   */
  readonly carried?: CarriedOver
}

/**
 * @internal
 * `restamps`: the write made of this review re-stamps the case's own hashes (an adjudication), or
 * never reads them (a reviewer's or a judge's review): a stale case is no reason to refuse it.
 */
export function reviewTarget(
  base: RevisionBase,
  caseId: string,
  wantedSlot: string | undefined,
  reviewer: string | undefined,
  judge?: string,
  restamps = false,
): ReviewTarget {
  const { fixture } = base
  const definition = fixture.definition
  const context = kindContext(fixture)
  const index = caseIndex(fixture, caseId, {
    hint: 'pass the id of a case in cases.json.',
    writing: true,
    noCases: 'a case id (the fixture has no cases yet: add one with `vitest-rubric add`)',
  })
  const { slots } = definition.reviews
  const slot = wantedSlot ?? (slots.length === 1 ? slots[0] : undefined)
  if (slot === undefined || !slots.includes(slot)) {
    throw new UsageError({
      code: 'USAGE',
      file: fixture.displayDir,
      summary: wantedSlot === undefined ? 'a case of this kind has several reviews: say which one.' : `a case of this kind has no review "${wantedSlot}".`,
      expected: `one of ${quoteSome(slots)}`,
      // A kind of one review has no option naming it: the review is that one, asked for by leaving the slot out.
      hint:
        slots.length === 1
          ? 'leave the review out: a case of this kind has one.'
          : `pass --${slotOptionOf(definition)} ${slots.join(` or --${slotOptionOf(definition)} `)}.`,
    })
  }
  const entry = fixture.cases[index]!
  const assessment = base.assess(index)
  const parsedCase = safeParseReporting(definition.schemas.case, entry.value)
  if (!parsedCase.success || assessment.caseProblems.some((problem) => problem.code === 'CASE_INVALID' || problem.code === 'QUESTION_MISMATCH')) {
    throw new RevisionError({
      code: 'BIND_STILL_REFUSED',
      file: fixture.files.cases?.display,
      caseId,
      summary: `the case itself is refused, so a review of it would be too; nothing was written.\n${definition.present.refusals(assessment.decision).map(indent).join('\n')}`,
      hint: 'fix the case first.',
    })
  }
  // The case's own hashes: a review made now would be bound to files its case disowns.
  const staleCase = assessment.states.filter((state) => state.row.in === 'case' && !('reviewOf' in state.row.source) && isStale(state))
  if (staleCase.length > 0 && !restamps && reviewer === undefined && judge === undefined) {
    throw new RevisionError({
      code: staleCase[0]!.row.code,
      file: fixture.files.cases?.display,
      path: staleCase[0]!.path,
      caseId,
      summary: `the case is bound to other revisions of the files (${staleCase.map((state) => state.row.meaning).join('; ')}), so a review made now would contradict its own case; nothing was written.`,
      hint: `see what changed with \`vitest-rubric status ${fixture.displayDir}\`; once the case is right for the files as they are, run \`${bindCommand(fixture.displayDir, caseId)}\`, then review it.`,
    })
  }
  // A reviewer sees their own earlier review, never the adopted one or another reviewer's: the review is blind.
  const review =
    judge !== undefined
      ? fixture.judges.reviews.get(caseId)?.get(judge)?.[slot]
      : reviewer === undefined
        ? fixture.reviews.get(caseId)?.[slot]
        : fixture.panel.reviews.get(caseId)?.get(reviewer)?.[slot]
  return {
    fixture,
    definition,
    context,
    entry,
    parsedCase: parsedCase.data,
    slot,
    existing: review === undefined ? undefined : { value: review.value, path: review.path },
    decision: assessment.decision,
    versions: caseVersions(fixture, caseId, [slot], reviewer === undefined ? { adopted: true } : { reviewer }),
    file:
      judge !== undefined
        ? judgeFileDisplay(fixture, judge)
        : reviewer === undefined
          ? fixture.files.annotations.display
          : (own(fixture.panel.files, reviewer)?.display ?? join(fixture.displayDir, REVIEWS_DIR, `${reviewer}.json`)),
    by: reviewer ?? (judge === undefined ? undefined : `judge ${judge}`),
  }
}
