import { z } from 'zod'

/** The three ratings a reviewer can give a criterion. */
export const RATINGS = ['meets', 'does_not_meet', 'uncertain'] as const
export const RatingSchema = z.enum(RATINGS, { error: 'one of "meets", "does_not_meet", "uncertain"' })
export type Rating = z.infer<typeof RatingSchema>

/** The two splits a case can belong to; they are never merged into one figure. */
export const SPLITS = ['development', 'held_out'] as const
export const SplitSchema = z.enum(SPLITS, { error: 'one of "development", "held_out"' })
export type Split = z.infer<typeof SplitSchema>

const text = z.string().min(1)

/** A lowercase hexadecimal SHA-256 digest. */
export const Sha256Schema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, { error: 'a SHA-256 digest: 64 lowercase hexadecimal characters' })

// ── rubric.json ────────────────────────────────────────────────────────────────────────────

export const CriterionSchema = z.strictObject({
  /** Stable identifier, used as the key of a review's judgements. */
  id: text,
  /** The requirement a reviewer applies. */
  rule: text,
  /** The sentence of the source this criterion rests on; it must occur in `source.txt`. */
  reference_quote: text,
})
export type Criterion = z.infer<typeof CriterionSchema>

export const RubricSchema = z.strictObject({
  id: text,
  version: z.int().min(1),
  /** The question the rubric was written for: a case asking anything else is refused. */
  task: text,
  /** The decision rule in prose, for readers; the program applies the all-criteria rule. */
  acceptance: text,
  ratings: z
    .array(z.string())
    .refine((ratings) => ratings.length === RATINGS.length && RATINGS.every((rating) => ratings.includes(rating)), {
      error: 'exactly the three ratings "meets", "does_not_meet" and "uncertain"',
    }),
  criteria: z.array(CriterionSchema).min(1),
})
export type Rubric = z.infer<typeof RubricSchema>

// ── cases.json ─────────────────────────────────────────────────────────────────────────────

export const AnswerSchema = z.strictObject({
  text,
  citation: text,
})
export type Answer = z.infer<typeof AnswerSchema>

export const ExpectedSchema = z.strictObject({
  /** A case always asks for acceptance under the rubric. */
  acceptable: z.literal(true),
  /** SHA-256 of the raw bytes of `source.txt` the case was written against. */
  source_sha256: Sha256Schema,
  /** SHA-256 of the raw bytes of `rubric.json` the case was written against. */
  rubric_sha256: Sha256Schema,
  /** Fingerprint of the case's review entry (or of `null` when it has none). */
  review_sha256: Sha256Schema,
})
export type Expected = z.infer<typeof ExpectedSchema>

export const CaseSchema = z.strictObject({
  id: text,
  split: SplitSchema.optional(),
  input: z.strictObject({
    question: z.string(),
    answer: AnswerSchema,
  }),
  expected: ExpectedSchema,
})
export type Case = z.infer<typeof CaseSchema>

export const CasesFileSchema = z.strictObject({
  name: text,
  task: text,
  cases: z.array(CaseSchema),
})
export type CasesFile = z.infer<typeof CasesFileSchema>

/**
 * What must hold for the file as a whole (each case also needs a non-empty string id); each case
 * is then checked on its own, so that one malformed case is refused while the others are decided.
 */
export const CasesEnvelopeSchema = z.strictObject({
  name: text,
  task: text,
  cases: z.array(z.unknown()),
})

// ── annotations.json ───────────────────────────────────────────────────────────────────────

export const JudgementSchema = z.strictObject({
  rating: RatingSchema,
  /** Why the reviewer rated so; for an omission, names the absent requirement. */
  reason: text,
  /** Must be the criterion's own reference quote. */
  reference_quote: text,
  /** An excerpt of the answer text, or `""` for an omission. */
  answer_span: z.string(),
})
export type Judgement = z.infer<typeof JudgementSchema>

export const ReviewSchema = z.strictObject({
  answer_id: text,
  answer_sha256: Sha256Schema,
  source_sha256: Sha256Schema,
  rubric_sha256: Sha256Schema,
  judgements: z.record(z.string(), JudgementSchema),
})
export type Review = z.infer<typeof ReviewSchema>

export const AnnotationsFileSchema = z.strictObject({
  origin: text,
  reviews: z.array(ReviewSchema),
})
export type AnnotationsFile = z.infer<typeof AnnotationsFileSchema>

/** The file as a whole (each review also needs its answer_id); each is checked with its case. */
export const AnnotationsEnvelopeSchema = z.strictObject({
  origin: text,
  reviews: z.array(z.unknown()),
})
