import { fingerprint, NULL_FINGERPRINT } from '../canonical-json.js'
import { CanonicalJsonError } from '../errors.js'
import type { ScoredCaseEntry, ScoredFixture } from '../scored/load.js'
import { ScoredCaseSchema, SYSTEMS } from '../scored/schemas.js'
import { withFields, type CaseRevisions, type HashField, type ReviewRevision } from './model.js'

/**
 * The recorded hashes of a scored case and its two reviews: the case binds the rubric and records
 * each review's revision; each review binds the rubric, the case's spec and its system's output.
 * `undefined` when the case or a review lacks a hash to compare: the evaluation's refusal says
 * what to fix.
 */
export function scoredCaseRevisions(fixture: ScoredFixture, entry: ScoredCaseEntry): CaseRevisions | undefined {
  const parsed = ScoredCaseSchema.safeParse(entry.value)
  if (!parsed.success) return undefined
  const theCase = parsed.data
  const rubricSha256 = fixture.rubric.sha256
  try {
    const reviews = SYSTEMS.map((system): ReviewRevision | undefined => {
      const review = fixture.reviews.get(entry.id)?.[system]
      const acknowledgement = { path: [...entry.path, 'expected', `${system}_review_sha256`], recorded: theCase.expected[`${system}_review_sha256`] }
      const label = `${system} review`
      // Stryker disable next-line ArrayDeclaration: an element Stryker adds here has no recorded or current hash, so it is never stale, and bind skips a missing review
      if (review === undefined) return { label, path: null, fields: [], acknowledgement, nowSha256: NULL_FINGERPRINT, boundSha256: NULL_FINGERPRINT }
      const recorded = bindingsOf(review.value)
      if (recorded === undefined) return undefined
      const current = { rubric_sha256: rubricSha256, spec_sha256: fingerprint(theCase.spec), output_sha256: fingerprint(theCase.outputs[system]) }
      const field = (key: keyof typeof current, binds: HashField['binds']): HashField => ({
        file: 'annotations',
        path: [...review.path, key],
        binds,
        recorded: recorded[key],
        current: current[key],
      })
      return {
        label,
        path: review.path,
        fields: [field('rubric_sha256', 'rubric'), field('spec_sha256', 'spec'), field('output_sha256', 'output')],
        acknowledgement,
        nowSha256: fingerprint(review.value),
        boundSha256: fingerprint(withFields(review.value, current)),
      }
    })
    if (reviews.includes(undefined)) return undefined
    return {
      id: entry.id,
      path: entry.path,
      fields: [{ file: 'cases', path: [...entry.path, 'expected', 'rubric_sha256'], binds: 'rubric', recorded: theCase.expected.rubric_sha256, current: rubricSha256 }],
      reviews: reviews as ReviewRevision[],
    }
    // Stryker disable next-line BlockStatement: only a CanonicalJsonError reaches this catch unless another mutant throws, and it gets undefined either way
  } catch (error) {
    // A value without a canonical form: the evaluation refuses the case and says where. Anything else is a defect.
    // Stryker disable next-line ConditionalExpression: as above, true differs only for an error no unmutated code throws here
    if (error instanceof CanonicalJsonError) return undefined
    throw error
  }
}

/** The three binding hashes of a review (an object, as loading checked), when each is a string. */
function bindingsOf(review: unknown): Record<'rubric_sha256' | 'spec_sha256' | 'output_sha256', string> | undefined {
  const { rubric_sha256, spec_sha256, output_sha256 } = review as Record<string, unknown>
  if (typeof rubric_sha256 !== 'string' || typeof spec_sha256 !== 'string' || typeof output_sha256 !== 'string') return undefined
  return { rubric_sha256, spec_sha256, output_sha256 }
}

