export { canonicalJson, compareCodePoints, fingerprint, sha256Hex, NULL_FINGERPRINT } from './core/canonical-json.js'
export {
  BindingError,
  CanonicalJsonError,
  FixtureError,
  RubricError,
  UsageError,
  type RubricErrorCode,
  type SerializedRubricError,
} from './core/errors.js'
export { formatPath, type PathSegment } from './core/json-path.js'
export { countCoverage, type Coverage, type CoverageCounts, type Outcomes } from './core/coverage.js'
export type { DecisionStatus, RefusedDecision } from './core/decision.js'
export {
  detectFixtureKind,
  evaluateFixture,
  loadFixture,
  fixtureRecord,
  planFixtureTests,
  FIXTURE_KINDS,
  type Fixture,
  type FixtureEvaluation,
  type FixtureKind,
  type FixtureRecord,
  type LoadFixtureOptions,
} from './core/fixture.js'
export * from './core/criteria/schemas.js'
export { assessAnswer, assessCase, pendingReason, type Located } from './core/criteria/assess.js'
export { assessFixtureCase, getCase, getReview, type FixtureCase, type FixtureReview } from './core/criteria/access.js'
export type * from './core/criteria/decision.js'
export {
  bindRubric,
  bindRubricContents,
  DEFAULT_FILE_NAMES,
  type BoundRubric,
  type FileContents,
  type FixtureFileNames,
} from './core/criteria/rubric.js'
export { CRITERIA_FILES, loadCriteriaFixture, type CaseEntry, type CriteriaFixture, type ReviewEntry } from './core/criteria/load.js'
export { evaluateCriteriaFixture, type CriteriaEvaluation } from './core/criteria/evaluate.js'
export { criteriaRecord, decisionRecord, type CriteriaRecord, type DecisionRecord, type FixtureIdentities } from './core/criteria/record.js'
export { formatJudged, formatRejection, planCriteriaTests } from './core/criteria/plan.js'
export type { PlannedCase, PlannedCheck, TestPlan } from './core/plan.js'
export {
  describeRecordChanges,
  readRecordedDecisions,
  recordDecisions,
  sameRecord,
  writeRecordedDecisions,
  type RecordedDecision,
  type RecordedDecisions,
} from './core/recorded-decisions.js'
