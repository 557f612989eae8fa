/**
 * vitest-rubric: evaluate rubric fixtures, whatever their kind, from a script: load, evaluate,
 * status, bind, init, add, review, adjudicate, agreement, calibrate, compare, judge and the decision
 * record.
 * Kind-specific tools are behind their own entries: `vitest-rubric/criteria` and
 * `vitest-rubric/scored`. The fixture files' JSON Schemas are `fixtureJsonSchemas()` here, and
 * files at `vitest-rubric/schemas/<name>.schema.json`.
 */

// Hashes and errors
export { canonicalJson, fingerprint, NULL_FINGERPRINT } from './core/json/canonical-json.js'
export {
  BindingError,
  CanonicalJsonError,
  FixtureError,
  RevisionError,
  RubricError,
  RUBRIC_ERROR_CODES,
  UsageError,
  type RubricErrorCode,
  type SerializedRubricError,
} from './core/common/errors.js'
export type { PathSegment } from './core/common/json-path.js'
export type { Split } from './core/common/primitives.js'

// Load and evaluate
export {
  FIXTURE_KINDS,
  detectFixtureKind,
  loadFixture,
  type EvaluationOfKind,
  type Fixture,
  type FixtureEvaluation,
  type FixtureKind,
  type LoadedFixture,
} from './core/registry.js'
export type { FixtureIdentities, FixtureNote, LoadFixtureOptions } from './core/engine/fixture.js'
export { evaluateFixture, type EvaluationOf } from './core/engine/evaluate.js'
export { evaluationJson, type DecisionJson, type EvaluationJson } from './core/engine/evaluation-json.js'
export type { Coverage, CoverageCounts, Outcomes } from './core/engine/coverage.js'
export type { Decision, DecisionStatus, RefusedDecision } from './core/engine/decision.js'

// Status, bind, init
export { fixtureStatus, type CaseFinding, type CaseStatus, type FixtureStatus, type NextCommand, type StatusGroupEntry } from './core/engine/status.js'
export { fixtureHistory, type FixtureHistory, type HistoryReview } from './core/engine/fixture-history.js'
export { bindFixture, initFixture } from './core/registry.js'
export type { BindKind, BindOptions, BindResult, BoundCase, HashChange } from './core/engine/bind.js'
export type { InitOptions, InitResult } from './core/engine/scaffold.js'

// Add and review
export { addCases, recordReview } from './core/registry.js'
export type {
  AddedCase,
  AddResult,
  AuthoringOptions,
  DraftSource,
  RecordedReview,
  RecordReviewOptions,
} from './core/engine/authoring.js'
export type { CaseVersions } from './core/engine/case-versions.js'

// Adjudicate, agreement, calibrate
export { adjudicateCase, adjudicateConsensus, type AdjudicateOptions, type Adjudicated, type AdjudicationResult } from './core/engine/adjudicate.js'
export { DEFAULT_AGREEMENT_SEED, panelAgreement, type AgreementOptions, type AgreementReport, type ItemAgreement } from './core/engine/agreement.js'
export {
  calibrateJudges,
  type CalibrationOptions,
  type CalibrationReport,
  type CriterionCalibration,
  type ExcludedLabel,
  type JudgeCalibration,
} from './core/engine/calibration.js'

// Compare two systems on one rubric
export {
  compareFixtures,
  DEVELOPMENT_LABEL,
  FixturesNotComparableError,
  type ComparedFixture,
  type CompareOptions,
  type CompareSplit,
  type ComparisonCoverage,
  type CriteriaFixtureComparison,
  type CriterionComparison,
  type FixtureComparison,
  type Leak,
  type PairedFigures,
  type RateFigure,
  type ScoreDifference,
  type ScoredFixtureComparison,
  type ScoredSplitComparison,
  type SplitComparison,
  type UndecidedCase,
} from './core/compare/compare.js'

// Automated judges: bulk labels and the judge runner
export {
  recordJudgeLabels,
  type ExistingLabelPolicy,
  type JudgeLabelDraft,
  type RecordedJudgeLabels,
  type RecordJudgeLabelsOptions,
} from './core/judges/judge-labels.js'
export { readJudgeLabelFile } from './core/judges/judge-label-file.js'
export {
  runJudge,
  type CaseJudge,
  type CriterionJudge,
  type JudgeCaseInput,
  type JudgeCriterionInput,
  type JudgeFailure,
  type JudgeFunction,
  type JudgeModule,
  type JudgeProgress,
  type JudgeRunResult,
  type JudgeVerdict,
  type RunJudgeOptions,
} from './core/judges/judge-run.js'
export { inShard, parseShard, type JudgeShard } from './core/judges/judge-shard.js'
export { loadJudgeModule, type LoadedJudgeModule } from './core/judges/judge-module.js'

// The decision record
export {
  decisionRecordOf,
  describeRecordChanges,
  readRecordedDecisions,
  sameRecord,
  writeRecordedDecisions,
  type RecordFileOptions,
  type RecordedDecision,
  type RecordedDecisions,
} from './core/engine/decision-record.js'

// The fixture files' JSON Schemas
export type { FixtureSchemaName, JsonSchema } from './core/engine/json-schemas.js'
export { FIXTURE_SCHEMA_NAMES, fixtureJsonSchemas } from './core/registry.js'
