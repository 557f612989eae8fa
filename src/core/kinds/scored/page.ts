import type { KindPage } from '../../../web/kind-page.js'
import { isForkReason } from '../../common/fork-reason.js'
import type { ScoredDecision } from './decision.js'
import { baselineJson, cardJson } from './present.js'
import type { ScoredRubric } from './rubric.js'

/** A scored case on the review page: read-only, each dimension's score and why beside the baseline's, the whole decision under it. */
export const scoredPage: KindPage<ScoredRubric, ScoredDecision> = {
  view: 'table',
  ratings: [],
  row(context, _caseValue, decision) {
    // A scored decision has no ratings: every dimension of a case not refused counts as not rated.
    return { failed: [], uncertain: [], missing: decision.status === 'refused' ? [] : [...context.rubric.rules.dimensions], text: '' }
  },
  waiting(decision) {
    if (isForkReason(decision.reason)) return 'forked'
    if (decision.reason === 'no review') return 'no review'
    return decision.reason.startsWith('manual review') ? 'manual review' : 'other'
  },
  caseView: () => ({ question: null, answer: null, citation: null, source: null, criteria: [] }),
  judgements: () => ({}),
  table(decision) {
    const json = cardJson(decision.status === 'refused' ? null : decision.card)
    const { scores } = json
    if (scores === null) return null
    const details: Readonly<Record<string, string>> = json.details ?? {}
    const baseline = baselineJson(decision.baseline)
    const baselineScores = 'scores' in baseline ? baseline.scores : undefined
    const score = (value: number | null | undefined) => (value === null ? 'N/A' : value === undefined ? '—' : String(value))
    return {
      caption: `scores: ${json.verdict ?? ''}, mean ${json.mean ?? '—'}`,
      head: ['dimension', 'score', 'why', `baseline (${('verdict' in baseline ? baseline.verdict : null) ?? baseline.status})`],
      rows: Object.entries(scores).map(([dimension, value]) => ({
        cells: [dimension, score(value), details[dimension] ?? '', score(baselineScores?.[dimension])],
        low: value !== null && value < 0.5,
      })),
    }
  },
}
