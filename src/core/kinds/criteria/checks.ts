import { preview } from '../../common/errors.js'
import { formatLocation } from '../../common/json-path.js'
import { isObject } from '../../common/primitives.js'
import type { CaseAt, KindContext, Problem, ReviewUnderCheck } from '../../contract/kind.js'
import type { CriteriaRubric } from './rubric.js'
import type { Case, Review } from './schemas.js'

/** A case asks the rubric's task: a case asking anything else is not what the criteria were written for. */
export function checkCriteriaCase(context: KindContext<CriteriaRubric>, theCase: Case, at: CaseAt): Problem[] {
  const { task } = context.rubric.document
  if (theCase.input.question === task) return []
  const rubric = context.files.rubric?.display ?? 'rubric.json'
  return [
    {
      code: 'QUESTION_MISMATCH',
      file: context.files.cases?.display,
      path: [...at.path, 'input', 'question'],
      caseId: at.id,
      summary: `the question differs from the task ${rubric} was written for, so its criteria do not apply.`,
      expected: preview(task, 400),
      found: preview(theCase.input.question, 400),
      hint: `restore the question, or revise ${rubric} for the new question and review the answer again.`,
    },
  ]
}

/**
 * The provenance of a review's judgements: each names a criterion of the rubric, carries that
 * criterion's reference quote, and quotes the answer exactly (or `""` for an omission). These are
 * checked on the review as written, judgement by judgement, so that a review whose format is also
 * wrong elsewhere still hears of every excerpt that does not match. A matching excerpt proves
 * provenance, not that the judgement is right.
 */
export function checkCriteriaReview(context: KindContext<CriteriaRubric>, theCase: Case, review: ReviewUnderCheck<Review>, at: CaseAt): Problem[] {
  const answer = { text: theCase.input.answer.text, at: () => formatLocation(context.files.cases?.display, [...at.path, 'input', 'answer', 'text']) }
  return checkJudgements(context, answer, review, at)
}

/** {@link checkCriteriaReview} against an answer text, wherever it stands (a case's, or an answer outside a fixture). */
export function checkJudgements(
  context: KindContext<CriteriaRubric>,
  answer: { readonly text: string; readonly at: string | (() => string) },
  review: { readonly value: unknown; readonly path: readonly (string | number)[]; readonly file: string },
  at: CaseAt,
): Problem[] {
  const judgements = isObject(review.value) ? review.value['judgements'] : undefined
  if (!isObject(judgements)) return []
  const { criteria } = context.rubric
  // The review's own file: a reviewer's or a judge's review is not in annotations.json.
  const { file } = review
  const rubric = context.files.rubric?.display ?? 'rubric.json'
  const answerText = answer.text
  const problems: Problem[] = []
  // The keys as written: zod leaves a "__proto__" key out of what it returns, and it must be refused like any unknown id.
  // Where each judgement is, for messages: worked out only for a problem, since most judgements have none.
  const pathOf = (criterionId: string, ...inner: string[]) => [...review.path, 'judgements', criterionId, ...inner]
  for (const criterionId of Object.keys(judgements)) {
    const criterion = criteria.get(criterionId)
    if (criterion === undefined) {
      problems.push({
        code: 'UNKNOWN_CRITERION',
        file,
        path: pathOf(criterionId),
        caseId: at.id,
        summary: `the review judges a criterion that ${rubric} does not define.`,
        expected: `one of ${[...criteria.keys()].map((key) => JSON.stringify(key)).join(', ')}`,
        found: JSON.stringify(criterionId),
        hint: `rename the judgement to the criterion it judges or remove it; if the criteria changed, revise ${rubric} first.`,
      })
      continue
    }
    const judgement = judgements[criterionId]
    if (!isObject(judgement)) continue
    const quote = judgement['reference_quote']
    if (typeof quote === 'string' && quote !== '' && quote !== criterion.reference_quote) {
      problems.push({
        code: 'QUOTE_MISMATCH',
        file,
        path: pathOf(criterionId, 'reference_quote'),
        caseId: at.id,
        summary: `the reference quote is not the one ${rubric} assigns to criterion "${criterionId}".`,
        expected: preview(criterion.reference_quote, 400),
        found: preview(quote, 400),
        hint: `copy the criterion's reference_quote from ${rubric} exactly.`,
      })
    }
    const span = judgement['answer_span']
    if (typeof span === 'string' && !answerText.includes(span)) {
      problems.push({
        code: 'SPAN_NOT_IN_ANSWER',
        file,
        path: pathOf(criterionId, 'answer_span'),
        caseId: at.id,
        summary: `the answer span does not occur in the answer text (${typeof answer.at === 'string' ? answer.at : answer.at()}).`,
        expected: 'an exact excerpt of the answer text, or "" for an omission',
        found: preview(span, 400),
        hint: 'quote the answer exactly; for an omission use "" and name the absent requirement in the reason.',
      })
    }
  }
  return problems
}
