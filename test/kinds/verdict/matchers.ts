import type { KindMatchers } from '../../../src/core/contract/kind.js'
import type { VerdictDecision, VerdictRubric } from './index.js'

// How the rubric matchers read a verdict case: what keeps one pending, in the kind's words. The
// words of an item, its ratings and what failed come from the kind's panel and page.
export const verdictMatchers: KindMatchers<VerdictRubric, VerdictDecision> = {
  pending({ rubric }, decision) {
    if (decision.status !== 'pending') return ''
    if (decision.verdict === null) return `Nobody has answered "${rubric.question}" for this answer yet.`
    return `The reviewer is unsure whether the answer says yes to "${rubric.question}"; settle the verdict.`
  },
}
