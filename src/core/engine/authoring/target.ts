import { join } from 'node:path'
import { RevisionError, UsageError } from '../../common/errors.js'
import type { PathSegment } from '../../common/json-path.js'
import { quoteSome } from '../../common/primitives.js'
import { safeParseReporting } from '../../json/schema-error.js'
import { bindCommand, isStale, shellWord } from '../bindings.js'
import { caseIndex } from '../case-index.js'
import { caseVersions, type CaseVersions } from '../case-versions.js'
import type { Decision } from '../decision.js'
import { kindContext, type SomeFixture } from '../fixture.js'
import { carriedOver, fixtureHistory, type CarriedOver } from '../fixture-history.js'
import { slotOptionOf } from '../slot-option.js'
import type { KindContext, SomeKindDefinition } from '../../contract/kind.js'
import { judgeFileDisplay, REVIEWS_DIR } from '../panel.js'
import type { KindRegistry } from '../registry.js'
import { FixtureRevision, type RevisionBase } from '../revision.js'
import { checkReviewer, refuseCaseTwin } from './authors.js'
import { indent } from './messages.js'

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

/** Opens a fixture and finds the case (and slot) to review, refusing what cannot be reviewed now. */
export async function openReviewTarget(
  kinds: KindRegistry,
  dir: string,
  caseId: string,
  slot: string | undefined,
  cwd: string,
  reviewer?: string,
): Promise<ReviewTarget> {
  // A judge's labels come from its own run (--from, --rating): there is no interactive judge.
  const { base } = await FixtureRevision.open(kinds, dir, cwd)
  const name = reviewer === undefined ? undefined : checkReviewer(reviewer, '--reviewer')
  refuseCaseTwin(base.fixture, name, REVIEWS_DIR, '--reviewer')
  const target = reviewTarget(base, caseId, slot, name)
  if (reviewer === undefined) refuseDirectReview(target)
  if (target.existing === undefined) return target
  const existing = { ...target.existing, slot: target.slot, file: target.file }
  return { ...target, carried: carriedOver(base.fixture, target.entry, existing, await fixtureHistory(base.fixture, [existing])) }
}

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
      hint: `pass --${slotOptionOf(definition)} ${slots.join(` or --${slotOptionOf(definition)} `)}.`,
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
          : (fixture.panel.files[reviewer]?.display ?? join(fixture.displayDir, REVIEWS_DIR, `${reviewer}.json`)),
    by: reviewer ?? (judge === undefined ? undefined : `judge ${judge}`),
  }
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
    hint: 'pass --replace to revise it: the old and new ratings are printed, and the case acknowledges the new revision.',
  })
}
