import { z } from 'zod'
import { isObject } from '../../common/primitives.js'
import type { KindAuthoring } from '../../contract/kind.js'
import type { ScoredRubric } from './rubric.js'
import { BaselineReviewSchema, CaseSpecSchema, DebateReviewSchema, ScoredCaseSchema, type ScoredCase } from './schemas.js'

/** A new benchmark case as `add` takes it: its spec and the outputs of both systems. */
export const ScoredCaseDraftSchema = z.strictObject({
  id: z.string().min(1),
  spec: CaseSpecSchema,
  outputs: ScoredCaseSchema.shape.outputs,
})

const BOUND = { case_id: true, system: true, rubric_sha256: true, spec_sha256: true, output_sha256: true } as const

/** A review of one system as a reviewer or a judge gives it: everything but its case, system and hashes. */
export const ScoredReviewDraftSchemas = {
  debate: DebateReviewSchema.omit(BOUND),
  baseline: BaselineReviewSchema.omit(BOUND),
} as const

const PLACEHOLDER = ''

export const scoredAuthoring: KindAuthoring<ScoredRubric, ScoredCase> = {
  caseDraft: ScoredCaseDraftSchema,
  newCase(_context, value) {
    // The engine parsed the draft with caseDraft already: this parse only gives it its type.
    const draft = ScoredCaseDraftSchema.parse(value)
    return {
      value: {
        id: draft.id,
        spec: draft.spec,
        outputs: draft.outputs,
        expected: { rubric_sha256: PLACEHOLDER, debate_review_sha256: PLACEHOLDER, baseline_review_sha256: PLACEHOLDER },
      },
      problems: [],
    }
  },
  reviewDraft: (slot) => ScoredReviewDraftSchemas[slot === 'baseline' ? 'baseline' : 'debate'],
  newReview(_context, theCase, slot, value) {
    // The kind's provenance check (spans in the transcript, planted issues of the case) runs on the result, as on any review.
    const draft = isObject(value) ? value : {}
    return {
      value: { case_id: theCase.id, system: slot, rubric_sha256: PLACEHOLDER, spec_sha256: PLACEHOLDER, output_sha256: PLACEHOLDER, ...draft },
      problems: [],
    }
  },
  draftByItem: false,
  draftOf(review) {
    if (!isObject(review)) return {}
    return Object.fromEntries(Object.entries(review).filter(([key]) => !Object.hasOwn(BOUND, key)))
  },
  summarizeReview(review) {
    if (!isObject(review)) return {}
    const claims = Array.isArray(review['claims']) ? review['claims'] : []
    const summary: Record<string, string> = {}
    for (const claim of claims) {
      if (isObject(claim) && typeof claim['id'] === 'string') summary[claim['id']] = typeof claim['validity'] === 'string' ? claim['validity'] : '?'
    }
    summary['final_verdict'] = typeof review['final_verdict'] === 'string' ? JSON.stringify(review['final_verdict']) : 'none'
    return summary
  },
}
