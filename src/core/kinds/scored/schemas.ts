import { z } from 'zod'
import { SchemaReferenceSchema, Sha256Schema, SplitSchema } from '../../common/primitives.js'
import { trimVerdict, VERDICT_SPACE } from './dimensions/verdict.js'

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
  id: text.describe('Identifier of the issue, unique in the case; a claim that finds it names it as planted_issue.'),
  /** Where the flaw is: file, function, line or clause. */
  location: text.describe('Where the flaw is: file, function, line or clause.'),
  /** What the flaw is. */
  description: text.describe('What the flaw is.'),
})
export type PlantedIssue = z.infer<typeof PlantedIssueSchema>

/** What the case asks and what a correct debate finds: everything a review is judged against. */
export const CaseSpecSchema = z.strictObject({
  /** The code or specification both systems receive. */
  input: text.describe('The code or specification both systems receive.'),
  ideal_debate_resolution: ResolutionTypeSchema.describe('How a correct debate of this case ends.'),
  /** The maximum number of rounds the debate loop may run. */
  max_rounds: z.int().min(1).describe('The most rounds the debate loop may run; agreement after them scores 0.'),
  ground_truth: z.strictObject({
    planted_issues: z.array(PlantedIssueSchema).describe('The flaws planted in the input, possibly none.'),
    /** `null` or absent: final_verdict_correctness is excluded for the case. */
    final_verdict: z
      .string()
      .refine((verdict) => trimVerdict(verdict) !== '', { error: 'a non-blank verdict, or null' })
      // The refinement above, for editors: at least one character that trimming keeps.
      .meta({ pattern: `[^${VERDICT_SPACE}]` })
      .nullable()
      .optional()
      .describe(
        'The correct verdict, compared after trimming white space (Unicode White_Space and U+FEFF) and lower-casing; null or absent leaves final_verdict_correctness unscored.',
      ),
  }),
})
export type CaseSpec = z.infer<typeof CaseSpecSchema>

/** Who speaks in a debate transcript. */
export const AGENTS = ['critique', 'defense', 'orchestrator'] as const

/** One turn of a debate transcript: its round, the agent speaking and what it said. */
export const TurnSchema = z.strictObject({
  round: z.int().min(1).describe('The round of the turn, from 1.'),
  agent: z.enum(AGENTS, { error: 'one of "critique", "defense", "orchestrator"' }).describe('Who speaks.'),
  text: text.describe('What the agent said.'),
})
export type Turn = z.infer<typeof TurnSchema>

/** The debate system's output: its transcript, turn by turn. */
export const DebateOutputSchema = z.strictObject({
  transcript: z.array(TurnSchema).min(1).describe('The debate, turn by turn; at least one turn.'),
})
export type DebateOutput = z.infer<typeof DebateOutputSchema>

/** The trivial baseline's output: one answer, then a self-critique of it; no revision. */
export const BaselineOutputSchema = z.strictObject({
  answer: text.describe("The baseline's single answer."),
  self_critique: text.describe("The baseline's critique of its own answer."),
})
export type BaselineOutput = z.infer<typeof BaselineOutputSchema>

/** One benchmark case: its spec, the outputs of both systems and the revisions it expects. */
export const ScoredCaseSchema = z.strictObject({
  id: text.describe('Identifier of the case, unique in the file; its reviews name it as case_id.'),
  spec: CaseSpecSchema.describe('What the case asks and what a correct debate finds; reviews are judged against it.'),
  outputs: z
    .strictObject({
      debate: DebateOutputSchema.describe("The debate system's transcript."),
      baseline: BaselineOutputSchema.describe("The trivial baseline's answer and self-critique."),
    })
    .describe('What each system produced for the case.'),
  expected: z
    .strictObject({
      /** SHA-256 of the raw bytes of `evaluation_rubric.json` the case was written against. */
      rubric_sha256: Sha256Schema.describe('SHA-256 of the bytes of evaluation_rubric.json this case was written against.'),
      /** Fingerprint of the case's debate review (or of `null` when it has none). */
      debate_review_sha256: Sha256Schema.describe("Fingerprint of this case's debate review, or of null when it has none."),
      /** Fingerprint of the case's baseline review (or of `null` when it has none). */
      baseline_review_sha256: Sha256Schema.describe("Fingerprint of this case's baseline review, or of null when it has none."),
    })
    .describe('The revisions the case is bound to; an edited review must be acknowledged here.'),
})
/** One case of a scored fixture's `cases.json`: its spec, both systems' outputs and the revisions it is bound to. */
export type ScoredCase = z.infer<typeof ScoredCaseSchema>

/** The file as a whole; each case is checked on its own, so one malformed case refuses only itself. */
export const ScoredCasesEnvelopeSchema = z.strictObject({
  $schema: SchemaReferenceSchema.optional(),
  name: text,
  /** The split of the whole benchmark: a held-out benchmark is its own directory with its own gate. */
  split: SplitSchema.optional(),
  cases: z.array(z.unknown()),
})

/**
 * `cases.json` with every case in full. Loading checks {@link ScoredCasesEnvelopeSchema} and then
 * each case on its own; this whole-file form is what editors validate against.
 */
export const ScoredCasesFileSchema = z.strictObject({
  $schema: SchemaReferenceSchema.optional(),
  name: text.describe('Name of the benchmark, shown in reports.'),
  split: SplitSchema.optional().describe(
    'The split of the whole benchmark: "development" (the default) or "held_out"; a held-out benchmark is its own directory.',
  ),
  cases: z.array(ScoredCaseSchema).describe('The cases; each is decided on its own. Empty in a fixture just created.'),
})
/** A scored fixture's `cases.json`. */
export type ScoredCasesFile = z.infer<typeof ScoredCasesFileSchema>

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
  id: text.describe('Identifier of the claim, unique in the review: C1, C2, …'),
  /** An exact excerpt of the critique (several atomic claims may share one sentence). */
  span: text.describe('An exact excerpt of the critique making the claim; atomic claims may share one sentence.'),
  validity: ValiditySchema.describe('Whether the claim finds a planted issue, another real issue, or nothing valid.'),
  /** The planted issue the claim finds: required for `planted`, absent otherwise. */
  planted_issue: text.optional().describe('The id of the planted issue the claim finds: present exactly when validity is "planted".'),
  /** `full`, or `partial` (location right but characterization materially wrong, or the reverse): required for `planted`. */
  credit: CreditSchema.optional().describe(
    'Recall credit, present exactly when validity is "planted": "full", or "partial" when the location is right but the characterization materially wrong, or the reverse.',
  ),
  reason: text.describe('Why the reviewer judged the claim so.'),
}

/** The defense's final response to one claim, as the reviewer judged it. */
export const DefenseResponseSchema = z.strictObject({
  response: ResponseKindSchema.describe('How the defense finally answered the claim.'),
  /** An exact excerpt of a defense turn; `""` for `no_engagement`. */
  span: z.string().describe('An exact excerpt of the defense turn giving the response; "" exactly for no_engagement.'),
  /** Required after conceding (fully or hedged) a valid claim, absent otherwise: the (C) instance. */
  position_updated: z
    .boolean()
    .optional()
    .describe('Whether the defense then updated its conclusion or fix: present exactly when it concedes (fully or hedged) a valid claim.'),
})
export type DefenseResponse = z.infer<typeof DefenseResponseSchema>

/** An atomic claim of the debate's critique, with the defense's response to it. */
export const DebateClaimSchema = z.strictObject({
  ...claimFields,
  defense: DefenseResponseSchema.describe("The defense's final response to the claim."),
})
export type DebateClaim = z.infer<typeof DebateClaimSchema>

/** An atomic claim of the baseline's self-critique, with the original answer's handling of it. */
export const BaselineClaimSchema = z.strictObject({
  ...claimFields,
  /** Required for a valid claim, absent for an invalid one. */
  answer_handling: HandlingSchema.optional().describe('Whether the original answer already handled the flaw: present exactly when the claim is valid.'),
})
export type BaselineClaim = z.infer<typeof BaselineClaimSchema>

/** What every atomic claim carries, whichever system made it. */
export type Claim = Pick<DebateClaim, 'id' | 'span' | 'validity' | 'planted_issue' | 'credit' | 'reason'>

const testFields = {
  /** An exact excerpt of the output where the test is proposed. */
  span: text.describe('An exact excerpt of the output proposing the test.'),
  quality: TestQualitySchema.describe('How well the test tells the two positions apart.'),
  reason: text.describe('Why the reviewer judged the test so.'),
}

const bindingFields = {
  case_id: text.describe('The id of the reviewed case.'),
  /** SHA-256 of the raw bytes of `evaluation_rubric.json` the review applied. */
  rubric_sha256: Sha256Schema.describe('SHA-256 of the bytes of evaluation_rubric.json the reviewer applied.'),
  /** Fingerprint of the case's `spec` the review judged against. */
  spec_sha256: Sha256Schema.describe("Fingerprint of the case's spec the reviewer judged against."),
  /** Fingerprint of the reviewed system's output (`outputs.debate` or `outputs.baseline`). */
  output_sha256: Sha256Schema.describe("Fingerprint of the reviewed output: the case's outputs.debate or outputs.baseline."),
}

/** A reviewer's itemized annotation of the debate system's output on one case. */
export const DebateReviewSchema = z.strictObject({
  ...bindingFields,
  system: z.literal('debate').describe('A review of the debate system.'),
  claims: z.array(DebateClaimSchema).describe("The critique's atomic claims: a sentence making two claims is two claims."),
  resolution: z
    .strictObject({
      /** The resolution type of the critique's final explicit statement; `null` if it made none. */
      critique_final: ResolutionTypeSchema.nullable().describe("The resolution type of the critique's final explicit statement, or null if it made none."),
      /** The resolution type of the defense's final explicit statement; `null` if it made none. */
      defense_final: ResolutionTypeSchema.nullable().describe("The resolution type of the defense's final explicit statement, or null if it made none."),
      more_rounds_than_necessary: z.boolean().describe('Whether the debate reached its resolution in more rounds than it needed.'),
      reason: text.describe('Why the reviewer judged the resolution so.'),
    })
    .describe('How the debate ended.'),
  /** The test the debate closes on; `null` when neither agent proposes a concrete test. */
  empirical_test: z
    .strictObject({
      proposed_by: z.enum(['critique', 'defense'], { error: 'one of "critique", "defense"' }).describe('The agent proposing the test.'),
      ...testFields,
    })
    .nullable()
    .describe('The empirical test the debate closes on, or null when neither agent proposes a concrete one.'),
  /** The last explicit verdict at debate close, as an exact excerpt of the transcript; `null` if none. */
  final_verdict: text.nullable().describe("The last explicit verdict, an exact excerpt of the transcript's last round, or null if none was emitted."),
})
/** A review of a case's debate transcript: claims, resolution, empirical test and final verdict. */
export type DebateReview = z.infer<typeof DebateReviewSchema>

/** A reviewer's itemized annotation of the trivial baseline's output on one case. */
export const BaselineReviewSchema = z.strictObject({
  ...bindingFields,
  system: z.literal('baseline').describe('A review of the trivial baseline.'),
  claims: z.array(BaselineClaimSchema).describe("The self-critique's atomic claims: a sentence making two claims is two claims."),
  resolution: z
    .strictObject({
      /** The resolution type the self-critique reaches; `null` if it reaches none. */
      reached: ResolutionTypeSchema.nullable().describe('The resolution type the self-critique reaches, or null if none.'),
      reason: text.describe('Why the reviewer judged the resolution so.'),
    })
    .describe('Where the self-critique ends up.'),
  /** The test the self-critique proposes; `null` if none. */
  empirical_test: z.strictObject(testFields).nullable().describe('The empirical test the self-critique proposes, or null if none.'),
  /** The answer's stated conclusion, as an exact excerpt of the answer; `null` if none. */
  final_verdict: text.nullable().describe("The answer's stated conclusion, an exact excerpt of the answer, or null if none."),
})
/** A review of a case's baseline answer. */
export type BaselineReview = z.infer<typeof BaselineReviewSchema>

/**
 * `annotations.json` with every review in full. Loading checks the file's envelope and then each
 * review with its case; this whole-file form is what editors validate against.
 */
export const ScoredAnnotationsFileSchema = z.strictObject({
  $schema: SchemaReferenceSchema.optional(),
  origin: text.describe('Who or what produced the reviews.'),
  reviews: z
    .array(z.discriminatedUnion('system', [DebateReviewSchema, BaselineReviewSchema]))
    .describe('At most one review per case and system; a case without a debate review stays pending.'),
})
/** A scored fixture's `annotations.json`: the adopted debate and baseline reviews. */
export type ScoredAnnotationsFile = z.infer<typeof ScoredAnnotationsFileSchema>
