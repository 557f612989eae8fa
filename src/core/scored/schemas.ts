import { z } from 'zod'
import { Sha256Schema, SplitSchema } from '../criteria/schemas.js'

const text = z.string().min(1)

/** The three resolution types of `debate_resolution_quality`. */
export const RESOLUTION_TYPES = ['critique_wins', 'defense_wins', 'empirical_test_agreed'] as const
export const ResolutionTypeSchema = z.enum(RESOLUTION_TYPES, {
  error: 'one of "critique_wins", "defense_wins", "empirical_test_agreed"',
})
export type ResolutionType = z.infer<typeof ResolutionTypeSchema>

/** The two systems a case is run through: the debate system under test and the trivial baseline. */
export const SYSTEMS = ['debate', 'baseline'] as const
export const SystemSchema = z.enum(SYSTEMS, { error: 'one of "debate", "baseline"' })
export type System = z.infer<typeof SystemSchema>

// ── cases.json ─────────────────────────────────────────────────────────────────────────────

export const PlantedIssueSchema = z.strictObject({
  /** Stable identifier, referred to by the claims that find the issue. */
  id: text,
  /** Where the flaw is: file, function, line or clause. */
  location: text,
  /** What the flaw is. */
  description: text,
})
export type PlantedIssue = z.infer<typeof PlantedIssueSchema>

/** What the case asks and what a correct debate finds: everything a review is judged against. */
export const CaseSpecSchema = z.strictObject({
  /** The code or specification both systems receive. */
  input: text,
  ideal_debate_resolution: ResolutionTypeSchema,
  /** The maximum number of rounds the debate loop may run. */
  max_rounds: z.int().min(1),
  ground_truth: z.strictObject({
    planted_issues: z.array(PlantedIssueSchema),
    /** `null` or absent: final_verdict_correctness is excluded for the case. */
    final_verdict: z
      .string()
      .refine((verdict) => verdict.trim() !== '', { error: 'a non-blank verdict, or null' })
      .nullable()
      .optional(),
  }),
})
export type CaseSpec = z.infer<typeof CaseSpecSchema>

/** Who speaks in a debate transcript. */
export const AGENTS = ['critique', 'defense', 'orchestrator'] as const

/** One turn of a debate transcript: its round, the agent speaking and what it said. */
export const TurnSchema = z.strictObject({
  round: z.int().min(1),
  agent: z.enum(AGENTS, { error: 'one of "critique", "defense", "orchestrator"' }),
  text,
})
export type Turn = z.infer<typeof TurnSchema>

/** The debate system's output: its transcript, turn by turn. */
export const DebateOutputSchema = z.strictObject({
  transcript: z.array(TurnSchema).min(1),
})
export type DebateOutput = z.infer<typeof DebateOutputSchema>

/** The trivial baseline's output: one answer, then a self-critique of it; no revision. */
export const BaselineOutputSchema = z.strictObject({
  answer: text,
  self_critique: text,
})
export type BaselineOutput = z.infer<typeof BaselineOutputSchema>

/** One benchmark case: its spec, the outputs of both systems and the revisions it expects. */
export const ScoredCaseSchema = z.strictObject({
  id: text,
  spec: CaseSpecSchema,
  outputs: z.strictObject({
    debate: DebateOutputSchema,
    baseline: BaselineOutputSchema,
  }),
  expected: z.strictObject({
    /** SHA-256 of the raw bytes of `evaluation_rubric.json` the case was written against. */
    rubric_sha256: Sha256Schema,
    /** Fingerprint of the case's debate review (or of `null` when it has none). */
    debate_review_sha256: Sha256Schema,
    /** Fingerprint of the case's baseline review (or of `null` when it has none). */
    baseline_review_sha256: Sha256Schema,
  }),
})
export type ScoredCase = z.infer<typeof ScoredCaseSchema>

/** The file as a whole; each case is checked on its own, so one malformed case refuses only itself. */
export const ScoredCasesEnvelopeSchema = z.strictObject({
  name: text,
  /** The split of the whole benchmark: a held-out benchmark is its own directory with its own gate. */
  split: SplitSchema.optional(),
  cases: z.array(z.looseObject({ id: text })),
})

// ── annotations.json ───────────────────────────────────────────────────────────────────────

/** How a reviewer judged one atomic claim of a critique. */
export const VALIDITIES = ['planted', 'demonstrably_real', 'invalid'] as const
export const ValiditySchema = z.enum(VALIDITIES, { error: 'one of "planted", "demonstrably_real", "invalid"' })
export type Validity = z.infer<typeof ValiditySchema>

/** Recall credit of a claim that finds a planted issue. */
export const CREDITS = ['full', 'partial'] as const
export const CreditSchema = z.enum(CREDITS, { error: 'one of "full", "partial"' })
export type Credit = z.infer<typeof CreditSchema>

/** How the defense answered one claim. */
export const RESPONSES = ['concede', 'hedged_concession', 'reject_with_reasoning', 'reject_without_reasoning', 'no_engagement'] as const
export const ResponseKindSchema = z.enum(RESPONSES, {
  error: 'one of "concede", "hedged_concession", "reject_with_reasoning", "reject_without_reasoning", "no_engagement"',
})
export type ResponseKind = z.infer<typeof ResponseKindSchema>

/** Whether the baseline's original answer already handled a flaw its self-critique identifies. */
export const HANDLINGS = ['already_correct', 'not_handled'] as const
export const HandlingSchema = z.enum(HANDLINGS, { error: 'one of "already_correct", "not_handled"' })
export type Handling = z.infer<typeof HandlingSchema>

/** How well a proposed empirical test distinguishes the two positions. */
export const TEST_QUALITIES = ['diagnostic', 'underspecified', 'non_diagnostic'] as const
export const TestQualitySchema = z.enum(TEST_QUALITIES, { error: 'one of "diagnostic", "underspecified", "non_diagnostic"' })
export type TestQuality = z.infer<typeof TestQualitySchema>

const claimFields = {
  /** Unique within the review: `C1`, `C2`, … */
  id: text,
  /** An exact excerpt of the critique (several atomic claims may share one sentence). */
  span: text,
  validity: ValiditySchema,
  /** The planted issue the claim finds: required for `planted`, absent otherwise. */
  planted_issue: text.optional(),
  /** `full`, or `partial` (location right but characterization materially wrong, or the reverse): required for `planted`. */
  credit: CreditSchema.optional(),
  reason: text,
}

/** The defense's final response to one claim, as the reviewer judged it. */
export const DefenseResponseSchema = z.strictObject({
  response: ResponseKindSchema,
  /** An exact excerpt of a defense turn; `""` for `no_engagement`. */
  span: z.string(),
  /** Required after conceding (fully or hedged) a valid claim, absent otherwise: the (C) instance. */
  position_updated: z.boolean().optional(),
})
export type DefenseResponse = z.infer<typeof DefenseResponseSchema>

/** An atomic claim of the debate's critique, with the defense's response to it. */
export const DebateClaimSchema = z.strictObject({ ...claimFields, defense: DefenseResponseSchema })
export type DebateClaim = z.infer<typeof DebateClaimSchema>

/** An atomic claim of the baseline's self-critique, with the original answer's handling of it. */
export const BaselineClaimSchema = z.strictObject({
  ...claimFields,
  /** Required for a valid claim, absent for an invalid one. */
  answer_handling: HandlingSchema.optional(),
})
export type BaselineClaim = z.infer<typeof BaselineClaimSchema>

/** What every atomic claim carries, whichever system made it. */
export type Claim = Pick<DebateClaim, 'id' | 'span' | 'validity' | 'planted_issue' | 'credit' | 'reason'>

const testFields = {
  /** An exact excerpt of the output where the test is proposed. */
  span: text,
  quality: TestQualitySchema,
  reason: text,
}

const bindingFields = {
  case_id: text,
  /** SHA-256 of the raw bytes of `evaluation_rubric.json` the review applied. */
  rubric_sha256: Sha256Schema,
  /** Fingerprint of the case's `spec` the review judged against. */
  spec_sha256: Sha256Schema,
  /** Fingerprint of the reviewed system's output (`outputs.debate` or `outputs.baseline`). */
  output_sha256: Sha256Schema,
}

/** A reviewer's itemized annotation of the debate system's output on one case. */
export const DebateReviewSchema = z.strictObject({
  ...bindingFields,
  system: z.literal('debate'),
  claims: z.array(DebateClaimSchema),
  resolution: z.strictObject({
    /** The resolution type of the critique's final explicit statement; `null` if it made none. */
    critique_final: ResolutionTypeSchema.nullable(),
    /** The resolution type of the defense's final explicit statement; `null` if it made none. */
    defense_final: ResolutionTypeSchema.nullable(),
    more_rounds_than_necessary: z.boolean(),
    reason: text,
  }),
  /** The test the debate closes on; `null` when neither agent proposes a concrete test. */
  empirical_test: z.strictObject({ proposed_by: z.enum(['critique', 'defense'], { error: 'one of "critique", "defense"' }), ...testFields }).nullable(),
  /** The last explicit verdict at debate close, as an exact excerpt of the transcript; `null` if none. */
  final_verdict: text.nullable(),
})
export type DebateReview = z.infer<typeof DebateReviewSchema>

/** A reviewer's itemized annotation of the trivial baseline's output on one case. */
export const BaselineReviewSchema = z.strictObject({
  ...bindingFields,
  system: z.literal('baseline'),
  claims: z.array(BaselineClaimSchema),
  resolution: z.strictObject({
    /** The resolution type the self-critique reaches; `null` if it reaches none. */
    reached: ResolutionTypeSchema.nullable(),
    reason: text,
  }),
  /** The test the self-critique proposes; `null` if none. */
  empirical_test: z.strictObject(testFields).nullable(),
  /** The answer's stated conclusion, as an exact excerpt of the answer; `null` if none. */
  final_verdict: text.nullable(),
})
export type BaselineReview = z.infer<typeof BaselineReviewSchema>

/** The file as a whole; each review is checked with the case it belongs to. */
export const ScoredAnnotationsEnvelopeSchema = z.strictObject({
  origin: text,
  reviews: z.array(z.looseObject({ case_id: text, system: SystemSchema })),
})
