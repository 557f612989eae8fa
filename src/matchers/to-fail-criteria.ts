import { preview } from '../core/common/errors.js'
import { decideReceived, usage, type Decided } from './inputs.js'
import {
  decisionDetails,
  decisionHint,
  failEitherWay,
  failedItems,
  fixFor,
  itemRatings,
  paragraphs,
  printIds,
  ratingsDiff,
  ratingWords,
  statusLine,
  type MatcherContext,
  type MatcherOutcome,
} from './format.js'

/**
 * `expect(case).toFailCriteria(['support'])`, `expect(answer).toFailCriteria(['support'], rubric, { review })`:
 * after every binding and provenance check, a completed review rejects the answer on exactly these
 * criteria (the items of its kind: a criteria fixture's criteria), in any order — the assertion for
 * a contrast answer that isolates one criterion.
 *
 * `.not` passes for a completed review that fails other criteria, or none. A pending answer is
 * not rejected yet (its known `does_not_meet` ratings are not a rejection) and a refused one is
 * an error: both fail with and without `.not`.
 */
export function toFailCriteria(this: MatcherContext, received: unknown, criteria: unknown, ...args: unknown[]): MatcherOutcome {
  const expected = criterionIds(criteria)
  const decided = decideReceived('toFailCriteria', received, args)
  const { decision, context, definition } = decided
  const hint = decisionHint(this, 'toFailCriteria', decided.form, true)
  if (decision.status === 'refused' || context === undefined) {
    return failEitherWay(this, () => paragraphs(hint, statusLine(decided), decisionDetails(decided), fixFor(decided)))
  }
  // A typo in a criterion id must not read as a mismatch (nor pass under .not).
  const inOrder = definition.panel.order(context)
  checkKnown(expected, inOrder, decided)
  const { items } = definition.panel.words
  if (decision.status === 'pending') {
    return failEitherWay(this, () =>
      paragraphs(
        hint,
        statusLine(decided),
        decisionDetails(decided),
        `toFailCriteria compares the failed ${items} of a completed review, with or without .not; a pending review has none yet.`,
        fixFor(decided),
      ),
    )
  }
  const failed = decision.status === 'rejected' ? failedItems(decided) : []
  const pass = failed.length === expected.length && expected.every((item) => failed.includes(item))
  const words = ratingWords(definition)
  const expectedRatings = words === undefined ? undefined : Object.fromEntries(inOrder.map((item) => [item, expected.includes(item) ? words.fail : words.pass]))
  return {
    pass,
    message: () =>
      paragraphs(
        hint,
        statusLine(decided),
        pass
          ? `It fails exactly ${printIds(this, failed, 'received')}: .not.toFailCriteria passes only when the failed ${items} differ.`
          : `Expected failed ${items}: ${printIds(
              this,
              inOrder.filter((item) => expected.includes(item)),
              'expected',
            )}\nReceived failed ${items}: ${printIds(this, failed, 'received')}`,
        !pass && expectedRatings !== undefined && ratingsDiff(this, expectedRatings, itemRatings(decided)),
        decision.status === 'rejected' && decisionDetails(decided),
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

function checkKnown(expected: readonly string[], known: readonly string[], { definition, context }: Decided): void {
  const unknown = expected.filter((item) => !known.includes(item))
  if (unknown.length > 0) {
    throw usage(
      'toFailCriteria',
      `${context?.files.rubric?.display ?? 'the rubric'} defines no ${definition.panel.words.item} ${unknown.map((item) => JSON.stringify(item)).join(', ')}.`,
      `ids among ${known.map((item) => JSON.stringify(item)).join(', ')}`,
      preview(expected),
    )
  }
}
