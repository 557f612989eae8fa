import type { BoundRubric } from '../core/kinds/criteria/rubric.js'
import { preview } from '../core/common/errors.js'
import { decideReceived, usage } from './inputs.js'
import {
  decisionDetails,
  decisionHint,
  failEitherWay,
  fixFor,
  paragraphs,
  printIds,
  ratingsDiff,
  statusLine,
  type MatcherContext,
  type MatcherOutcome,
} from './format.js'

/**
 * `expect(case).toFailCriteria(['support'])`, `expect(answer).toFailCriteria(['support'], rubric, { review })`:
 * after every binding and provenance check, a completed review rejects the answer on exactly these
 * criteria, in any order — the assertion for a contrast answer that isolates one criterion.
 *
 * `.not` passes for a completed review that fails other criteria, or none. A pending answer is
 * not rejected yet (its known `does_not_meet` ratings are not a rejection) and a refused one is
 * an error: both fail with and without `.not`.
 */
export function toFailCriteria(this: MatcherContext, received: unknown, criteria: unknown, ...args: unknown[]): MatcherOutcome {
  const expected = criterionIds(criteria)
  const decided = decideReceived('toFailCriteria', received, args)
  const { decision, bound } = decided
  const hint = decisionHint(this, 'toFailCriteria', decided.form, true)
  if (decision.status === 'refused' || bound === undefined) {
    return failEitherWay(this, () => paragraphs(hint, statusLine(decided), decisionDetails(decision), fixFor(decided)))
  }
  // A typo in a criterion id must not read as a mismatch (nor pass under .not).
  checkKnown(expected, bound)
  if (decision.status === 'pending') {
    return failEitherWay(this, () =>
      paragraphs(
        hint,
        statusLine(decided),
        decisionDetails(decision),
        'toFailCriteria compares the failed criteria of a completed review, with or without .not; a pending review has none yet.',
        fixFor(decided),
      ),
    )
  }
  const failed = decision.status === 'rejected' ? decision.failed.map((item) => item.criterion) : []
  const pass = failed.length === expected.length && expected.every((criterion) => failed.includes(criterion))
  const inOrder = [...bound.rubric.criteria.keys()]
  const expectedRatings = Object.fromEntries(inOrder.map((criterion) => [criterion, expected.includes(criterion) ? 'does_not_meet' : 'meets']))
  return {
    pass,
    message: () =>
      paragraphs(
        hint,
        statusLine(decided),
        pass
          ? `It fails exactly ${printIds(this, failed, 'received')}: .not.toFailCriteria passes only when the failed criteria differ.`
          : `Expected failed criteria: ${printIds(
              this,
              inOrder.filter((criterion) => expected.includes(criterion)),
              'expected',
            )}\nReceived failed criteria: ${printIds(this, failed, 'received')}`,
        !pass && ratingsDiff(this, expectedRatings, decision.ratings),
        decision.status === 'rejected' && decisionDetails(decision),
      ),
  }
}

function criterionIds(criteria: unknown): string[] {
  const ids: string[] = Array.isArray(criteria) ? criteria.filter((item): item is string => typeof item === 'string' && item !== '') : []
  const valid = Array.isArray(criteria) && criteria.length > 0 && ids.length === criteria.length && new Set(ids).size === ids.length
  if (!valid) {
    throw usage(
      'toFailCriteria',
      'the criteria are not a list of distinct criterion ids.',
      "a non-empty list of criterion ids, e.g. ['support']",
      preview(criteria),
    )
  }
  return ids
}

function checkKnown(expected: readonly string[], bound: BoundRubric): void {
  const unknown = expected.filter((criterion) => !bound.rubric.criteria.has(criterion))
  if (unknown.length > 0) {
    throw usage(
      'toFailCriteria',
      `${bound.files.rubric?.display ?? 'the rubric'} defines no criterion ${unknown.map((criterion) => JSON.stringify(criterion)).join(', ')}.`,
      `ids among ${[...bound.rubric.criteria.keys()].map((criterion) => JSON.stringify(criterion)).join(', ')}`,
      preview(expected),
    )
  }
}
