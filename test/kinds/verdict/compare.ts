import { plural } from '../../../src/core/common/primitives.js'
import type { Decision } from '../../../src/core/contract/decision.js'
import type { KindComparison } from '../../../src/core/contract/kind.js'

// How two verdict fixtures are compared: beside the paired acceptance every kind gets, the question
// both answer, and how many decided pairs got the same verdict.

/** What a verdict comparison says of the two fixtures: the question both fixtures ask. */
export interface VerdictSharedFigures {
  readonly question: string
}

/** What a verdict comparison says of a split: the decided pairs whose two verdicts are the same. */
export interface VerdictSplitFigures {
  readonly same_verdict: { readonly pairs: number; readonly of: number }
}

const answerOf = (value: unknown): string | undefined => {
  const answer = typeof value === 'object' && value !== null && 'answer' in value ? value.answer : undefined
  const text = typeof answer === 'object' && answer !== null && 'text' in answer ? answer.text : undefined
  return typeof text === 'string' ? text : undefined
}

// It reads only the rubric's question and the decisions' status: the kind's own types stay in index.ts.
export const verdictComparison: KindComparison<{ readonly question: string }, Decision, VerdictSharedFigures, VerdictSplitFigures> = {
  leakText: answerOf,
  shared: (a) => ({ figures: { question: a.context.rubric.question }, notPaired: new Set() }),
  split: (decided) => ({
    same_verdict: { pairs: decided.filter(([x, y]) => x.status === y.status).length, of: decided.length },
  }),
  text: {
    nouns: { accepted: 'yes', rejected: 'no' },
    leaked: 'the answer',
    same: (shared) => `same verdict.json (SHA-256 ${shared.rubric_sha256}), asking ${JSON.stringify(shared.question)}`,
    notes: () => [],
    items: null,
    rows: () => [],
    line: ({ same_verdict }) =>
      same_verdict.of === 0 ? null : `the same verdict on ${same_verdict.pairs} of ${plural(same_verdict.of, 'pair')} decided in both`,
  },
}
