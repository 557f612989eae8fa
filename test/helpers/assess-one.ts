import { assessEntry } from '../../src/core/engine/assess.js'
import { criteriaKind } from '../../src/core/kinds/criteria/index.js'
import type { CriteriaDecision } from '../../src/core/kinds/criteria/decision.js'
import type { BoundRubric } from '../../src/core/kinds/criteria/rubric.js'

/**
 * Decides one criteria case under a bound rubric, as evaluation decides each case of a fixture:
 * the case at `cases[0]` and its review (or none) at `reviews[0]`.
 */
export function assessOne(bound: BoundRubric, theCase: unknown, review: unknown | null): CriteriaDecision {
  const id = (theCase as { id: string }).id
  const split = (theCase as { split?: unknown }).split === 'held_out' ? 'held_out' : 'development'
  const entry = { id, split, value: theCase, path: ['cases', 0] } as const
  const reviews = review === null ? undefined : { review: { caseId: id, slot: 'review', value: review, path: ['reviews', 0] } }
  const site = { casesFile: bound.files.cases?.display ?? 'cases.json', annotationsFile: bound.files.annotations?.display ?? 'annotations.json' }
  return assessEntry(criteriaKind, bound, entry, reviews, site, undefined).decision
}
