import { decideFixtureCase, fixtureCase, fixtureReview, type FixtureCaseOf, type FixtureReviewOf } from './engine/fixture-case.js'
import type { Decision } from './contract/decision.js'
import type { SomeFixture } from './engine/fixture.js'
import type { DecisionOf, FixtureKind, LoadedFixture } from './registry.js'

export type { FixtureCaseOf, FixtureReviewOf } from './engine/fixture-case.js'

/** One case of a loaded fixture of kind `K` with its review: what `toMeetRubric` and the other rubric matchers decide. */
export type FixtureCase<K extends FixtureKind = 'criteria'> = FixtureCaseOf<LoadedFixture<K>>

/** The review of one case of a loaded fixture of kind `K`: what `toBeBoundTo` checks. */
export type FixtureReview<K extends FixtureKind = 'criteria'> = FixtureReviewOf<LoadedFixture<K>>

/** A case of a loaded fixture of any kind by id, with its review; a `UsageError` naming the fixture's ids if it has none. */
export function getCase<K extends FixtureKind>(fixture: LoadedFixture<K>, id: string): FixtureCase<K>
export function getCase<F extends SomeFixture>(fixture: F, id: string): FixtureCaseOf<F>
export function getCase(fixture: SomeFixture, id: string): FixtureCaseOf {
  return fixtureCase(fixture, id, 'getCase')
}

/**
 * The review of a case of a loaded fixture of any kind; a `UsageError` if the fixture has no such
 * case or the case has no review (see `getCase(fixture, id).review` for a review that may be absent).
 */
export function getReview<K extends FixtureKind>(fixture: LoadedFixture<K>, id: string): FixtureReview<K>
export function getReview<F extends SomeFixture>(fixture: F, id: string): FixtureReviewOf<F>
export function getReview(fixture: SomeFixture, id: string): FixtureReviewOf {
  return fixtureReview(fixture, id, 'getReview')
}

/** Decides one case of a loaded fixture by its kind's rule, as `evaluateFixture` does for all of them. */
export function assessFixtureCase<K extends FixtureKind>(fixtureCase: FixtureCase<K>): DecisionOf<K>
export function assessFixtureCase(fixtureCase: FixtureCaseOf): Decision
export function assessFixtureCase(fixtureCase: FixtureCaseOf): Decision {
  return decideFixtureCase(fixtureCase)
}
