import type { KindPanel, PanelItem } from '../../contract/kind.js'
import type { CriteriaDecision } from './decision.js'
import type { CriteriaRubric } from './rubric.js'
import { RATINGS, type Rating } from './schemas.js'

/**
 * Criteria reviews compared criterion by criterion, at the nominal level over `meets` and
 * `does_not_meet`; `uncertain` is a missing value for the figures and unsettled for a consensus.
 */
export const criteriaPanel: KindPanel<CriteriaRubric, CriteriaDecision> = {
  level: 'nominal',
  words: { item: 'criterion', items: 'criteria', scale: 'nominal alpha over meets / does_not_meet, uncertain missing' },
  categories: ['meets', 'does_not_meet'],
  calibration: { pass: 'meets', fail: 'does_not_meet', undecided: 'uncertain' },
  order: (context) => [...context.rubric.criteria.keys()],
  unreviewed(context, { id, split }, reason) {
    return { status: 'pending', id, split, reason, reviewed: false, ratings: {}, missing: [...context.rubric.criteria.keys()], uncertain: [], failed: [] }
  },
  items(context, decision) {
    const items: Record<string, PanelItem> = {}
    if (decision.status === 'refused') return items
    for (const criterion of context.rubric.criteria.keys()) {
      const rating = Object.hasOwn(decision.ratings, criterion) ? decision.ratings[criterion] : undefined
      if (rating !== undefined) items[criterion] = { shown: rating, value: rating === 'uncertain' ? null : rating, settled: rating !== 'uncertain' }
    }
    return items
  },
  pending(_context, decision, reason, agreed) {
    // What every reviewer rated alike stays in the ratings: a known failure is kept, not yet a rejection.
    const ratings: Record<string, Rating> = {}
    for (const [criterion, item] of Object.entries(agreed)) {
      const rating = RATINGS.find((each) => each === item.shown)
      if (rating !== undefined) ratings[criterion] = rating
    }
    return { status: 'pending', id: decision.id, split: decision.split, ratings, reason, reviewed: true, missing: [], uncertain: [], failed: [] }
  },
  refuse(_context, decision, refusal) {
    return { status: 'refused', id: decision.id, split: decision.split, reason: refusal.reason, error: refusal.error }
  },
}
