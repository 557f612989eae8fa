import { BindingError, preview } from '../errors.js'
import { fingerprintAt } from '../json-at.js'
import { writeAnswer } from './canonical.js'
import { formatLocation, type PathSegment } from '../json-path.js'
import { explainStaleBytes } from '../line-endings.js'
import { safeParseReporting, schemaError } from '../schema-error.js'
import type { Located } from './assess.js'
import type { CriteriaDecision, JudgedCriterion, PendingDecision } from './decision.js'
import type { BoundRubric } from './rubric.js'
import { ReviewSchema, type Rating, type Split } from './schemas.js'

/** The answer a review is checked against. */
export interface AnswerSite {
  /** The answer as written: its fingerprint is what a review binds. */
  readonly value: unknown
  readonly text: string
  readonly path: readonly PathSegment[]
  /** Where the answer's case records the review revision (computed for a message only); absent for an answer outside a case. */
  readonly reviewRevision?: () => string
}

/** The review's format, its bindings, its excerpts, then the pending-first all-criteria rule. */
export function judge(bound: BoundRubric, answer: AnswerSite, review: Located, id: string, split: Split): CriteriaDecision {
  const { files } = bound
  const parsedReview = safeParseReporting(ReviewSchema, review.value)
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
  // An answer outside a case has no recorded review revision to acknowledge.
  const acknowledge = (where?: string) =>
    answer.reviewRevision === undefined ? '' : ` and acknowledge the new review revision in ${where ?? answer.reviewRevision()}`

  const answerSha256 = fingerprintAt(answer.value, { file: files.cases, path: answer.path, caseId: id }, writeAnswer)
  if (theReview.answer_sha256 !== answerSha256) {
    throw new BindingError({
      code: 'REVIEW_ANSWER_STALE',
      file: files.annotations,
      path: reviewAt('answer_sha256'),
      caseId: id,
      summary: `the review is bound to answer ${short(theReview.answer_sha256)}, but ${formatLocation(files.cases, answer.path)} now fingerprints to ${short(answerSha256)}: the judgement describes another answer.`,
      expected: `${answerSha256} (fingerprint of the answer now)`,
      found: theReview.answer_sha256,
      hint: `re-review the answer, then bind the review again (answer_sha256 ${answerSha256})${acknowledge()}.`,
    })
  }
  if (theReview.source_sha256 !== bound.sourceSha256) {
    throw new BindingError(
      explainStaleBytes(
        {
          code: 'REVIEW_SOURCE_STALE',
          file: files.annotations,
          path: reviewAt('source_sha256'),
          caseId: id,
          summary: `the review was made against another revision of ${files.source}.`,
          expected: `${bound.sourceSha256} (SHA-256 of ${files.source} now)`,
          found: theReview.source_sha256,
          hint: `re-review the answer against the changed source, then set source_sha256 to ${bound.sourceSha256}${acknowledge('the case')}.`,
        },
        files.source,
        theReview.source_sha256,
        bound.conversions?.source,
      ),
    )
  }
  if (theReview.rubric_sha256 !== bound.rubricSha256) {
    throw new BindingError(
      explainStaleBytes(
        {
          code: 'REVIEW_RUBRIC_STALE',
          file: files.annotations,
          path: reviewAt('rubric_sha256'),
          caseId: id,
          summary: `the review judged another revision of ${files.rubric}'s criteria.`,
          expected: `${bound.rubricSha256} (SHA-256 of ${files.rubric} now)`,
          found: theReview.rubric_sha256,
          hint: `re-review the answer under the changed criteria, then set rubric_sha256 to ${bound.rubricSha256}${acknowledge('the case')}.`,
        },
        files.rubric,
        theReview.rubric_sha256,
        bound.conversions?.rubric,
      ),
    )
  }

  // The keys as written: zod leaves a "__proto__" key out of what it returns, and it must be refused like any unknown id.
  for (const criterionId of Object.keys((review.value as { judgements: object }).judgements)) {
    const criterion = bound.criteria.get(criterionId)
    if (criterion === undefined) {
      throw new BindingError({
        code: 'UNKNOWN_CRITERION',
        file: files.annotations,
        path: reviewAt('judgements', criterionId),
        caseId: id,
        summary: `the review judges a criterion that ${files.rubric} does not define.`,
        expected: `one of ${[...bound.criteria.keys()].map((key) => JSON.stringify(key)).join(', ')}`,
        found: JSON.stringify(criterionId),
        hint: `rename the judgement to the criterion it judges or remove it; if the criteria changed, revise ${files.rubric} first.`,
      })
    }
    const judgement = theReview.judgements[criterionId]!
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
    // Own keys only: a criterion named "constructor" or "toString" must not find Object.prototype's.
    const judgement = Object.hasOwn(theReview.judgements, criterionId) ? theReview.judgements[criterionId] : undefined
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

export function pending(
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


function short(sha: string): string {
  return `${sha.slice(0, 12)}…`
}

