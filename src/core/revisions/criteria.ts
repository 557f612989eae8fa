import { fingerprint, NULL_FINGERPRINT } from '../canonical-json.js'
import { CanonicalJsonError } from '../errors.js'
import type { CaseEntry, CriteriaFixture } from '../criteria/load.js'
import { CaseSchema, ReviewSchema, type Review } from '../criteria/schemas.js'
import { withFields, type CaseRevisions, type HashField } from './model.js'

/**
 * The recorded hashes of a criteria case and its review: the case binds the source and the rubric
 * and records its review's revision; the review binds the answer, the source and the rubric.
 * `undefined` when the case or its review is malformed: there is no hash to compare, and the
 * evaluation's refusal says what to fix.
 */
export function criteriaCaseRevisions(fixture: CriteriaFixture, entry: CaseEntry): CaseRevisions | undefined {
  const parsed = CaseSchema.safeParse(entry.value)
  if (!parsed.success) return undefined
  const { expected, input } = parsed.data
  const { sourceSha256, rubricSha256 } = fixture.bound
  const review = fixture.reviews.get(entry.id)
  const acknowledgement = { path: [...entry.path, 'expected', 'review_sha256'], recorded: expected.review_sha256 }
  const fields: HashField[] = [
    { file: 'cases', path: [...entry.path, 'expected', 'source_sha256'], binds: 'source', recorded: expected.source_sha256, current: sourceSha256 },
    { file: 'cases', path: [...entry.path, 'expected', 'rubric_sha256'], binds: 'rubric', recorded: expected.rubric_sha256, current: rubricSha256 },
  ]
  if (review === undefined) {
    // Stryker disable next-line ArrayDeclaration: an element Stryker adds here has no recorded or current hash, so it is never stale, and bind skips a missing review
    const none = { label: 'review', path: null, fields: [], acknowledgement, nowSha256: NULL_FINGERPRINT, boundSha256: NULL_FINGERPRINT }
    return { id: entry.id, path: entry.path, fields, reviews: [none] }
  }
  const parsedReview = ReviewSchema.safeParse(review.value)
  if (!parsedReview.success) return undefined
  try {
    const current = { answer_sha256: fingerprint(input.answer), source_sha256: sourceSha256, rubric_sha256: rubricSha256 }
    const at = (key: keyof typeof current) => [...review.path, key]
    const recorded: Review = parsedReview.data
    return {
      id: entry.id,
      path: entry.path,
      fields,
      reviews: [
        {
          label: 'review',
          path: review.path,
          fields: [
            { file: 'annotations', path: at('answer_sha256'), binds: 'answer', recorded: recorded.answer_sha256, current: current.answer_sha256 },
            { file: 'annotations', path: at('source_sha256'), binds: 'source', recorded: recorded.source_sha256, current: current.source_sha256 },
            { file: 'annotations', path: at('rubric_sha256'), binds: 'rubric', recorded: recorded.rubric_sha256, current: current.rubric_sha256 },
          ],
          acknowledgement,
          nowSha256: fingerprint(review.value),
          boundSha256: fingerprint(withFields(review.value, current)),
        },
      ],
    }
    // Stryker disable next-line BlockStatement: only a CanonicalJsonError reaches this catch unless another mutant throws, and it gets undefined either way
  } catch (error) {
    // A value without a canonical form: the evaluation refuses the case and says where. Anything else is a defect.
    // Stryker disable next-line ConditionalExpression: as above, true differs only for an error no unmutated code throws here
    if (error instanceof CanonicalJsonError) return undefined
    throw error
  }
}

/** How a review's judgements stand against the rubric's criteria now. */
export interface CriteriaChange {
  /** Criteria the rubric has that the review does not judge. */
  readonly unjudged: readonly string[]
  /** Judgements of criteria the rubric no longer has. */
  readonly removed: readonly string[]
  /** Criteria whose reference quote differs from the one the judgement carries. */
  readonly requoted: readonly string[]
}

/**
 * The criteria a rubric revision affects for one review, as far as the review itself tells: its
 * judgements carry their criterion ids and reference quotes. A change to a rule's wording, the
 * task or the acceptance text leaves no trace there, so every list can be empty.
 */
export function criteriaChange(fixture: CriteriaFixture, review: unknown): CriteriaChange | undefined {
  const parsed = ReviewSchema.safeParse(review)
  // Stryker disable next-line ConditionalExpression: status asks only about a review that criteriaCaseRevisions has parsed with the same schema
  if (!parsed.success) return undefined
  const judgements = parsed.data.judgements
  const criteria = fixture.bound.criteria
  return {
    unjudged: [...criteria.keys()].filter((id) => !Object.hasOwn(judgements, id)),
    // The keys as written: zod leaves "__proto__" out of what it returns.
    removed: Object.keys((review as { judgements: object }).judgements).filter((id) => !criteria.has(id)),
    requoted: Object.entries(judgements)
      .filter(([id, judgement]) => criteria.has(id) && criteria.get(id)!.reference_quote !== judgement.reference_quote)
      .map(([id]) => id),
  }
}
