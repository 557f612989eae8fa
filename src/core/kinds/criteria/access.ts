import type { FixtureCaseOf, FixtureReviewOf } from '../../engine/fixture-case.js'
import type { FixtureOf } from '../../engine/fixture.js'
import type { criteriaKind } from './index.js'

// The accessors read a fixture of any kind; these are their names for a criteria fixture's case.
export { decideFixtureCase as assessFixtureCase, fixtureCase as getCase, fixtureReview as getReview } from '../../engine/fixture-case.js'

/** A loaded criteria fixture. */
export type CriteriaFixture = FixtureOf<typeof criteriaKind> & { readonly kind: 'criteria' }

/** One case of a loaded criteria fixture with its review. */
export type FixtureCase = FixtureCaseOf<CriteriaFixture>

/** The review of one case of a loaded criteria fixture. */
export type FixtureReview = FixtureReviewOf<CriteriaFixture>
