import { z } from 'zod'
import { preview } from '../../common/errors.js'
import { isObject, SplitSchema } from '../../common/primitives.js'
import type { DraftProblem, Drafted, KindAuthoring, KindContext } from '../../contract/kind.js'
import type { CriteriaRubric } from './rubric.js'
import type { Case } from './schemas.js'
import { confidenceProblem } from './confidence.js'

/** A new case as `add` takes it: the answer and its citation; the question defaults to the rubric's task. */
export const CriteriaCaseDraftSchema = z.strictObject({
  id: z.string().min(1),
  answer: z.string(),
  citation: z.string(),
  split: SplitSchema.optional(),
  question: z.string().optional(),
})

/** One judgement as a reviewer gives it; the reference quote comes from the rubric, the span defaults to "" (an omission). */
const JudgementDraftSchema = z.strictObject({
  rating: z.string(),
  reason: z.string(),
  answer_span: z.string().optional(),
  confidence: z.number().optional(),
})

/** A review as a reviewer or a judge gives it: a judgement per criterion, by criterion id. */
export const CriteriaReviewDraftSchema = z.record(z.string(), JudgementDraftSchema)

const PLACEHOLDER = ''

export const criteriaAuthoring: KindAuthoring<CriteriaRubric, Case> = {
  caseDraft: CriteriaCaseDraftSchema,
  newCase(context, value) {
    // The engine parsed the draft with caseDraft already: this parse only gives it its type.
    const draft = CriteriaCaseDraftSchema.parse(value)
    const { task } = context.rubric.document
    const problems: DraftProblem[] = []
    if (draft.answer.trim() === '') problems.push({ path: ['answer'], summary: 'the answer is empty.', hint: 'give the answer text to review.' })
    if (draft.citation.trim() === '') problems.push({ path: ['citation'], summary: 'the citation is empty.', hint: 'name the source the answer cites.' })
    if (draft.question !== undefined && draft.question !== task) {
      problems.push({
        path: ['question'],
        summary: `the question differs from the task ${context.files.rubric?.display ?? 'rubric.json'} was written for, so its criteria would not apply.`,
        expected: preview(task, 400),
        found: preview(draft.question, 400),
        hint: "leave the question out: a case asks the rubric's task.",
      })
    }
    if (problems.length > 0) return { problems }
    return {
      value: {
        id: draft.id,
        ...(draft.split === undefined ? {} : { split: draft.split }),
        input: { question: task, answer: { text: draft.answer, citation: draft.citation } },
        expected: { acceptable: true, source_sha256: PLACEHOLDER, rubric_sha256: PLACEHOLDER, review_sha256: PLACEHOLDER },
      },
      problems: [],
    }
  },
  reviewDraft: () => CriteriaReviewDraftSchema,
  newReview(context, theCase, _slot, value): Drafted {
    const draft = CriteriaReviewDraftSchema.parse(value)
    const { criteria } = context.rubric
    const ratings = context.rubric.document.ratings
    const answer = theCase.input.answer.text
    const problems: DraftProblem[] = []
    // Own keys as given: a criterion named "constructor" must be one the rubric defines, like any other.
    for (const criterion of Object.keys(draft)) {
      if (!criteria.has(criterion)) {
        problems.push({
          path: [criterion],
          summary: `the rubric defines no criterion "${criterion}".`,
          expected: `one of ${[...criteria.keys()].map((id) => JSON.stringify(id)).join(', ')}`,
          found: JSON.stringify(criterion),
          hint: 'name a criterion of the rubric (vitest-rubric show prints them).',
        })
        continue
      }
      const judgement = draft[criterion]!
      if (!ratings.some((rating) => rating === judgement.rating)) {
        problems.push({
          path: [criterion, 'rating'],
          summary: `"${judgement.rating}" is not a rating of the rubric.`,
          expected: `one of ${ratings.map((rating) => JSON.stringify(rating)).join(', ')}`,
          found: JSON.stringify(judgement.rating),
          hint: 'rate the criterion meets, does_not_meet or uncertain.',
        })
      }
      if (judgement.reason.trim() === '') {
        problems.push({
          path: [criterion, 'reason'],
          summary: 'the reason is empty.',
          hint: 'say why the answer meets the criterion or not: a rating without a reason cannot be reviewed.',
        })
      }
      const confidence = confidenceProblem(judgement.confidence, criterion)
      if (confidence !== undefined) problems.push(confidence)
      const span = judgement.answer_span ?? ''
      if (!answer.includes(span)) {
        problems.push({
          path: [criterion, 'answer_span'],
          summary: 'the span does not occur in the answer.',
          expected: 'an exact excerpt of the answer text, or "" for an omission',
          found: preview(span, 400),
          hint: 'quote the answer exactly (copy it from vitest-rubric show); for an omission leave the span empty and name what is missing in the reason.',
        })
      }
    }
    if (problems.length > 0) return { problems }
    // In the rubric's order, whatever order they were given in: a diff of a revision then shows only what changed.
    const judgements: Record<string, unknown> = {}
    for (const [id, criterion] of criteria) {
      if (!Object.hasOwn(draft, id)) continue
      const judgement = draft[id]!
      judgements[id] = {
        rating: judgement.rating,
        reason: judgement.reason,
        reference_quote: criterion.reference_quote,
        answer_span: judgement.answer_span ?? '',
        ...(judgement.confidence === undefined ? {} : { confidence: judgement.confidence }),
      }
    }
    return {
      value: { answer_id: theCase.id, answer_sha256: PLACEHOLDER, source_sha256: PLACEHOLDER, rubric_sha256: PLACEHOLDER, judgements },
      problems: [],
    }
  },
  draftByItem: true,
  draftOf(review) {
    const judgements = isObject(review) ? review['judgements'] : undefined
    const draft: Record<string, unknown> = {}
    if (!isObject(judgements)) return draft
    for (const [criterion, judgement] of Object.entries(judgements)) {
      if (!isObject(judgement)) continue
      Object.defineProperty(draft, criterion, {
        value: {
          rating: judgement['rating'],
          reason: judgement['reason'],
          answer_span: judgement['answer_span'],
          ...(judgement['confidence'] === undefined ? {} : { confidence: judgement['confidence'] }),
        },
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
    return draft
  },
  summarizeReview(review) {
    const judgements = isObject(review) ? review['judgements'] : undefined
    if (!isObject(judgements)) return {}
    const summary: Record<string, string> = {}
    for (const [criterion, judgement] of Object.entries(judgements)) {
      const rating = isObject(judgement) ? judgement['rating'] : undefined
      summary[criterion] = typeof rating === 'string' ? rating : '?'
    }
    return summary
  },
}

/** The context's rubric, for front ends that ask a reviewer criterion by criterion. */
export function criteriaToJudge(context: KindContext<CriteriaRubric>): { id: string; rule: string; quote: string }[] {
  return [...context.rubric.criteria].map(([id, criterion]) => ({ id, rule: criterion.rule, quote: criterion.reference_quote }))
}
