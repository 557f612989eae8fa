import { describe, expectTypeOf, test } from 'vitest'
import { assessFixtureCase, getCase, getReview, type FixtureCase, type FixtureCaseOf, type FixtureReview } from '../../src/core/cases.js'
import type { SomeFixture } from '../../src/core/engine/fixture.js'
import type { CriteriaDecision } from '../../src/core/kinds/criteria/decision.js'
import type { ScoredDecision } from '../../src/core/kinds/scored/decision.js'
import type { Fixture, LoadedFixture } from '../../src/core/registry.js'

declare const criteria: LoadedFixture<'criteria'>
declare const scored: LoadedFixture<'scored'>
declare const other: SomeFixture
declare const either: Fixture

describe('the case accessors are typed by the fixture kind', () => {
  test("a criteria fixture's case is a FixtureCase, as before the accessors read every kind", () => {
    expectTypeOf(getCase(criteria, 'complete')).toEqualTypeOf<FixtureCase>()
    expectTypeOf(getReview(criteria, 'complete')).toEqualTypeOf<FixtureReview>()
    expectTypeOf(assessFixtureCase(getCase(criteria, 'complete'))).toEqualTypeOf<CriteriaDecision>()
  })

  test("a scored fixture's case is a FixtureCase<'scored'>, decided as a scored decision", () => {
    expectTypeOf(getCase(scored, 'partial-recall')).toEqualTypeOf<FixtureCase<'scored'>>()
    expectTypeOf(getCase(scored, 'partial-recall').fixture.rubric).toEqualTypeOf<LoadedFixture<'scored'>['rubric']>()
    expectTypeOf(assessFixtureCase(getCase(scored, 'partial-recall'))).toEqualTypeOf<ScoredDecision>()
  })

  test('a fixture of a kind the package does not ship gives a case of that fixture', () => {
    expectTypeOf(getCase(other, 'paris')).toEqualTypeOf<FixtureCaseOf<SomeFixture>>()
    // A fixture loaded without naming its kind: a case of one of the shipped kinds.
    expectTypeOf(getCase(either, 'complete')).toExtend<FixtureCase<'criteria'> | FixtureCase<'scored'>>()
    // @ts-expect-error an id is a string
    getCase(criteria, 3)
  })
})
