import { decideFixtureCase, fixtureCase, fixtureReview, type FixtureCaseOf, type FixtureReviewOf } from './engine/fixture-case.js'
import type { Decision } from './contract/decision.js'
import type { SomeFixture } from './engine/fixture.js'
import type { DecisionOf, Fixture, FixtureKind, LoadedFixture } from './registry.js'

export type { FixtureCaseOf, FixtureReviewOf } from './engine/fixture-case.js'

/** One case of a loaded fixture of kind `K` with its review: what `toMeetRubric` and the other rubric matchers decide. */
export type FixtureCase<K extends FixtureKind = 'criteria'> = FixtureCaseOf<LoadedFixture<K>>

/** The review of one case of a loaded fixture of kind `K`: what `toBeBoundTo` checks. */
export type FixtureReview<K extends FixtureKind = 'criteria'> = FixtureReviewOf<LoadedFixture<K>>

/** The case of a loaded fixture `F`: a {@link FixtureCase} of its kind for a shipped kind (one of each for a fixture of either kind). */
export type FixtureCaseIn<F extends SomeFixture> = F extends Fixture ? FixtureCase<F['kind']> : FixtureCaseOf<F>

/** The review of a case of a loaded fixture `F`: a {@link FixtureReview} of its kind for a shipped kind. */
export type FixtureReviewIn<F extends SomeFixture> = F extends Fixture ? FixtureReview<F['kind']> : FixtureReviewOf<F>

/** A case of a loaded fixture of any kind by id, with its review; a `UsageError` naming the fixture's ids if it has none. */
export function getCase<F extends SomeFixture>(fixture: F, id: string): FixtureCaseIn<F> {
  // Cast: a fixture of a shipped kind is LoadedFixture<F['kind']>, so its case is that kind's FixtureCase.
  return fixtureCase(fixture, id, 'getCase') as FixtureCaseIn<F>
}

/**
 * The review of a case of a loaded fixture of any kind; a `UsageError` if the fixture has no such
 * case or the case has no review (see `getCase(fixture, id).review` for a review that may be absent).
 */
export function getReview<F extends SomeFixture>(fixture: F, id: string): FixtureReviewIn<F> {
  // Cast: as for getCase.
  return fixtureReview(fixture, id, 'getReview') as FixtureReviewIn<F>
}

/** Decides one case of a loaded fixture by its kind's rule, as `evaluateFixture` does for all of them. */
export function assessFixtureCase<K extends FixtureKind>(fixtureCase: FixtureCase<K>): DecisionOf<K>
export function assessFixtureCase(fixtureCase: FixtureCaseOf): Decision
export function assessFixtureCase(fixtureCase: FixtureCaseOf): Decision {
  return decideFixtureCase(fixtureCase)
}
