import { RubricReporter } from './rubric-reporter.js'

export { RubricReporter, type RubricReporterOptions } from './rubric-reporter.js'
export { PendingGateReporter, type PendingGate } from '../run/pending-gate.js'
export type {
  AgreementFigures,
  CoverageRow,
  ExecutionCounts,
  FixtureFigures,
  LoadedFixtureFigures,
  RefusedFixtureFigures,
  RubricFigures,
  TotalFigures,
} from './figures.js'
export type { RubricCaseMeta, RubricCheckMeta, RubricFixtureMeta } from '../runtime/meta.js'
export type { ComparisonGateReport } from '../core/compare/gate.js'
export type { EstimateJudgeChoice, FixtureEstimate, SplitEstimateFigures } from '../core/sample/fixture-estimate.js'
export type { EstimateRefusal } from '../run/estimates.js'
export type { PpiEstimate, PpiResult, PpiUnsupported, PpiRefusalReason, PpiRefused, PpiStanding, PpiCounts, RateInterval } from '../core/stats/ppi.js'
export type { PpiDifferenceEstimate, PpiDifferenceRefusalReason, PpiDifferenceResult, PpiDifferenceUnsupported } from '../core/stats/ppi-difference.js'
export type { SampleMethod } from '../core/sample/sample-file.js'
export type { TestPlan } from '../core/engine/plan.js'
export type { PlannedCase, PlannedCaseDetail, PlannedCheck } from '../core/contract/results.js'

/** `reporters: ['vitest-rubric/reporter']` loads this. */
export default RubricReporter
