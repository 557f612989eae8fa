/**
 * The format of `sample.json`: which cases were drawn for human review, by what design and with
 * what inclusion probabilities (docs/format.md#the-review-sample). Schemas and types only: reading
 * and writing the file is sample-file.ts, what it must agree with sample-check.ts.
 */
import { z } from 'zod'
import { Sha256Schema, SplitSchema } from '../common/primitives.js'

/** The file's name in the fixture directory, in either layout. */
export const SAMPLE_FILE = 'sample.json'
/** The `format` member that marks a sample file. */
export const SAMPLE_FORMAT = 'vitest-rubric/sample'

/** How a draw chose its cases. */
export const SAMPLE_METHODS = ['uniform', 'stratified', 'active'] as const
/** How a draw chose its cases: uniformly, within strata, or each case on its own with a probability from the judge's uncertainty (active). */
export type SampleMethod = (typeof SAMPLE_METHODS)[number]

/** What a stratified design's strata are: the splits, or within each split the judge's decision or the criterion it is least sure of. */
export const SAMPLE_STRATA = ['split', 'decision', 'criterion'] as const
export type SampleStrata = (typeof SAMPLE_STRATA)[number]

const Count = z.number().int().min(0)

/** One run of `vitest-rubric sample`: the first draw, or an extension of the sample. */
export const SampleDrawSchema = z.strictObject({
  seed: z.string().describe('The seed the draw was made from, as given.'),
  method: z
    .enum(SAMPLE_METHODS)
    .describe(
      '"uniform": a simple random sample without replacement; "stratified": within strata (see strata), proportional allocation; "active": each case on its own, with a probability from the judge\'s uncertainty.',
    ),
  size: z.number().int().min(0).describe('How many cases this draw added: 1 or more, or 0 for a further phase of an active design that drew none.'),
  drawn_at: z.string().describe('When the draw was made (ISO 8601).'),
  population: Count.describe('N: the cases of the fixture at the draw.'),
  splits: z.partialRecord(SplitSchema, Count).describe('N_h: the cases of each split at the draw; the strata of a stratified draw.'),
  population_sha256: Sha256Schema.describe("Fingerprint of the cases' ids and splits at the draw: what an extension must find unchanged."),
  case_set_sha256: Sha256Schema.nullable().describe('The evaluation identity caseSetSha256 of the fixture at the draw.'),
  strata: z
    .enum(SAMPLE_STRATA)
    .optional()
    .describe('A stratified draw\'s strata: "split" (also when left out), or "decision" or "criterion" of the judge within each split.'),
  merged_strata: z
    .record(z.string().min(1), z.string().min(1))
    .optional()
    .describe("A draw stratified by the judge: each stratum of fewer than 2 cases, and the stratum of its split it was merged into (the cases' stratum)."),
  judge: z.string().min(1).optional().describe('The judge whose labels the design was drawn by (active, or strata by decision or criterion).'),
  floor: z.number().gt(0).lte(1).optional().describe("An active draw's floor τ: the share of the expected size spread evenly over every case."),
  expected_size: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("An active draw's expected size: how many cases it adds in expectation (the first, the sum of its inclusion probabilities)."),
  inclusion_probabilities: z
    .array(z.number().gt(0, { error: 'an inclusion probability in (0, 1]' }).lte(1, { error: 'an inclusion probability in (0, 1]' }))
    .optional()
    .describe(
      "An active draw: every case's inclusion probability under the draws up to this one, in the code-point order of the case ids (the order population_sha256 fingerprints); what an extension starts from.",
    ),
  like: z
    .strictObject({ file: z.string().min(1), sha256: Sha256Schema })
    .optional()
    .describe('The sample this one copies the design of (`sample --like`): its file as shown and the SHA-256 of its bytes at the copy.'),
})
export type SampleDraw = z.infer<typeof SampleDrawSchema>

/** One case drawn for review. */
export const SampledCaseSchema = z.strictObject({
  id: z.string().min(1),
  draw: Count.describe('The index in `draws` of the draw that drew it.'),
  probability: z
    .number()
    .gt(0, { error: 'an inclusion probability in (0, 1]' })
    .lte(1, { error: 'an inclusion probability in (0, 1]' })
    .describe('Its inclusion probability under the design of every draw so far.'),
  stratum: z
    .string()
    .nullable()
    .describe(
      'The stratum it was drawn from for a stratified design (its split, or <split>/<decision or criterion> by the judge); null for a uniform or active one.',
    ),
  split: SplitSchema,
  answer_sha256: Sha256Schema.nullable().describe('The fingerprint of its answer at the draw, as reviews bind it; null when it had none.'),
  least_sure: z
    .strictObject({
      criterion: z.string().nullable(),
      confidence: z.number().min(0).max(1).nullable(),
    })
    .optional()
    .describe(
      "For a design drawn by the judge's confidence: the criterion it was least sure of at the draw (null: no current label) and its confidence (null: none given, or the rating uncertain).",
    ),
})
export type SampledCase = z.infer<typeof SampledCaseSchema>

export const SampleFileSchema = z.strictObject({
  format: z.literal(SAMPLE_FORMAT),
  version: z.literal(1),
  draws: z.array(SampleDrawSchema).min(1),
  cases: z.array(SampledCaseSchema),
})
/** The contents of `sample.json`. */
export type SampleFile = z.infer<typeof SampleFileSchema>
