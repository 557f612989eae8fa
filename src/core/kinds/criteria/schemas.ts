import { z } from 'zod'
import { NonEmptyText, SchemaReferenceSchema, Sha256Schema, SplitSchema } from '../../common/primitives.js'

/** The three ratings a reviewer can give a criterion. */
export const RATINGS = ['meets', 'does_not_meet', 'uncertain'] as const
export const RatingSchema = z.enum(RATINGS, { error: 'one of "meets", "does_not_meet", "uncertain"' })
/** A judgement's rating of one criterion: `meets`, `does_not_meet` or `uncertain`. */
export type Rating = z.infer<typeof RatingSchema>

const text = NonEmptyText

// ── rubric.json ────────────────────────────────────────────────────────────────────────────

export const CriterionSchema = z.strictObject({
  /** Stable identifier, used as the key of a review's judgements. */
  id: text.describe('Stable identifier of the criterion: reviews name their judgements by it.'),
  /** The requirement a reviewer applies. */
  rule: text.describe('The requirement the reviewer checks the answer against.'),
  /** The sentence of the source this criterion rests on; it must occur in `source.txt`. */
  reference_quote: text.describe('The sentence of source.txt this criterion rests on, copied exactly.'),
})
/** One criterion of a rubric: its id, its rule and the reference quote it rests on. */
export type Criterion = z.infer<typeof CriterionSchema>

export const RubricSchema = z.strictObject({
  $schema: SchemaReferenceSchema.optional(),
  id: text.describe('Identifier of the rubric, shown with its version in records.'),
  version: z.int().min(1).describe('Revision number of the rubric, from 1.'),
  /** The question the rubric was written for: a case asking anything else is refused. */
  task: text.describe('The question the rubric was written for; a case asking any other question is refused.'),
  /** The decision rule in prose, for readers; the program applies the all-criteria rule. */
  acceptance: text.describe(
    'The decision rule in prose, for readers. The program applies its own: a missing or uncertain judgement leaves a case pending, any does_not_meet rejects it, otherwise it is accepted.',
  ),
  ratings: z
    .array(z.string())
    .refine((ratings) => ratings.length === RATINGS.length && RATINGS.every((rating) => ratings.includes(rating)), {
      error: 'exactly the three ratings "meets", "does_not_meet" and "uncertain"',
    })
    // The refinement above, for editors: three distinct ratings out of three is each of them once.
    .meta({
      items: { type: 'string', enum: [...RATINGS] },
      minItems: RATINGS.length,
      maxItems: RATINGS.length,
      uniqueItems: true,
    })
    .describe('The three ratings a reviewer can give, each once, in any order: "meets", "does_not_meet", "uncertain".'),
  criteria: z.array(CriterionSchema).min(1).describe('What an answer must meet, one entry per criterion; at least one.'),
})
/** A criteria fixture's `rubric.json`. */
export type Rubric = z.infer<typeof RubricSchema>

// ── cases.json ─────────────────────────────────────────────────────────────────────────────

export const AnswerSchema = z.strictObject({
  text: text.describe('The answer under review.'),
  citation: text.describe('The source the answer cites.'),
})
/** An answer under review: its text and the source it cites. */
export type Answer = z.infer<typeof AnswerSchema>

export const ExpectedSchema = z.strictObject({
  /** A case always asks for acceptance under the rubric. */
  acceptable: z.literal(true).describe('Always true: a case asks whether the answer is accepted under the rubric.'),
  /** SHA-256 of the raw bytes of `source.txt` the case was written against. */
  source_sha256: Sha256Schema.describe('SHA-256 of the bytes of source.txt this case was written against.'),
  /** SHA-256 of the raw bytes of `rubric.json` the case was written against. */
  rubric_sha256: Sha256Schema.describe('SHA-256 of the bytes of rubric.json this case was written against.'),
  /** Fingerprint of the case's review entry (or of `null` when it has none). */
  review_sha256: Sha256Schema.describe(
    "Fingerprint of this case's review in annotations.json, or of null when it has none; an edited review must be acknowledged here.",
  ),
})
export type Expected = z.infer<typeof ExpectedSchema>

export const CaseSchema = z.strictObject({
  id: text.describe('Identifier of the case, unique in the file; its review names it as answer_id.'),
  split: SplitSchema.optional().describe('The split the case belongs to: "development" (the default) or "held_out".'),
  input: z.strictObject({
    question: z.string().describe("The question asked; it must be the rubric's task."),
    answer: AnswerSchema,
  }),
  expected: ExpectedSchema.describe('The revisions the case is bound to.'),
})
/** One case of `cases.json`: the question, the answer and the revisions it is bound to. */
export type Case = z.infer<typeof CaseSchema>

export const CasesFileSchema = z.strictObject({
  $schema: SchemaReferenceSchema.optional(),
  name: text.describe('Name of the case set, shown in reports.'),
  task: text.describe('Identifier of the task the cases belong to.'),
  cases: z.array(CaseSchema).describe('The cases; each is decided on its own. Empty in a fixture just created.'),
})
/** A criteria fixture's `cases.json`. */
export type CasesFile = z.infer<typeof CasesFileSchema>

/**
 * What must hold for the file as a whole (each case also needs a non-empty string id); each case
 * is then checked on its own, so that one malformed case is refused while the others are decided.
 */
export const CasesEnvelopeSchema = z.strictObject({
  $schema: SchemaReferenceSchema.optional(),
  name: text,
  task: text,
  cases: z.array(z.unknown()),
})

// ── annotations.json ───────────────────────────────────────────────────────────────────────

export const JudgementSchema = z.strictObject({
  rating: RatingSchema.describe('The rating: "meets", "does_not_meet" or "uncertain" (which leaves the case pending).'),
  /** Why the reviewer rated so; for an omission, names the absent requirement. */
  reason: text.describe('Why the reviewer rated so; for an omission, the requirement the answer leaves out.'),
  /** Must be the criterion's own reference quote. */
  reference_quote: text.describe("The criterion's reference_quote, exactly as rubric.json gives it."),
  /** An excerpt of the answer text, or `""` for an omission. */
  answer_span: z.string().describe('The excerpt of the answer text the rating rests on, or "" for an omission.'),
  /** An automated judge's probability that its rating is right; left out by people and by judges that give none. */
  confidence: z
    .number()
    .min(0, { error: 'a confidence from 0 to 1' })
    .max(1, { error: 'a confidence from 0 to 1' })
    .optional()
    .describe("An automated judge's probability, from 0 to 1, that its rating is right; optional."),
})
/** A reviewer's judgement of one criterion: rating, reason, reference quote and answer span. */
export type Judgement = z.infer<typeof JudgementSchema>

export const ReviewSchema = z.strictObject({
  answer_id: text.describe('The id of the case whose answer was reviewed.'),
  answer_sha256: Sha256Schema.describe("Fingerprint of the case's input.answer the reviewer read."),
  source_sha256: Sha256Schema.describe('SHA-256 of the bytes of source.txt the reviewer judged against.'),
  rubric_sha256: Sha256Schema.describe('SHA-256 of the bytes of rubric.json whose criteria the reviewer applied.'),
  judgements: z.record(z.string(), JudgementSchema).describe('One judgement per criterion, keyed by criterion id.'),
})
/** A review of one case: a judgement per criterion, bound to the answer, the source and the rubric. */
export type Review = z.infer<typeof ReviewSchema>

export const AnnotationsFileSchema = z.strictObject({
  $schema: SchemaReferenceSchema.optional(),
  origin: text.describe('Who or what produced the judgements.'),
  reviews: z.array(ReviewSchema).describe('At most one review per case; a case without one stays pending.'),
})
/** A criteria fixture's `annotations.json`: the adopted reviews. */
export type AnnotationsFile = z.infer<typeof AnnotationsFileSchema>
