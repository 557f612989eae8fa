import { ORIGIN_PLACEHOLDER } from '../../common/origin.js'
import { valueAt } from '../../common/json-path.js'
import { scoredComparison } from './compare.js'
import { scoredPage } from './page.js'
import { scoredPanel } from './panel.js'
import { BOUND_ELSEWHERE, ReviewFileEnvelopeSchema } from '../../engine/documents.js'
import type { KindDefinition } from '../../contract/kind.js'
import { benchmarkFigures, type BenchmarkFigures } from './benchmark.js'
import { SCORED_BINDINGS, SCORED_TARGETS } from './bindings.js'
import { checkScoredCase, checkScoredReview } from './checks.js'
import type { ScoredDecision } from './decision.js'
import { scoredAuthoring } from './authoring.js'
import { scoredPresentation } from './present.js'
import { scoredMatchers } from './matchers.js'
import { bindScoredRubric, EvaluationRubricSchema, type ScoredRubric } from './rubric.js'
import { decideScored } from './rule.js'
import { lazyTerminal } from '../lazy-terminal.js'
import {
  BaselineReviewSchema,
  DebateReviewSchema,
  ScoredCaseSchema,
  ScoredAnnotationsFileSchema,
  ScoredCasesEnvelopeSchema,
  ScoredCasesFileSchema,
  SYSTEMS,
  type BaselineReview,
  type DebateReview,
  type ScoredCase,
} from './schemas.js'

/**
 * Dimension scores of a debate benchmark and its trivial baseline, as the debate evaluation rubric
 * defines them: `evaluation_rubric.json` names the dimensions, thresholds and rules; each case of
 * `cases.json` holds a spec and both systems' outputs; `annotations.json` holds a reviewer's
 * itemized review of each output. A case passes or fails the per-case rule, or waits for manual
 * review; the benchmark gate and the baseline margin are checks of the fixture as a whole.
 */
export const scoredKind: KindDefinition<ScoredRubric, ScoredCase, DebateReview | BaselineReview, ScoredDecision, BenchmarkFigures> = {
  name: 'scored',
  description: 'dimension scores of a debate benchmark and its baseline (evaluation_rubric.json, cases.json, annotations.json)',
  files: { rubric: 'evaluation_rubric.json', cases: 'cases.json', annotations: 'annotations.json' },
  bindRubric: bindScoredRubric,
  schemas: {
    casesEnvelope: ScoredCasesEnvelopeSchema,
    annotationsEnvelope: ReviewFileEnvelopeSchema,
    case: ScoredCaseSchema,
    review: (slot) => (slot === 'debate' ? DebateReviewSchema : BaselineReviewSchema),
    caseHint:
      'a case holds id, spec { input, ideal_debate_resolution, max_rounds, ground_truth { planted_issues, final_verdict? } }, outputs { debate { transcript }, baseline { answer, self_critique } } and expected { rubric_sha256, debate_review_sha256, baseline_review_sha256 } (see docs/scored.md).',
    reviewHint: (slot) =>
      `a ${slot} review holds case_id, system, rubric_sha256, spec_sha256, output_sha256, claims, resolution, empirical_test and final_verdict (see docs/scored.md for each field).`,
    casesHint: 'cases.json holds exactly name, an optional split ("development" or "held_out") and a list of cases, each with a non-empty string id.',
    annotationsHint: 'annotations.json holds exactly origin and a list of reviews, each with the case_id of its case and its system ("debate" or "baseline").',
    jsonSchemas: [
      {
        name: 'evaluation_rubric.schema.json',
        schema: EvaluationRubricSchema,
        title: 'vitest-rubric scored fixture: evaluation_rubric.json',
        description: 'The rubric of a scored fixture: the dimensions with their definitions, the pass/fail rule, the thresholds and the trivial baseline.',
      },
      {
        name: 'scored-cases.schema.json',
        schema: ScoredCasesFileSchema,
        title: 'vitest-rubric scored fixture: cases.json',
        description: `The cases of a scored fixture: per case, its spec, the outputs of the debate system and of the trivial baseline, and the revisions it is bound to. ${BOUND_ELSEWHERE}`,
      },
      {
        name: 'scored-annotations.schema.json',
        schema: ScoredAnnotationsFileSchema,
        title: 'vitest-rubric scored fixture: annotations.json',
        description: `The reviews of a scored fixture: per case and system, the reviewer's itemized judgement of the output. ${BOUND_ELSEWHERE}`,
      },
    ],
  },
  reviews: { caseKey: 'case_id', slots: SYSTEMS, slotKey: 'system', slotOption: 'system', slotName: (slot) => `a ${slot} review` },
  splitOf: (_value, document) => (valueAt(document, ['split']) === 'held_out' ? 'held_out' : 'development'),
  bindings: SCORED_BINDINGS,
  targets: SCORED_TARGETS,
  checkCase: checkScoredCase,
  checkReview: checkScoredReview,
  decide: decideScored,
  summarize: (context, decisions, options) => benchmarkFigures(decisions, context.rubric.rules, options),
  present: scoredPresentation,
  authoring: scoredAuthoring,
  page: scoredPage,
  panel: scoredPanel,
  compare: scoredComparison,
  matchers: scoredMatchers,
  terminal: lazyTerminal(
    async () => (await import('./terminal/review.js')).promptScoredReview,
    async () => (await import('./terminal/adjudicate.js')).promptScoredAdjudication,
  ),
  scaffold: {
    nextSteps: (dir) => [
      `  vitest-rubric add ${dir} --id <id> --spec <spec.json> --outputs <outputs.json>   # a case, pending until reviewed`,
      `  vitest-rubric review ${dir} --case <id> --system debate --from <review.json>   # record its review (then --system baseline)`,
    ],
    skeleton: undefined,
    rubricFiles: ['evaluation_rubric.json'],
    emptyCases: (name, schema) => ({ $schema: schema('scored-cases.schema.json'), name, cases: [] }),
    emptyAnnotations: (schema) => ({
      $schema: schema('scored-annotations.schema.json'),
      origin: ORIGIN_PLACEHOLDER,
      reviews: [],
    }),
  },
}
