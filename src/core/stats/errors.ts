/**
 * Raised when a statistic is asked of input it cannot be computed from: a value of the wrong type,
 * a rating outside the declared categories, an option out of range. The message says what was
 * expected, what was found and where (e.g. `units[3][1]`).
 *
 * Degenerate but well-formed input (no variation, too few ratings) is not an error: the statistic
 * is then `null` with a reason.
 */
import type { RubricErrorCode } from '../common/errors.js'

export class StatisticsInputError extends Error {
  override readonly name = 'StatisticsInputError'
  /** Stable identifier, for callers that branch on the kind of failure. */
  readonly code: RubricErrorCode = 'STATISTICS_INPUT'
}
