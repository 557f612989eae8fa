/** The scored kind: dimension scores of a debate benchmark and its baseline (`evaluation_rubric.json`, `cases.json`, `annotations.json`). */
export type { EvaluationRubric, RubricRules, ScoredRubric } from './core/kinds/scored/rubric.js'
// The file formats as types; their schemas are JSON Schemas (see src/criteria.ts).
export type {
  BaselineReview,
  DebateReview,
  ScoredAnnotationsFile,
  ScoredCase,
  ScoredCasesFile,
} from './core/kinds/scored/schemas.js'
export type * from './core/kinds/scored/decision.js'
export type { BenchmarkFigures, GateResult, PairedMargin, SystemFigures } from './core/kinds/scored/benchmark.js'
export type { CaseVerdict, ScoreCard } from './core/kinds/scored/case-rule.js'
export { DIMENSION_NAMES, type DimensionName } from './core/kinds/scored/dimensions/index.js'
export { normalizeVerdict } from './core/kinds/scored/dimensions/verdict.js'
export { BENCHMARK_CHECK, baselineCheckName, type BaselineJson, type CardJson, type ScoredDecisionJson } from './core/kinds/scored/present.js'
export type { DimensionScore } from './core/kinds/scored/dimensions/score.js'
