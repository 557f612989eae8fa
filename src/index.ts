/**
 * vitest-rubric: evaluate rubric fixtures, whatever their kind, from a script: load, evaluate,
 * status, bind, init, add, review, adjudicate, agreement, calibrate, compare, judge and the decision
 * record.
 * Kind-specific tools are behind their own entries: `vitest-rubric/criteria` and
 * `vitest-rubric/scored`; the statistics of docs/statistics.md behind `vitest-rubric/statistics`. The fixture files' JSON Schemas are `fixtureJsonSchemas()` here, and
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
  type RubricErrorDetails,
  type SerializedRubricError,
} from './core/common/errors.js'
export type { PathSegment } from './core/common/json-path.js'
export type { Split } from './core/common/primitives.js'

// Load and evaluate
export {
  FIXTURE_KINDS,
  detectFixtureKind,
  loadFixture,
  type CaseOf,
  type DecisionOf,
  type EvaluationOfKind,
  type Fixture,
  type FixtureEvaluation,
  type FixtureKind,
  type KindParameters,
  type LoadedFixture,
  type ReviewOf,
  type RubricOf,
  type SummaryOf,
} from './core/registry.js'
export type { LoadFixtureOptions } from './core/engine/fixture.js'
export {
  assessFixtureCase,
  getCase,
  getReview,
  type FixtureCase,
  type FixtureCaseIn,
  type FixtureCaseOf,
  type FixtureReview,
  type FixtureReviewIn,
  type FixtureReviewOf,
} from './core/cases.js'
export type { FixtureIdentities, FixtureNote } from './core/contract/results.js'
export { evaluateFixture, type EvaluateOptions, type EvaluationOf } from './core/engine/evaluate.js'
export type { PanelPolicy } from './core/engine/panel-rule.js'
export type { JsonValue } from './core/contract/results.js'
export type { RawFile } from './core/json/read.js'
export type { IntervalReport } from './core/stats/bootstrap.js'
export type { EarlierRevision, FileRole, StatusGroup } from './core/contract/kind.js'
export type { KindContext } from './core/contract/context.js'
export type { FixtureFile } from './core/contract/files.js'
export type { ConvertedRevisions } from './core/json/line-endings.js'
export { evaluationJson } from './core/engine/evaluation-json.js'
export type { Coverage, CoverageCounts, DecisionJson, EvaluationJson, Outcomes } from './core/contract/results.js'
export type { Decision, DecisionCommon, DecisionStatus, RefusedDecision, UnrefusedDecision } from './core/contract/decision.js'

// Status, bind, init
export { fixtureStatus, type CaseFinding, type CaseStatus, type FixtureStatus, type NextCommand, type StatusGroupEntry } from './core/engine/status.js'
export { fixtureHistory, type FixtureHistory, type HistoryReview } from './core/engine/fixture-history.js'
export { bindFixture, initFixture, type BindOptions, type InitOptions } from './core/registry.js'
export type { BindKind, BindResult, BoundCase, HashChange } from './core/engine/bind.js'
export type { InitResult } from './core/engine/scaffold.js'

// Add and review
export { addCases, recordReview, type AuthoringOptions, type RecordReviewOptions } from './core/registry.js'
export type { AddedCase, AddResult } from './core/engine/authoring/add.js'
export type { DraftSource } from './core/engine/authoring/draft.js'
export type { RecordedReview } from './core/engine/authoring/review.js'
export type { CaseVersions } from './core/engine/case-versions.js'

// Adjudicate, agreement, calibrate
export { adjudicateCase, adjudicateConsensus, type AdjudicateOptions, type ConsensusOptions } from './core/registry.js'
export type { Adjudicated, AdjudicationResult } from './core/engine/adjudicate.js'
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
  type ComparisonBase,
  type CompareOptions,
  type CompareSplit,
  type ComparisonCoverage,
  type FixtureComparison,
  type JudgeAssistedComparison,
  type JudgeAssistedRefusal,
  type JudgeAssistedSplit,
  type JudgeGaps,
  type Leak,
  type PairedFigures,
  type RateFigure,
  type UndecidedCase,
  type PairedSplitFigures,
} from './core/compare/compare.js'
export type {
  CriteriaFixtureComparison,
  CriteriaSharedFigures,
  CriteriaSplitFigures,
  CriterionComparison,
  SplitComparison,
} from './core/kinds/criteria/compare.js'
export type {
  ScoreDifference,
  ScoredFixtureComparison,
  ScoredSharedFigures,
  ScoredSplitComparison,
  ScoredSplitFigures,
} from './core/kinds/scored/compare.js'

// Automated judges: bulk labels and the judge runner
export type {
  ExistingLabelPolicy,
  JudgeLabelDraft,
  RecordedJudgeLabels,
} from './core/judges/judge-labels.js'
export { recordJudgeLabels, type RecordJudgeLabelsOptions } from './core/registry.js'
export { readJudgeLabelFile } from './core/judges/judge-label-file.js'
export { runJudge, type RunJudgeOptions } from './core/registry.js'
export type {
  CaseJudge,
  CriterionJudge,
  JudgeCaseInput,
  JudgeCriterionInput,
  JudgeFailure,
  JudgeFunction,
  JudgeModule,
  JudgeProgress,
  JudgeRunResult,
  JudgeVerdict,
} from './core/judges/judge-types.js'
export type { JudgeItemInput, JudgeItemsInput } from './core/judges/judge-types.js'
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

// The kind contract, types only: what a kind definition gives the engine, and what a loaded
// fixture and its evaluation hold, so that code working on any kind can name them.
export type { Evaluation, SomeEvaluation } from './core/engine/evaluate.js'
export type { CaseEntry, FixtureFiles, FixtureOf, KindFixture, ReviewEntry, ReviewIndex, SomeFixture } from './core/engine/fixture.js'
export type { FixtureRecordsView } from './core/engine/records-view.js'
export type { Adoption, LabelSet, Panel } from './core/engine/panel.js'
export type {
  AdjudicationChoice,
  AdoptChoice,
  AdoptedChoice,
  BindingRow,
  BindingSource,
  BindingTarget,
  CalibrationRatings,
  CaseAt,
  CaseShown,
  ComparedItemRow,
  ComparedSide,
  CompareParameters,
  Drafted,
  DraftProblem,
  InteractiveAdjudication,
  InteractiveReview,
  JsonSchemaSource,
  JudgedItem,
  KindAuthoring,
  KindComparison,
  KindComparisonText,
  KindDefinition,
  KindJudging,
  KindPanel,
  KindPresentation,
  KindScaffold,
  KindTerminal,
  OutcomeWords,
  PanelItem,
  PendingFinding,
  Problem,
  RecordDraft,
  RecordedDraft,
  ReviewUnderCheck,
  RuleInput,
  SlotOutcome,
  SomeKindDefinition,
  StaleChange,
  SummaryOptions,
  Terminal,
  TerminalAdjudicationView,
  TerminalTarget,
  VerdictProblem,
} from './core/contract/kind.js'
export type { AnswerDecided, KindAnswerForm, KindMatchers, MatcherCall, ReceivedReview } from './core/contract/matchers.js'
export type { PlannedCase, PlannedCaseDetail, PlannedCheck } from './core/contract/results.js'
export type { Colors } from './core/common/colors.js'
export type { KindPage, PageCaseView, PageCriterion, PageJudgement, PageRowFacts, PageTable } from './web/kind-page.js'
