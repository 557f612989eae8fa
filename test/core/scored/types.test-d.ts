import { expectTypeOf, test } from 'vitest'
import type { CriteriaEvaluation } from '../../../src/core/criteria/evaluate.js'
import type { CriteriaFixture } from '../../../src/core/criteria/load.js'
import { evaluateFixture, type FixtureEvaluation } from '../../../src/core/fixture.js'
import type { PlannedCase, TestPlan } from '../../../src/core/plan.js'
import type { BenchmarkFigures } from '../../../src/core/scored/benchmark.js'
import type { ScoredEvaluation } from '../../../src/core/scored/evaluate.js'
import type { ScoredFixture } from '../../../src/core/scored/load.js'

test('evaluating a fixture of a known kind gives that kind of evaluation', () => {
  expectTypeOf(evaluateFixture<ScoredFixture>).returns.toEqualTypeOf<ScoredEvaluation>()
  expectTypeOf(evaluateFixture<CriteriaFixture>).returns.toEqualTypeOf<CriteriaEvaluation>()
  expectTypeOf(evaluateFixture<ScoredFixture | CriteriaFixture>).returns.toEqualTypeOf<FixtureEvaluation>()
})

test('a TestPlan may carry benchmark figures, and only as a present key', () => {
  expectTypeOf<TestPlan['benchmark']>().toEqualTypeOf<BenchmarkFigures | undefined>()
  const plan = {} as TestPlan
  // @ts-expect-error exactOptionalPropertyTypes: omit the key rather than setting it to undefined
  const withUndefined: TestPlan = { ...plan, benchmark: undefined }
  void withUndefined
})

test('planned scores are numbers, or null for N/A', () => {
  expectTypeOf<NonNullable<PlannedCase['scores']>[string]>().toEqualTypeOf<number | null>()
})
