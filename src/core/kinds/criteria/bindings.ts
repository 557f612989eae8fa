import { acknowledgementRow, fileHashRow } from '../../engine/bindings.js'
import type { BindingRow, BindingTarget } from '../../contract/bindings.js'
import type { StatusGroup } from '../../contract/kind.js'

/**
 * Every recorded hash of a criteria case and its review. The case records the source and rubric
 * it was written against and the revision of its review; the review records the answer, source
 * and rubric it judged. Order is the order a refusal lists them in.
 */
export const CRITERIA_BINDINGS: readonly BindingRow[] = [
  fileHashRow('case', 'source', { meaning: 'the source changed since the case was written', fix: 'review the answer against the changed source' }),
  fileHashRow('case', 'rubric', { meaning: 'the rubric changed since the case was written', fix: 'review the answer against the changed criteria' }),
  acknowledgementRow(['expected', 'review_sha256']),
  {
    in: 'review',
    path: ['answer_sha256'],
    source: { fingerprintOf: () => ['input', 'answer'] },
    target: 'answer',
    code: 'REVIEW_ANSWER_STALE',
    meaning: 'the answer changed since it was reviewed: the judgement describes another answer',
    fix: 're-read the answer and revise the review',
  },
  fileHashRow('review', 'source', { meaning: 'the source changed since the review was made', fix: 'check the judgements against the changed source' }),
  fileHashRow('review', 'rubric', {
    meaning: "the rubric's criteria changed since the review judged them",
    fix: 'revise the judgements of the affected criteria',
  }),
]

/** How `status` names each stale binding and what it asks. */
export const CRITERIA_TARGETS: Readonly<Record<BindingTarget, StatusGroup>> = {
  answer: { title: 'stale answer', action: 'the answer changed since its review: re-read it, revise the review' },
  source: { title: 'stale source', action: 'the source changed since the review: check the judgements against it' },
  rubric: { title: 'stale rubric', action: 'the rubric changed since the review: revise the judgements of the affected criteria' },
}
