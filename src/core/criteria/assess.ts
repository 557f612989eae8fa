import { NULL_FINGERPRINT, fingerprint } from '../canonical-json.js'
import { BindingError, CanonicalJsonError, preview } from '../errors.js'
import { formatLocation, type PathSegment } from '../json-path.js'
import { schemaError } from '../schema-error.js'
import type { CriteriaDecision, JudgedCriterion, PendingDecision } from './decision.js'
import type { BoundRubric } from './rubric.js'
import { AnswerSchema, CaseSchema, ReviewSchema, type Rating, type Split } from './schemas.js'

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
    const parsed = AnswerSchema.safeParse(answer.value, { reportInput: true })
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
  const parsedCase = CaseSchema.safeParse(testCase.value, { reportInput: true })
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
    throw new BindingError({
      code: 'CASE_SOURCE_STALE',
      file: files.cases,
      path: at('expected', 'source_sha256'),
      caseId: id,
      summary: `the case was bound to another revision of ${files.source}.`,
      expected: `${bound.sourceSha256} (SHA-256 of ${files.source} now)`,
      found: expected.source_sha256,
      hint: `review the answer against the changed source, then bind the case and its review to ${bound.sourceSha256}.`,
    })
  }
  if (expected.rubric_sha256 !== bound.rubricSha256) {
    throw new BindingError({
      code: 'CASE_RUBRIC_STALE',
      file: files.cases,
      path: at('expected', 'rubric_sha256'),
      caseId: id,
      summary: `the case was bound to another revision of ${files.rubric}.`,
      expected: `${bound.rubricSha256} (SHA-256 of ${files.rubric} now)`,
      found: expected.rubric_sha256,
      hint: `review the answer against the changed criteria, then bind the case and its review to ${bound.rubricSha256}.`,
    })
  }
  checkReviewRevision(bound, testCase, review, id, expected.review_sha256)

  const ratingsOnly: Record<string, Rating> = {}
  if (review === null) {
    return pending(id, split, ratingsOnly, false, [...bound.criteria.keys()], [], [])
  }
  const answer: AnswerSite = {
    value: testCase.value === null ? null : answerOf(testCase.value),
    text: theCase.input.answer.text,
    path: at('input', 'answer'),
    reviewRevision: formatLocation(files.cases, at('expected', 'review_sha256')),
  }
  return judge(bound, answer, review, id, split)
}

/** The answer a review is checked against. */
interface AnswerSite {
  /** The answer as written: its fingerprint is what a review binds. */
  readonly value: unknown
  readonly text: string
  readonly path: readonly PathSegment[]
  /** Where the answer's case records the review revision; absent for an answer outside a case. */
  readonly reviewRevision?: string
}

/** The review's format, its bindings, its excerpts, then the pending-first all-criteria rule. */
function judge(bound: BoundRubric, answer: AnswerSite, review: Located, id: string, split: Split): CriteriaDecision {
  const { files } = bound
  const parsedReview = ReviewSchema.safeParse(review.value, { reportInput: true })
  if (!parsedReview.success) {
    throw schemaError(
      {
        ErrorClass: BindingError,
        code: 'REVIEW_INVALID',
        file: files.annotations,
        basePath: review.path,
        caseId: id,
        hint: 'a review holds answer_id, answer_sha256, source_sha256, rubric_sha256 and judgements; each judgement holds rating ("meets", "does_not_meet" or "uncertain"), a non-empty reason, the criterion\'s reference_quote and an answer_span ("" for an omission).',
      },
      parsedReview.error.issues,
    )
  }
  const theReview = parsedReview.data
  const reviewAt = (...path: PathSegment[]) => [...review.path, ...path]
  const answerLocation = formatLocation(files.cases, answer.path)
  // An answer outside a case has no recorded review revision to acknowledge.
  const acknowledge = (where = answer.reviewRevision) =>
    answer.reviewRevision === undefined ? '' : ` and acknowledge the new review revision in ${where}`

  const answerSha256 = fingerprintAt(answer.value, files.cases, answer.path, id)
  if (theReview.answer_sha256 !== answerSha256) {
    throw new BindingError({
      code: 'REVIEW_ANSWER_STALE',
      file: files.annotations,
      path: reviewAt('answer_sha256'),
      caseId: id,
      summary: `the review is bound to answer ${short(theReview.answer_sha256)}, but ${answerLocation} now fingerprints to ${short(answerSha256)}: the judgement describes another answer.`,
      expected: `${answerSha256} (fingerprint of the answer now)`,
      found: theReview.answer_sha256,
      hint: `re-review the answer, then bind the review again (answer_sha256 ${answerSha256})${acknowledge()}.`,
    })
  }
  if (theReview.source_sha256 !== bound.sourceSha256) {
    throw new BindingError({
      code: 'REVIEW_SOURCE_STALE',
      file: files.annotations,
      path: reviewAt('source_sha256'),
      caseId: id,
      summary: `the review was made against another revision of ${files.source}.`,
      expected: `${bound.sourceSha256} (SHA-256 of ${files.source} now)`,
      found: theReview.source_sha256,
      hint: `re-review the answer against the changed source, then set source_sha256 to ${bound.sourceSha256}${acknowledge('the case')}.`,
    })
  }
  if (theReview.rubric_sha256 !== bound.rubricSha256) {
    throw new BindingError({
      code: 'REVIEW_RUBRIC_STALE',
      file: files.annotations,
      path: reviewAt('rubric_sha256'),
      caseId: id,
      summary: `the review judged another revision of ${files.rubric}'s criteria.`,
      expected: `${bound.rubricSha256} (SHA-256 of ${files.rubric} now)`,
      found: theReview.rubric_sha256,
      hint: `re-review the answer under the changed criteria, then set rubric_sha256 to ${bound.rubricSha256}${acknowledge('the case')}.`,
    })
  }

  const known = [...bound.criteria.keys()]
  for (const [criterionId, judgement] of Object.entries(theReview.judgements)) {
    const criterion = bound.criteria.get(criterionId)
    if (criterion === undefined) {
      throw new BindingError({
        code: 'UNKNOWN_CRITERION',
        file: files.annotations,
        path: reviewAt('judgements', criterionId),
        caseId: id,
        summary: `the review judges a criterion that ${files.rubric} does not define.`,
        expected: `one of ${known.map((key) => JSON.stringify(key)).join(', ')}`,
        found: JSON.stringify(criterionId),
        hint: `rename the judgement to the criterion it judges or remove it; if the criteria changed, revise ${files.rubric} first.`,
      })
    }
    if (judgement.reference_quote !== criterion.reference_quote) {
      throw new BindingError({
        code: 'QUOTE_MISMATCH',
        file: files.annotations,
        path: reviewAt('judgements', criterionId, 'reference_quote'),
        caseId: id,
        summary: `the reference quote is not the one ${files.rubric} assigns to criterion "${criterionId}".`,
        expected: preview(criterion.reference_quote, 400),
        found: preview(judgement.reference_quote, 400),
        hint: `copy the criterion's reference_quote from ${files.rubric} exactly.`,
      })
    }
    if (!answer.text.includes(judgement.answer_span)) {
      throw new BindingError({
        code: 'SPAN_NOT_IN_ANSWER',
        file: files.annotations,
        path: reviewAt('judgements', criterionId, 'answer_span'),
        caseId: id,
        summary: `the answer span does not occur in the answer text (${formatLocation(files.cases, [...answer.path, 'text'])}).`,
        expected: 'an exact excerpt of the answer text, or "" for an omission',
        found: preview(judgement.answer_span, 400),
        hint: 'quote the answer exactly; for an omission use "" and name the absent requirement in the reason.',
      })
    }
  }

  const ratings: Record<string, Rating> = {}
  const missing: string[] = []
  const uncertain: JudgedCriterion[] = []
  const failed: JudgedCriterion[] = []
  for (const [criterionId, criterion] of bound.criteria) {
    const judgement = theReview.judgements[criterionId]
    if (judgement === undefined) {
      missing.push(criterionId)
      continue
    }
    ratings[criterionId] = judgement.rating
    const judged: JudgedCriterion = {
      criterion: criterionId,
      rule: criterion.rule,
      reason: judgement.reason,
      referenceQuote: judgement.reference_quote,
      answerSpan: judgement.answer_span,
    }
    if (judgement.rating === 'uncertain') uncertain.push(judged)
    else if (judgement.rating === 'does_not_meet') failed.push(judged)
  }
  // The pending guard: nothing incomplete or uncertain may reach the accept/reject rule.
  if (missing.length > 0 || uncertain.length > 0) {
    return pending(id, split, ratings, true, missing, uncertain, failed)
  }
  if (failed.length > 0) {
    return { status: 'rejected', id, split, ratings, reason: failed.map((item) => item.criterion).join(', '), failed }
  }
  return { status: 'accepted', id, split, ratings, reason: '' }
}

function checkReviewRevision(bound: BoundRubric, testCase: Located, review: Located | null, id: string, recorded: string): void {
  const { files } = bound
  const now = review === null ? NULL_FINGERPRINT : fingerprintAt(review.value, files.annotations, review.path, id)
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

function pending(
  id: string,
  split: Split,
  ratings: Record<string, Rating>,
  reviewed: boolean,
  missing: readonly string[],
  uncertain: readonly JudgedCriterion[],
  failed: readonly JudgedCriterion[],
): PendingDecision {
  return { status: 'pending', id, split, ratings, reason: pendingReason(reviewed, missing, uncertain), reviewed, missing, uncertain, failed }
}

/** `no review`, `missing criterion verification`, `missing criteria a, b; uncertain on support`. */
export function pendingReason(reviewed: boolean, missing: readonly string[], uncertain: readonly JudgedCriterion[]): string {
  if (!reviewed) return 'no review'
  const parts: string[] = []
  if (missing.length > 0) parts.push(`missing ${missing.length === 1 ? 'criterion' : 'criteria'} ${missing.join(', ')}`)
  if (uncertain.length > 0) parts.push(`uncertain on ${uncertain.map((item) => item.criterion).join(', ')}`)
  return parts.join('; ')
}

function fingerprintAt(value: unknown, file: string, path: readonly PathSegment[], caseId: string): string {
  try {
    return fingerprint(value)
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) throw error
    throw new BindingError({
      code: 'NOT_CANONICAL_JSON',
      file,
      path: [...path, ...error.path],
      caseId,
      summary: error.summary,
      found: error.found,
      hint: error.hint,
    })
  }
}

function short(sha: string): string {
  return `${sha.slice(0, 12)}…`
}

function answerOf(value: unknown): unknown {
  const input = (value as { input?: { answer?: unknown } }).input
  return input?.answer
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
