import { countCoverage, type Coverage } from '../coverage.js'
import { assessCase } from './assess.js'
import type { CriteriaDecision } from './decision.js'
import type { CriteriaFixture } from './load.js'

/** Every case of a criteria fixture decided, with its coverage. */
export interface CriteriaEvaluation {
  readonly fixture: CriteriaFixture
  /** One decision per case, in the order of `cases.json`. */
  readonly decisions: readonly CriteriaDecision[]
  readonly coverage: Coverage
}

/** Applies the bindings and the all-criteria rule to every case; one refused case never stops the others. */
export function evaluateCriteriaFixture(fixture: CriteriaFixture): CriteriaEvaluation {
  const decisions = fixture.cases.map((entry) => assessCase(fixture.bound, entry, fixture.reviews.get(entry.id) ?? null))
  return { fixture, decisions, coverage: countCoverage(decisions) }
}
