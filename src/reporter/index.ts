import { RubricReporter } from './rubric-reporter.js'

export { RubricReporter, type PendingGate, type RubricReporterOptions } from './rubric-reporter.js'
export type { CriterionFigures, ExecutionCounts, FixtureFigures, RubricFigures, SplitFigures } from './figures.js'

/** `reporters: ['vitest-rubric/reporter']` loads this. */
export default RubricReporter
