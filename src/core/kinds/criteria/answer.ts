import { formatLocation, type PathSegment } from '../../common/json-path.js'
import { isObject } from '../../common/primitives.js'
import { refusal } from '../../engine/assess.js'
import { bindingState, isStale, staleProblem } from '../../engine/bindings.js'
import type { Problem } from '../../contract/kind.js'
import { safeParseReporting, schemaProblem } from '../../json/schema-error.js'
import { CanonicalJsonError } from '../../common/errors.js'
import { CRITERIA_BINDINGS } from './bindings.js'
import { checkJudgements } from './checks.js'
import type { CriteriaDecision } from './decision.js'
import type { BoundRubric } from './rubric.js'
import { applyCriteriaRule, pending } from './rule.js'
import { AnswerSchema, ReviewSchema } from './schemas.js'

/** A JSON value and where it stands in its file. */
export interface Located {
  readonly value: unknown
  readonly path: readonly PathSegment[]
}

/**
 * Decides an answer that is not a case of a fixture (a regenerated answer, say) against a review:
 * the answer's format, then a missing review (pending), then the review's format, its excerpts,
 * its bindings to this answer and to `bound`'s source and rubric, and the all-criteria rule,
 * exactly as for a case. The checks of a case itself (its question, its own recorded hashes) do not
 * apply: there is no case. Messages name the answer and the review by `bound.files.cases` and
 * `bound.files.annotations`; the decision carries the review's `answer_id` (`"answer"` without
 * one) and the development split.
 */
export function assessAnswer(bound: BoundRubric, answer: Located, review: Located | null): CriteriaDecision {
  const id = answerIdOf(review?.value) ?? 'answer'
  const split = 'development'
  const files = { cases: bound.files.cases?.display ?? 'answer', annotations: bound.files.annotations?.display ?? 'review' }
  const at = { id, path: answer.path }
  const problems: Problem[] = []
  const invalid = (
    code: 'CASE_INVALID' | 'REVIEW_INVALID',
    file: string,
    basePath: readonly PathSegment[],
    hint: string,
    issues: Parameters<typeof schemaProblem>[1],
  ) => problems.push(schemaProblem({ code, file, basePath, caseId: id, hint }, issues))
  const parsedAnswer = safeParseReporting(AnswerSchema, answer.value)
  if (!parsedAnswer.success) {
    invalid('CASE_INVALID', files.cases, answer.path, 'an answer holds exactly text and citation, both non-empty strings.', parsedAnswer.error.issues)
    return { status: 'refused', id, split, ...refusal(problems) }
  }
  if (review === null) return pending(id, split, {}, false, [...bound.rubric.criteria.keys()], [], [])
  const parsedReview = safeParseReporting(ReviewSchema, review.value)
  if (!parsedReview.success) {
    invalid(
      'REVIEW_INVALID',
      files.annotations,
      review.path,
      'a review holds answer_id, answer_sha256, source_sha256, rubric_sha256 and judgements (see docs/format.md).',
      parsedReview.error.issues,
    )
  }
  const excerpts = checkJudgements(
    bound,
    { text: parsedAnswer.data.text, at: formatLocation(files.cases, [...answer.path, 'text']) },
    { ...review, file: files.annotations },
    at,
  )
  const stale: Problem[] = []
  // The answer's place stands for a case's `input.answer`: the review binds it, and the source and rubric.
  const subject = {
    at: { id, path: [] },
    caseValue: { input: { answer: answer.value } },
    casesFile: files.cases,
    slot: 'review',
    review: { ...review, file: files.annotations },
  }
  for (const row of CRITERIA_BINDINGS) {
    if (row.in !== 'review') continue
    let state: ReturnType<typeof bindingState>
    try {
      state = bindingState(row, bound, subject)
    } catch (error) {
      if (!(error instanceof CanonicalJsonError)) throw error
      problems.push({
        code: error.code,
        file: files.cases,
        path: [...answer.path, ...error.path],
        caseId: id,
        summary: error.summary,
        found: error.found,
        hint: error.hint,
      })
      continue
    }
    if (state === undefined || !isStale(state)) continue
    const of = 'fingerprintOf' in row.source ? `fingerprint of ${formatLocation(files.cases, answer.path)}` : state.of
    const shown = { row: state.row, slot: state.slot, file: state.file, path: state.path, recorded: state.recorded, current: state.current, of }
    const problem = staleProblem(shown, bound, at, true, 'record the review again for this answer, from the answer, source and rubric as they are now')
    // That the answer changed comes first: an excerpt that no longer matches follows from it.
    if ('fingerprintOf' in row.source) problems.push(problem)
    else stale.push(problem)
  }
  problems.push(...excerpts, ...stale) // at most two per criterion
  if (problems.length > 0 || !parsedReview.success) return { status: 'refused', id, split, ...refusal(problems) }
  return applyCriteriaRule(bound.rubric, parsedReview.data, id, split)
}

function answerIdOf(review: unknown): string | undefined {
  const id = isObject(review) ? review['answer_id'] : undefined
  return typeof id === 'string' && id !== '' ? id : undefined
}
