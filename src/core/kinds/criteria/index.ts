import { ORIGIN_PLACEHOLDER } from '../../common/origin.js'
import { valueAt } from '../../common/json-path.js'
import { criteriaComparison } from './compare.js'
import { criteriaJudging } from './judge.js'
import { criteriaMatchers } from './matchers.js'
import { criteriaPage } from './page.js'
import { criteriaPanel } from './panel.js'
import type { KindDefinition } from '../../contract/kind.js'
import { RATINGS } from './schemas.js'
import { CRITERIA_BINDINGS, CRITERIA_TARGETS } from './bindings.js'
import { checkCriteriaCase, checkCriteriaReview } from './checks.js'
import type { CriteriaDecision } from './decision.js'
import { criteriaAuthoring } from './authoring.js'
import { criteriaPresentation } from './present.js'
import { bindCriteriaRubric, type CriteriaRubric } from './rubric.js'
import { decideCriteria } from './rule.js'
import { AnnotationsFileSchema, CaseSchema, CasesEnvelopeSchema, CasesFileSchema, ReviewSchema, RubricSchema, type Case, type Review } from './schemas.js'
import { BOUND_ELSEWHERE, ReviewFileEnvelopeSchema } from '../../engine/documents.js'
import { lazyTerminal } from '../lazy-terminal.js'

/**
 * Hard criteria with hash-bound reviews, as the docuctl lab defines them: `rubric.json` quotes
 * `source.txt`; each case of `cases.json` is an answer to the rubric's task; `annotations.json`
 * holds one review per case, a judgement per criterion. A case is accepted only when every
 * criterion meets; a missing or uncertain judgement keeps it pending.
 */
export const criteriaKind: KindDefinition<CriteriaRubric, Case, Review, CriteriaDecision, null> = {
  name: 'criteria',
  description: 'hard criteria with hash-bound reviews (rubric.json, source.txt, cases.json, annotations.json)',
  files: { rubric: 'rubric.json', source: 'source.txt', cases: 'cases.json', annotations: 'annotations.json' },
  bindRubric: bindCriteriaRubric,
  schemas: {
    casesEnvelope: CasesEnvelopeSchema,
    annotationsEnvelope: ReviewFileEnvelopeSchema,
    case: CaseSchema,
    review: () => ReviewSchema,
    caseHint:
      'a case holds id, an optional split ("development" or "held_out"), input { question, answer { text, citation } } and expected { acceptable: true, source_sha256, rubric_sha256, review_sha256 }.',
    reviewHint: () =>
      'a review holds answer_id, answer_sha256, source_sha256, rubric_sha256 and judgements; each judgement holds rating ("meets", "does_not_meet" or "uncertain"), a non-empty reason, the criterion\'s reference_quote and an answer_span ("" for an omission).',
    casesHint: 'cases.json holds exactly name, task and a list of cases, each with a non-empty string id.',
    annotationsHint: 'annotations.json holds exactly origin and a list of reviews, each with the answer_id of its case.',
    jsonSchemas: [
      {
        name: 'rubric.schema.json',
        schema: RubricSchema,
        title: 'vitest-rubric criteria fixture: rubric.json',
        description:
          'The rubric of a criteria fixture: the task it was written for and the criteria an answer must meet, each resting on a quote of source.txt.',
      },
      {
        name: 'cases.schema.json',
        schema: CasesFileSchema,
        title: 'vitest-rubric criteria fixture: cases.json',
        description: `The cases of a criteria fixture: each an answer to the rubric's task, bound to the revisions of source.txt, rubric.json and its review. ${BOUND_ELSEWHERE}`,
      },
      {
        name: 'annotations.schema.json',
        schema: AnnotationsFileSchema,
        title: 'vitest-rubric criteria fixture: annotations.json',
        description: `The reviews of a criteria fixture: per case, a judgement of each criterion, bound to the answer, source and rubric it judged. ${BOUND_ELSEWHERE}`,
      },
    ],
  },
  reviews: { caseKey: 'answer_id', slots: ['review'], slotName: () => 'a review' },
  splitOf: (value) => (valueAt(value, ['split']) === 'held_out' ? 'held_out' : 'development'),
  bindings: CRITERIA_BINDINGS,
  targets: CRITERIA_TARGETS,
  checkCase: checkCriteriaCase,
  checkReview: checkCriteriaReview,
  decide: decideCriteria,
  summarize: () => null,
  present: criteriaPresentation,
  authoring: criteriaAuthoring,
  page: criteriaPage,
  panel: criteriaPanel,
  compare: criteriaComparison,
  terminal: lazyTerminal(
    async () => (await import('./terminal/review.js')).promptCriteriaReview,
    async () => (await import('./terminal/adjudicate.js')).promptCriteriaAdjudication,
  ),
  judging: criteriaJudging,
  matchers: criteriaMatchers,
  scaffold: {
    nextSteps: (dir) => [
      `  vitest-rubric add ${dir} --id <id> --answer <text> --citation <text>   # a case, pending until reviewed`,
      `  vitest-rubric review ${dir} --case <id>   # record its review (asks on a terminal)`,
    ],
    skeleton: (name, schema) => ({
      'rubric.json': json({
        $schema: schema('rubric.schema.json'),
        id: name,
        version: 1,
        task: 'The question every case of this fixture asks: replace it with yours.',
        acceptance: 'Acceptable when every criterion is judged meets; a missing or uncertain judgement keeps the case pending.',
        ratings: [...RATINGS],
        criteria: [{ id: 'example', rule: 'Replace with a requirement an acceptable answer meets.', reference_quote: SKELETON_SOURCE.trim() }],
      }),
      'source.txt': SKELETON_SOURCE,
    }),
    rubricFiles: ['rubric.json', 'source.txt'],
    emptyCases: (name, schema) => ({ $schema: schema('cases.schema.json'), name, task: name, cases: [] }),
    emptyAnnotations: (schema) => ({ $schema: schema('annotations.schema.json'), origin: ORIGIN_PLACEHOLDER, reviews: [] }),
  },
}

/** The placeholder the skeleton's criterion quotes: the source file starts with it. */
const SKELETON_SOURCE = 'Replace this file with the source text the criteria quote.\n'

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}
