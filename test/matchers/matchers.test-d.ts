import { describe, expect, expectTypeOf, test } from 'vitest'
import type { FixtureCase, FixtureReview } from '../../src/core/kinds/criteria/access.js'
import type { EvaluationOfKind } from '../../src/core/registry.js'
import type { CriteriaFixture } from '../../src/core/kinds/criteria/access.js'
import type { BoundRubric } from '../../src/core/kinds/criteria/rubric.js'
import type { Answer } from '../../src/core/kinds/criteria/schemas.js'
import * as matchers from '../../src/matchers/index.js'
import type { BindingTarget, ReviewCoverageExpectation } from '../../src/matchers/index.js'

declare const fixture: CriteriaFixture
declare const bound: BoundRubric
declare const fixtureCase: FixtureCase
declare const review: FixtureReview
declare const answer: Answer
declare const bytes: Buffer
declare const evaluation: EvaluationOfKind<'criteria'>

describe('the matcher typings', () => {
  test('expect.extend accepts the matchers module as it is', () => {
    expectTypeOf(expect.extend).toBeCallableWith(matchers)
  })

  test('a fixture case takes no arguments; an answer takes the rubric and review', () => {
    expect(fixtureCase).toMeetRubric()
    expect(fixtureCase).not.toBePendingReview()
    expect(fixtureCase).toFailCriteria(['support'])
    expect(answer).toMeetRubric(fixture, { review })
    expect(answer).toMeetRubric(bound, { review: null })
    expect(answer).toMeetRubric(bytes, { review, source: bytes })
    expect({ text: 'Run it.', citation: 'guide' }).toBePendingReview('{"id":1}', { review: null, source: 'guide' })
    expect(answer).toFailCriteria(['command', 'support'], fixture, { review })
    // @ts-expect-error a fixture case carries its rubric and review
    expect(fixtureCase).toMeetRubric(fixture, { review })
    // @ts-expect-error an answer needs a rubric and a review
    expect(answer).toMeetRubric()
    // @ts-expect-error rubric contents are bound with the source they quote
    expect(answer).toMeetRubric(bytes, { review })
    // @ts-expect-error the review must be given, if only as null
    expect(answer).toMeetRubric(fixture, {})
    // @ts-expect-error a review of the wrong shape
    expect(answer).toMeetRubric(fixture, { review: { rating: 'meets' } })
    // @ts-expect-error a number is neither a case nor an answer
    expect(42).toMeetRubric()
    // @ts-expect-error a fixture is not a case
    expect(fixture).toBePendingReview()
  })

  test('an awaited case resolves to the same arguments', async () => {
    await expect(Promise.resolve(fixtureCase)).resolves.toMeetRubric()
    // @ts-expect-error still no arguments for a case
    await expect(Promise.resolve(fixtureCase)).resolves.toMeetRubric(fixture, { review })
  })

  test('toFailCriteria needs at least one criterion id', () => {
    // @ts-expect-error an empty list would mean "accepted": use toMeetRubric
    expect(fixtureCase).toFailCriteria([])
    // @ts-expect-error a list, not a string
    expect(fixtureCase).toFailCriteria('support')
  })

  test('toBeBoundTo takes a review and at least one binding', () => {
    expect(review).toBeBoundTo(fixture)
    expect(review).toBeBoundTo(bound)
    expect(review).toBeBoundTo(fixtureCase)
    expect(review).toBeBoundTo({ rubric: bytes })
    expect(review).not.toBeBoundTo({ answer, source: 'Fictional guide' })
    expect(review).toBeBoundTo({ answer: fixtureCase })
    expect({ answer_id: 'x', answer_sha256: 'a', source_sha256: 's', rubric_sha256: 'r', judgements: {} }).toBeBoundTo(fixture)
    expectTypeOf<{ rubric: Buffer }>().toExtend<BindingTarget>()
    // biome-ignore lint/complexity/noBannedTypes: the empty object type is the case that must not fit
    expectTypeOf<{}>().not.toExtend<BindingTarget>()
    // @ts-expect-error no binding named
    expect(review).toBeBoundTo({})
    // @ts-expect-error a misspelled binding
    expect(review).toBeBoundTo({ rubirc: bytes })
    // @ts-expect-error a parsed rubric has no revision: its bytes do
    expect(review).toBeBoundTo({ rubric: { id: 'r', version: 1 } })
    // @ts-expect-error a case is not a review
    expect(fixtureCase).toBeBoundTo(fixture)
  })

  test('toHaveReviewCoverage takes a fixture, an evaluation or a coverage and at least one count', () => {
    expect(fixture).toHaveReviewCoverage({ graded: 6, pending: 2 })
    expect(evaluation).not.toHaveReviewCoverage({ refused: 0 }, { split: 'held_out' })
    expect(evaluation.coverage).toHaveReviewCoverage({ candidates: 8 })
    expectTypeOf<{ accepted: 3 }>().toExtend<ReviewCoverageExpectation>()
    // @ts-expect-error no count given
    expect(fixture).toHaveReviewCoverage({})
    // @ts-expect-error a misspelled count
    expect(fixture).toHaveReviewCoverage({ gradded: 6 })
    // @ts-expect-error an unknown split
    expect(fixture).toHaveReviewCoverage({ graded: 6 }, { split: 'test' })
    // @ts-expect-error a case has no coverage
    expect(fixtureCase).toHaveReviewCoverage({ graded: 1 })
  })

  test('a misspelled matcher does not type-check', () => {
    // @ts-expect-error toMeetRubrik is not a matcher
    expect(fixtureCase).toMeetRubrik()
  })
})
