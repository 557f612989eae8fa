import { acknowledgementRow, fileHashRow } from '../../engine/bindings.js'
import type { BindingRow, BindingTarget } from '../../contract/bindings.js'
import type { StatusGroup } from '../../contract/kind.js'

/**
 * Every recorded hash of a scored case and its two reviews. The case records the rubric it was
 * written against and the revision of each review; each review records the rubric it applied, the
 * case spec it was judged against and the output it describes.
 */
export const SCORED_BINDINGS: readonly BindingRow[] = [
  fileHashRow('case', 'rubric', {
    meaning: 'the rubric changed since the case was written; it is fixed once execution begins',
    fix: 'restore the rubric the benchmark was run under; if it really changed, re-review every output under it',
  }),
  acknowledgementRow((slot) => ['expected', `${slot}_review_sha256`]),
  fileHashRow('review', 'rubric', {
    meaning: 'the review applied another revision of the rubric, which is fixed once execution begins, so the review cannot carry over',
    fix: 'restore the rubric the review was made under; if the rubric really changed, re-review under it',
  }),
  {
    in: 'review',
    path: ['spec_sha256'],
    source: { fingerprintOf: () => ['spec'] },
    target: 'spec',
    code: 'REVIEW_SPEC_STALE',
    meaning: "the case's spec changed since the review: its planted issues, ideal resolution or ground truth changed",
    fix: 're-review the output against the changed case',
  },
  {
    in: 'review',
    path: ['output_sha256'],
    source: { fingerprintOf: (slot) => ['outputs', slot] },
    target: 'output',
    code: 'REVIEW_OUTPUT_STALE',
    meaning: 'the output changed since it was reviewed: the judgements describe another run',
    fix: 're-review the new output',
  },
]

/** How `status` names each stale binding and what it asks. */
export const SCORED_TARGETS: Readonly<Record<BindingTarget, StatusGroup>> = {
  output: { title: 'stale output', action: "the system's output changed since its review: re-review it" },
  spec: { title: 'stale case spec', action: "the case's spec changed since its reviews: re-review the outputs against it" },
  rubric: { title: 'stale rubric', action: 'the rubric changed since the review: restore it, or re-review under it' },
}
