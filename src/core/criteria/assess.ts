import { NULL_FINGERPRINT } from '../canonical-json.js'
import { BindingError, preview } from '../errors.js'
import { formatLocation, type PathSegment } from '../json-path.js'
import { safeParseReporting, schemaError } from '../schema-error.js'
import type { CriteriaDecision } from './decision.js'
import { fingerprintAt } from '../json-at.js'
import { writeReview } from './canonical.js'
import { explainStaleBytes } from '../line-endings.js'
import { judge, pending, type AnswerSite } from './judge.js'
import type { BoundRubric } from './rubric.js'
import { AnswerSchema, CaseSchema, type Rating, type Split } from './schemas.js'

/** A JSON value and where it stands in its file. */
export interface Located {
  readonly value: unknown
  readonly path: readonly PathSegment[]
}

/**
 * Decides one case under the all-criteria rule, after every binding and provenance check.
 *
 * Order matters and follows the reference: the case's own revisions (source, rubric, review),
 * then a missing review (pending), then the review's bindings (answer, source, rubric) and
 * excerpts, and only then the rule: missing or uncertain judgements keep the case pending before
 * any `does_not_meet` can reject it. A failed check refuses the case; it is never a decision.
 */
export function assessCase(bound: BoundRubric, testCase: Located, review: Located | null): CriteriaDecision {
  const id = caseIdOf(testCase.value)
  const split = splitOf(testCase.value)
  try {
    return decide(bound, testCase, review, id)
  } catch (error) {
    return refuse(error, id, split)
  }
}

/**
 * Decides an answer that is not a case of a fixture (a regenerated answer, say) against a review:
 * the answer's format, then a missing review (pending), then the review's format, its bindings to
 * this answer, `bound`'s source and rubric, its excerpts, and the all-criteria rule, exactly as for
 * a case. The case-level checks (question, the case's own revisions) do not apply: there is no
 * case. Messages name the answer and the review by `bound.files.cases` and `bound.files.annotations`;
 * the decision carries the review's `answer_id` (`"answer"` without one) and the development split.
 */
export function assessAnswer(bound: BoundRubric, answer: Located, review: Located | null): CriteriaDecision {
  const id = answerIdOf(review?.value) ?? 'answer'
  const split: Split = 'development'
  try {
    const parsed = safeParseReporting(AnswerSchema, answer.value)
    if (!parsed.success) {
      throw schemaError(
        {
          ErrorClass: BindingError,
          code: 'CASE_INVALID',
          file: bound.files.cases,
          basePath: answer.path,
          caseId: id,
          hint: 'an answer holds exactly text and citation, both non-empty strings.',
        },
        parsed.error.issues,
      )
    }
    if (review === null) return pending(id, split, {}, false, [...bound.criteria.keys()], [], [])
    return judge(bound, { value: answer.value, text: parsed.data.text, path: answer.path }, review, id, split)
  } catch (error) {
    return refuse(error, id, split)
  }
}

function refuse(error: unknown, id: string, split: Split): CriteriaDecision {
  if (!(error instanceof BindingError)) throw error
  return { status: 'refused', id, split, reason: error.summary, error: error.toJSON() }
}

function decide(bound: BoundRubric, testCase: Located, review: Located | null, id: string): CriteriaDecision {
  const { files } = bound
  const parsedCase = safeParseReporting(CaseSchema, testCase.value)
  if (!parsedCase.success) {
    throw schemaError(
      {
        ErrorClass: BindingError,
        code: 'CASE_INVALID',
        file: files.cases,
        basePath: testCase.path,
        caseId: id,
        hint: 'a case holds id, an optional split ("development" or "held_out"), input { question, answer { text, citation } } and expected { acceptable: true, source_sha256, rubric_sha256, review_sha256 }.',
      },
      parsedCase.error.issues,
    )
  }
  const theCase = parsedCase.data
  const split = theCase.split ?? 'development'
  const at = (...path: PathSegment[]) => [...testCase.path, ...path]

  if (theCase.input.question !== bound.rubric.task) {
    throw new BindingError({
      code: 'QUESTION_MISMATCH',
      file: files.cases,
      path: at('input', 'question'),
      caseId: id,
      summary: `the question differs from the task ${files.rubric} was written for, so its criteria do not apply.`,
      expected: preview(bound.rubric.task, 400),
      found: preview(theCase.input.question, 400),
      hint: `restore the question, or revise ${files.rubric} for the new question and review the answer again.`,
    })
  }
  const { expected } = theCase
  if (expected.source_sha256 !== bound.sourceSha256) {
    throw new BindingError(
      explainStaleBytes(
        {
          code: 'CASE_SOURCE_STALE',
          file: files.cases,
          path: at('expected', 'source_sha256'),
          caseId: id,
          summary: `the case was bound to another revision of ${files.source}.`,
          expected: `${bound.sourceSha256} (SHA-256 of ${files.source} now)`,
          found: expected.source_sha256,
          hint: `review the answer against the changed source, then bind the case and its review to ${bound.sourceSha256}.`,
        },
        files.source,
        expected.source_sha256,
        bound.conversions?.source,
      ),
    )
  }
  if (expected.rubric_sha256 !== bound.rubricSha256) {
    throw new BindingError(
      explainStaleBytes(
        {
          code: 'CASE_RUBRIC_STALE',
          file: files.cases,
          path: at('expected', 'rubric_sha256'),
          caseId: id,
          summary: `the case was bound to another revision of ${files.rubric}.`,
          expected: `${bound.rubricSha256} (SHA-256 of ${files.rubric} now)`,
          found: expected.rubric_sha256,
          hint: `review the answer against the changed criteria, then bind the case and its review to ${bound.rubricSha256}.`,
        },
        files.rubric,
        expected.rubric_sha256,
        bound.conversions?.rubric,
      ),
    )
  }
  checkReviewRevision(bound, testCase, review, id, expected.review_sha256)

  const ratingsOnly: Record<string, Rating> = {}
  if (review === null) {
    return pending(id, split, ratingsOnly, false, [...bound.criteria.keys()], [], [])
  }
  const answer: AnswerSite = {
    // The answer as written, not zod's copy: its fingerprint is what the review binds. The case parsed, so it is there.
    value: (testCase.value as { input: { answer: unknown } }).input.answer,
    text: theCase.input.answer.text,
    path: at('input', 'answer'),
    reviewRevision: () => formatLocation(files.cases, at('expected', 'review_sha256')),
  }
  return judge(bound, answer, review, id, split)
}

function checkReviewRevision(bound: BoundRubric, testCase: Located, review: Located | null, id: string, recorded: string): void {
  const { files } = bound
  const now = review === null ? NULL_FINGERPRINT : fingerprintAt(review.value, { file: files.annotations, path: review.path, caseId: id }, writeReview)
  if (recorded === now) return
  const base = {
    code: 'REVIEW_EDIT_UNACKNOWLEDGED' as const,
    file: files.cases,
    path: [...testCase.path, 'expected', 'review_sha256'],
    caseId: id,
    expected: `${now} (fingerprint of ${review === null ? 'null: no review' : formatLocation(files.annotations, review.path)} now)`,
    found: recorded,
  }
  if (review === null) {
    throw new BindingError({
      ...base,
      summary: `the case records a review, but ${files.annotations} has none for "${id}".`,
      hint: `restore the review; if it was withdrawn on purpose, set review_sha256 to ${NULL_FINGERPRINT} (the fingerprint of null).`,
    })
  }
  const where = formatLocation(files.annotations, review.path)
  throw new BindingError({
    ...base,
    summary:
      recorded === NULL_FINGERPRINT
        ? `${where} was added, but the case still records that it has no review.`
        : `${where} changed since the case recorded it: an unacknowledged label edit.`,
    hint: `if the review is meant to change, acknowledge it: set review_sha256 to ${now}; otherwise restore the review.`,
  })
}

function answerIdOf(review: unknown): string | undefined {
  const id = typeof review === 'object' && review !== null ? (review as { answer_id?: unknown }).answer_id : undefined
  return typeof id === 'string' && id !== '' ? id : undefined
}

function caseIdOf(value: unknown): string {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined
  return typeof id === 'string' ? id : '(no id)'
}

function splitOf(value: unknown): Split {
  const split = typeof value === 'object' && value !== null ? (value as { split?: unknown }).split : undefined
  return split === 'held_out' ? 'held_out' : 'development'
}

export { pendingReason } from './judge.js'
