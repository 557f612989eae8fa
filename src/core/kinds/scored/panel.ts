import type { KindPanel, PanelItem } from '../../contract/kind.js'
import type { ScoredDecision } from './decision.js'
import { formatFigure } from './dimensions/score.js'
import type { ScoredRubric } from './rubric.js'

/**
 * Scored reviews compared dimension by dimension, on the debate system's scores (which decide the
 * case), at the interval level; N/A is a missing value. Every score is settled.
 */
export const scoredPanel: KindPanel<ScoredRubric, ScoredDecision> = {
  level: 'interval',
  words: { item: 'dimension', items: 'dimensions', scale: 'interval alpha over the scores, N/A missing' },
  categories: [],
  calibration: {
    uncalibrated: {
      summary: "calibration compares ratings (meets, does_not_meet, uncertain); a scored fixture is scored, and its judges' labels are not calibrated.",
      hint: 'calibrate a judge on a criteria fixture.',
      check: "a scored fixture's judges are not calibrated",
    },
  },
  order: (context) => context.rubric.rules.dimensions,
  unreviewed(_context, { id, split }, reason) {
    return { status: 'pending', id, split, reason, card: null, baseline: { status: 'not_reviewed' } }
  },
  items(_context, decision) {
    const items: Record<string, PanelItem> = {}
    if (decision.status === 'refused' || decision.card === null) return items
    for (const [dimension, result] of Object.entries(decision.card.dimensions)) {
      items[dimension] = { shown: result.score === null ? 'N/A' : formatFigure(result.score), value: result.score, settled: true }
    }
    return items
  },
  pending(_context, decision, reason) {
    return { status: 'pending', id: decision.id, split: decision.split, reason, card: null, baseline: decision.baseline }
  },
  refuse(_context, decision, refusal) {
    // The baseline is scored beside the case as before: a stale adoption refuses the debate system's decision.
    return { status: 'refused', id: decision.id, split: decision.split, reason: refusal.reason, error: refusal.error, baseline: decision.baseline }
  },
}
