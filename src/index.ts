/**
 * vitest-rubric: evaluate rubric fixtures, whatever their kind. Kind-specific tools are behind
 * their own entries: `vitest-rubric/criteria` and `vitest-rubric/scored`.
 */
export { canonicalJson, fingerprint, NULL_FINGERPRINT } from './core/json/canonical-json.js'
export {
  BindingError,
  CanonicalJsonError,
  FixtureError,
  RevisionError,
  RubricError,
  UsageError,
  type RubricErrorCode,
  type SerializedRubricError,
} from './core/common/errors.js'
export type { PathSegment } from './core/common/json-path.js'
export type { Split } from './core/common/primitives.js'
export {
  FIXTURE_KINDS,
  detectFixtureKind,
  loadFixture,
  type EvaluationOfKind,
  type Fixture,
  type FixtureEvaluation,
  type FixtureKind,
  type LoadedFixture,
  type TestPlan,
} from './core/registry.js'
export type { FixtureIdentities, FixtureNote, LoadFixtureOptions } from './core/engine/fixture.js'
export { evaluateFixture, type EvaluationOf } from './core/engine/evaluate.js'
export { evaluationJson, type DecisionJson, type EvaluationJson } from './core/engine/evaluation-json.js'
export type { Coverage, CoverageCounts, Outcomes } from './core/engine/coverage.js'
export type { Decision, DecisionStatus, RefusedDecision } from './core/engine/decision.js'
export { planFixtureTests, type PlannedCase, type PlannedCheck } from './core/engine/plan.js'
export { fixtureStatus, type CaseFinding, type CaseStatus, type FixtureStatus, type StatusGroupEntry } from './core/engine/status.js'
export { bindFixture } from './core/registry.js'
export type { BindKind, BindOptions, BindResult, BoundCase, HashChange } from './core/engine/bind.js'
export { initFixture } from './core/registry.js'
export type { InitOptions, InitResult } from './core/engine/scaffold.js'
export { addCases, openReviewTarget, recordReview } from './core/registry.js'
export {
  fileSource,
  type AddedCase,
  type AddResult,
  type AuthoringOptions,
  type DraftSource,
  type RecordedReview,
  type RecordReviewOptions,
  type ReviewTarget,
} from './core/engine/authoring.js'
export { caseView, type CaseView, type ShownBinding } from './core/engine/show.js'
export type { FixtureSchemaName, JsonSchema } from './core/engine/json-schemas.js'
export { FIXTURE_SCHEMA_NAMES, fixtureJsonSchemas } from './core/registry.js'
