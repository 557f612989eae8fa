/**
 * Raised when a statistic is asked of input it cannot be computed from: a value of the wrong type,
 * a rating outside the declared categories, an option out of range. The message says what was
 * expected, what was found and where (e.g. `units[3][1]`).
 *
 * Degenerate but well-formed input (no variation, too few ratings) is not an error: the statistic
 * is then `null` with a reason.
 */
import { RubricError } from '../common/errors.js'

/** What to do about any `STATISTICS_INPUT` error (docs/errors.md). */
export const STATISTICS_INPUT_HINT = 'pass the statistic input of the shape docs/statistics.md gives for it; the message names the first value that is not.'

/**
 * A statistic asked of input it is not defined for (`STATISTICS_INPUT`): the message names the first
 * value that is not of the shape docs/statistics.md gives, what was expected and what was found.
 */
export class StatisticsInputError extends RubricError {
  /** `message` says what the statistic expected, where and what it found, in one line. */
  constructor(message: string) {
    super({ code: 'STATISTICS_INPUT', summary: message, hint: STATISTICS_INPUT_HINT }, message)
  }
}
