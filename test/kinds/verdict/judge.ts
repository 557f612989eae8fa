import { z } from 'zod'
import type { KindJudging } from '../../../src/core/contract/kind.js'

// What an automated judge of a verdict fixture is shown (the question and the answer) and how its
// verdict becomes a label: `{ rating: 'yes' | 'no' | 'unsure', reason }` on the one item, `verdict`.

const VerdictSchema = z.strictObject({ rating: z.enum(['yes', 'no', 'unsure']), reason: z.string().min(1) })

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}

const whole = (value: unknown): { verdict: string; reason: string } | undefined => {
  const { verdict, reason } = record(value)
  return typeof verdict === 'string' && typeof reason === 'string' ? { verdict, reason } : undefined
}

// It reads only the rubric's question and the case's answer: the kind's own types stay in index.ts.
export const verdictJudging: KindJudging<{ readonly question: string }, { readonly answer: { readonly text: string } }> = {
  items: ({ rubric }) => [{ id: 'verdict', shown: { id: 'verdict', question: rubric.question } }],
  input: ({ rubric }, theCase) => ({ question: rubric.question, answer: { text: theCase.answer.text }, case: theCase }),
  // A label is one judgement: the verdict and its reason.
  judgementsOf: (label) => {
    const judgement = whole(label)
    return judgement === undefined ? {} : { verdict: judgement }
  },
  redraft: whole,
  judgement: (verdict) => {
    const parsed = VerdictSchema.safeParse(verdict)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      return { problem: { path: issue.path.filter((segment) => typeof segment !== 'symbol'), message: issue.message } }
    }
    return { judgement: { verdict: parsed.data.rating, reason: parsed.data.reason } }
  },
  draft: (judgements) => record(judgements['verdict']),
}
