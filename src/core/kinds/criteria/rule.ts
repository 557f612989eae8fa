import type { Split } from '../../common/primitives.js'
import type { KindContext, RuleInput } from '../../contract/kind.js'
import type { CriteriaDecision, JudgedCriterion, PendingDecision } from './decision.js'
import type { CriteriaRubric } from './rubric.js'
import type { Case, Rating, Review } from './schemas.js'

/**
 * The decision rule of a criteria fixture, once the case and its review passed every check. It is
 * pending-first: a missing review, a criterion without a judgement or an `uncertain` rating keeps
 * the case pending before any `does_not_meet` can reject it; then any `does_not_meet` rejects and
 * all `meets` accepts. A refused case or review is refused, never decided.
 */
export function decideCriteria(context: KindContext<CriteriaRubric>, input: RuleInput<Case, Review>): CriteriaDecision {
  const { id, split } = input
  if (input.case.status === 'refused') return { status: 'refused', id, split, reason: input.case.reason, error: input.case.error }
  const slot = input.slots['review']
  if (slot === undefined || slot.status === 'absent') return pending(id, split, {}, false, [...context.rubric.criteria.keys()], [], [])
  if (slot.status === 'refused') return { status: 'refused', id, split, reason: slot.reason, error: slot.error }
  return applyCriteriaRule(context.rubric, slot.review, id, split)
}

/** The all-criteria rule applied to a review whose bindings and excerpts hold. */
export function applyCriteriaRule(rubric: CriteriaRubric, review: Review, id: string, split: Split): CriteriaDecision {
  const ratings: Record<string, Rating> = {}
  // Made on the first entry: an accepted case (most of them) needs none of the three.
  let missing: string[] | undefined
  let uncertain: JudgedCriterion[] | undefined
  let failed: JudgedCriterion[] | undefined
  for (const [criterionId, criterion] of rubric.criteria) {
    // Own keys only: a criterion named "constructor" or "toString" must not find Object.prototype's.
    const judgement = Object.hasOwn(review.judgements, criterionId) ? review.judgements[criterionId] : undefined
    if (judgement === undefined) {
      missing ??= []
      missing.push(criterionId)
      continue
    }
    ratings[criterionId] = judgement.rating
    if (judgement.rating === 'meets') continue
    const judged: JudgedCriterion = {
      criterion: criterionId,
      rule: criterion.rule,
      reason: judgement.reason,
      referenceQuote: judgement.reference_quote,
      answerSpan: judgement.answer_span,
    }
    if (judgement.rating === 'uncertain') {
      uncertain ??= []
      uncertain.push(judged)
    } else {
      failed ??= []
      failed.push(judged)
    }
  }
  // The pending guard: nothing incomplete or uncertain may reach the accept/reject rule.
  if (missing !== undefined || uncertain !== undefined) return pending(id, split, ratings, true, missing ?? [], uncertain ?? [], failed ?? [])
  if (failed !== undefined) return { status: 'rejected', id, split, ratings, reason: failed.map((item) => item.criterion).join(', '), failed }
  return { status: 'accepted', id, split, ratings, reason: '' }
}

export function pending(
  id: string,
  split: Split,
  ratings: Record<string, Rating>,
  reviewed: boolean,
  missing: readonly string[],
  uncertain: readonly JudgedCriterion[],
  failed: readonly JudgedCriterion[],
): PendingDecision {
  return { status: 'pending', id, split, ratings, reason: pendingReason(reviewed, missing, uncertain), reviewed, missing, uncertain, failed }
}

/** `no review`, `missing criterion verification`, `missing criteria a, b; uncertain on support`. */
export function pendingReason(reviewed: boolean, missing: readonly string[], uncertain: readonly JudgedCriterion[]): string {
  if (!reviewed) return 'no review'
  const parts: string[] = []
  if (missing.length > 0) parts.push(`missing ${missing.length === 1 ? 'criterion' : 'criteria'} ${missing.join(', ')}`)
  if (uncertain.length > 0) parts.push(`uncertain on ${uncertain.map((item) => item.criterion).join(', ')}`)
  return parts.join('; ')
}
