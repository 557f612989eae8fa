import { expectTypeOf, test } from 'vitest'
import { evaluateFixture } from '../../../../src/core/engine/evaluate.js'
import type { EvaluationOfKind, FixtureEvaluation } from '../../../../src/core/registry.js'
import type { LoadedFixture } from '../../../../src/core/registry.js'
import type { TestPlan } from '../../../../src/core/registry.js'
import type { BenchmarkFigures } from '../../../../src/core/kinds/scored/benchmark.js'
import { scoresOf, type ScoredDecisionJson } from '../../../../src/core/kinds/scored/present.js'

type ScoredFixture = LoadedFixture<'scored'>
type CriteriaFixture = LoadedFixture<'criteria'>

test('evaluating a fixture of a known kind gives that kind of evaluation', () => {
  expectTypeOf(evaluateFixture<ScoredFixture>).returns.toEqualTypeOf<EvaluationOfKind<'scored'>>()
  expectTypeOf(evaluateFixture<CriteriaFixture>).returns.toEqualTypeOf<EvaluationOfKind<'criteria'>>()
  expectTypeOf(evaluateFixture<ScoredFixture | CriteriaFixture>).returns.toEqualTypeOf<FixtureEvaluation>()
})

test('a scored TestPlan carries benchmark figures, a criteria plan none', () => {
  expectTypeOf<Extract<TestPlan, { kind: 'scored' }>['summary']>().toEqualTypeOf<BenchmarkFigures>()
  expectTypeOf<Extract<TestPlan, { kind: 'criteria' }>['summary']>().toEqualTypeOf<null>()
  const plan = {} as Extract<TestPlan, { kind: 'scored' }>
  // @ts-expect-error a scored plan always has its figures: they cannot be left undefined
  const withUndefined: TestPlan = { ...plan, summary: undefined }
  void withUndefined
})

test('planned scores are numbers, or null for N/A', () => {
  expectTypeOf(scoresOf).returns.toEqualTypeOf<Record<string, number | null>>()
  expectTypeOf<NonNullable<ScoredDecisionJson['scores']>[string]>().toEqualTypeOf<number | null>()
})
