// What an automated judge of a criteria fixture is shown (the question, the answer, the source, the
// rubric and each criterion) and how its verdict on a criterion becomes a judgement of its label.
import { z } from 'zod'
import { isConfidence } from '../../common/confidence.js'
import { isObject } from '../../common/primitives.js'
import type { KindJudging } from '../../contract/kind.js'
import { safeParseReporting } from '../../json/schema-error.js'
import { checkedConfidence, type JudgedCriterion } from '../../judges/judge-confidence.js'
import { MAX_REASON_CHARACTERS } from '../../judges/verdict-limits.js'
import type { CriteriaRubric } from './rubric.js'
import { RatingSchema, type Case } from './schemas.js'

const VerdictSchema = z.strictObject({
  rating: RatingSchema,
  reason: z
    .string()
    .trim()
    .min(1, { error: 'a non-empty reason' })
    // A function, so that the number is formatted only for a refusal: a process's first
    // toLocaleString loads ICU's data, about 15 ms at every import of the engine.
    .max(MAX_REASON_CHARACTERS, { error: () => `a reason of at most ${MAX_REASON_CHARACTERS.toLocaleString('en-US')} characters` }),
  span: z.string().optional(),
  // Checked on its own (judge-confidence.ts), so that its refusal names the judge, the case, the criterion and the value.
  confidence: z.unknown().optional(),
})

/** A judge of a criteria fixture judges each criterion of the rubric; a label holds a judgement per criterion. */
export const criteriaJudging: KindJudging<CriteriaRubric, Case> = {
  items: ({ rubric }) => [...rubric.criteria.values()].map((criterion) => ({ id: criterion.id, shown: criterion })),
  input: ({ rubric }, theCase) => ({
    question: theCase.input.question,
    answer: theCase.input.answer,
    source: rubric.source,
    rubric: rubric.document,
    case: theCase,
  }),
  judgementsOf: (label) => {
    const judgements = isObject(label) ? label['judgements'] : undefined
    return isObject(judgements) ? judgements : {}
  },
  redraft: (judgement) => {
    if (!isObject(judgement)) return undefined
    // What the label's hashes stamped beside the judgement (the criterion's reference quote) is stamped again when it is written.
    const { rating, reason, answer_span: span, confidence } = judgement
    if (typeof rating !== 'string' || typeof reason !== 'string' || typeof span !== 'string') return undefined
    return { rating, reason, answer_span: span, ...(isConfidence(confidence) ? { confidence } : {}) }
  },
  judgement: (verdict, at) => {
    const parsed = safeParseReporting(VerdictSchema, verdict)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      return { problem: { path: issue.path.filter((segment) => typeof segment !== 'symbol'), message: issue.message } }
    }
    const confidence = checkedConfidence(parsed.data.confidence, { judge: at.judge, caseId: at.caseId, criterion: at.item })
    return {
      judgement: {
        rating: parsed.data.rating,
        reason: parsed.data.reason,
        answer_span: parsed.data.span ?? '',
        ...(confidence === undefined ? {} : { confidence }),
      } satisfies JudgedCriterion,
    }
  },
  // A criteria review's draft holds a judgement per criterion, as a label does.
  draft: (judgements) => judgements,
}
