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
  type EvaluationOf,
  type FixtureRecord,
  type LoadFixtureOptions,
} from './core/fixture.js'
export * from './core/criteria/schemas.js'
export { FIXTURE_SCHEMA_NAMES, fixtureJsonSchemas, formatJsonSchema, type FixtureSchemaName, type JsonSchema } from './core/json-schemas.js'
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
export * from './core/scored/schemas.js'
export {
  bindEvaluationRubric,
  EvaluationRubricSchema,
  ScoreThresholdsSchema,
  type BoundEvaluationRubric,
  type EvaluationRubric,
  type RubricRules,
  type ScoreThresholds,
} from './core/scored/rubric.js'
export {
  DIMENSIONS,
  DIMENSION_NAMES,
  isDimensionName,
  type BaselineScoringInput,
  type DebateScoringInput,
  type DimensionName,
} from './core/scored/dimensions/index.js'
export type { DimensionScore } from './core/scored/dimensions/score.js'
export { scoreRecall } from './core/scored/dimensions/recall.js'
export { scorePrecision } from './core/scored/dimensions/precision.js'
export {
  baselineCalibrationInstances,
  debateCalibrationInstances,
  scoreBaselineCalibration,
  scoreDebateCalibration,
  type CalibrationInstance,
} from './core/scored/dimensions/calibration.js'
export { scoreBaselineResolution, scoreDebateResolution, type DebateEnding } from './core/scored/dimensions/resolution.js'
export { scoreBaselineDiagnosticity, scoreDebateDiagnosticity, type ProposedTest } from './core/scored/dimensions/diagnosticity.js'
export { normalizeVerdict, scoreVerdict } from './core/scored/dimensions/verdict.js'
export { applyCaseRule, atLeast, TOLERANCE, type CaseVerdict, type ScoreCard } from './core/scored/case-rule.js'
export { scoreBaselineCase, scoreDebateCase } from './core/scored/score-card.js'
export { benchmarkFigures, type BenchmarkFigures, type GateResult, type SystemFigures } from './core/scored/benchmark.js'
export type * from './core/scored/decision.js'
export { SCORED_FILES, loadScoredFixture, type ScoredCaseEntry, type ScoredFixture } from './core/scored/load.js'
export { evaluateScoredFixture, type ScoredEvaluation } from './core/scored/evaluate.js'
export { scoredRecord, type BaselineRecord, type CardRecord, type ScoredCaseRecord, type ScoredRecord } from './core/scored/record.js'
export { BENCHMARK_CHECK, baselineCheckName, planScoredTests } from './core/scored/plan.js'
export { formatCardFailure } from './core/scored/messages.js'
