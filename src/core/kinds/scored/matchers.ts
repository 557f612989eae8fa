import type { KindMatchers } from '../../contract/matchers.js'
import { atLeast } from './case-rule.js'
import type { ScoredDecision } from './decision.js'
import type { ScoredRubric } from './rubric.js'

/**
 * How the rubric matchers read a scored case, in the kind's words: the rule an accepted case meets,
 * the dimensions a rejected one fails (below `per_dimension_pass`), and what keeps one pending. A
 * scored case is decided from its fixture only: its review scores a transcript, not an answer.
 */
export const scoredMatchers: KindMatchers<ScoredRubric, ScoredDecision> = {
  accepted: (_context, decision) => decision.reason,
  failed({ rubric }, decision) {
    if (decision.status !== 'rejected') return []
    const { perDimensionPass } = rubric.rules.thresholds
    return rubric.rules.dimensions.filter((name) => {
      const score = decision.card.dimensions[name]?.score
      return score !== null && score !== undefined && !atLeast(score, perDimensionPass)
    })
  },
  pending(_context, decision) {
    if (decision.status !== 'pending') return ''
    return decision.card === null ? 'Nobody has reviewed this debate.' : `A person decides this case: ${decision.reason}.`
  },
}
