import type { Split } from '../../common/primitives.js'
import type { KindContext, RuleInput, SlotOutcome } from '../../contract/kind.js'
import { summarizeCard, type ScoreCard } from './case-rule.js'
import type { BaselineOutcome, ScoredDecision } from './decision.js'
import type { ScoredRubric } from './rubric.js'
import { scoreBaselineCase, scoreDebateCase } from './score-card.js'
import type { BaselineReview, DebateReview, ScoredCase } from './schemas.js'

/**
 * The decision rule of a scored fixture. The case's status is the debate system's: its card under
 * the per-case rule (pass, fail, or manual review, which is pending), pending without a review,
 * refused when the case or its debate review fails a check. The baseline is scored beside it and
 * feeds only the baseline comparison: a refused baseline review refuses the baseline, not the case.
 */
export function decideScored(context: KindContext<ScoredRubric>, input: RuleInput<ScoredCase, DebateReview | BaselineReview>): ScoredDecision {
  const { id, split } = input
  const { rules } = context.rubric
  if (input.case.status === 'refused') {
    const refused = { reason: input.case.reason, error: input.case.error }
    return { status: 'refused', id, split, ...refused, baseline: { status: 'refused', ...refused } }
  }
  const theCase = input.case.value
  const debate = input.slots['debate']
  const baselineSlot = input.slots['baseline']
  const baseline = baselineOutcome(baselineSlot, (review) => scoreBaselineCase({ spec: theCase.spec, review }, rules))
  const base = { id, split, baseline }
  if (debate === undefined || debate.status === 'absent') return { status: 'pending', ...base, reason: 'no review', card: null }
  if (debate.status === 'refused') return { status: 'refused', ...base, reason: debate.reason, error: debate.error }
  // Cast: the debate slot's review was parsed by the debate review schema (schemas.review('debate')).
  const card = scoreDebateCase({ spec: theCase.spec, output: theCase.outputs.debate, review: debate.review as DebateReview }, rules)
  return decideCard(context, base, card)
}

function baselineOutcome(slot: SlotOutcome<DebateReview | BaselineReview> | undefined, score: (review: BaselineReview) => ScoreCard): BaselineOutcome {
  if (slot === undefined || slot.status === 'absent') return { status: 'not_reviewed' }
  if (slot.status === 'refused') return { status: 'refused', reason: slot.reason, error: slot.error }
  // Cast: the baseline slot's review was parsed by the baseline review schema (schemas.review('baseline')).
  return { status: 'scored', card: score(slot.review as BaselineReview) }
}

function decideCard(context: KindContext<ScoredRubric>, base: { id: string; split: Split; baseline: BaselineOutcome }, card: ScoreCard): ScoredDecision {
  const reason = summarizeCard(card, context.rubric.rules)
  switch (card.verdict) {
    case 'pass':
      return { status: 'accepted', ...base, reason, card }
    case 'fail':
      return { status: 'rejected', ...base, reason, card }
    case 'manual_review':
      return { status: 'pending', ...base, reason, card }
  }
}
