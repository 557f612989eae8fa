import { canonicalWriter } from '../canonical-writer.js'
import { AnswerSchema, CaseSchema, ReviewSchema } from './schemas.js'

// Writers for the shapes a criteria fixture holds one of per case: what is fingerprinted most.

/** The canonical text of a case of `cases.json`. */
export const writeCase = canonicalWriter(CaseSchema)

/** The canonical text of a case's `input.answer`, which a review binds. */
export const writeAnswer = canonicalWriter(AnswerSchema)

/** The canonical text of a review of `annotations.json`, which its case binds. */
export const writeReview = canonicalWriter(ReviewSchema)
