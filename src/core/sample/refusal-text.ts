/**
 * Why an estimate is refused, told as the sample stands (docs/cli.md#estimate).
 */
import type { PpiResult } from '../stats/ppi.js'

/** What to do when every sampled case is decided and the estimate still needs more (docs/cli.md#sample). */
const EXTEND =
  'draw more cases: run `vitest-rubric sample` again with --size to extend the sample (one stratified by the judge is drawn anew with --new), then review them'

/**
 * A refused estimate told as the sample stands, where the statistic's own advice ("review more of
 * the sample") cannot be followed: a split without cases has nothing to estimate, a census (every
 * case of the split sampled and decided) needs no estimate, its rate being known exactly, and a
 * sample whose every case is decided has no more to review, only more cases to draw. `human`
 * is the label of each sampled case, `null` while pending. Any other result is returned as it is.
 */
export function situatedRefusal<Result extends PpiResult>(result: Result, human: readonly (0 | 1 | null)[]): Result {
  if (result.status !== 'unsupported') return result
  if (result.cases === 0) return { ...result, message: 'the split holds no case, so there is nothing to estimate' }
  if (result.pending > 0) return result
  if (result.sampled < result.cases) {
    // Every sampled case is decided: there is no more of the sample to review, only more cases to draw.
    const message = result.message.replace(/: review more of (?:the sample|it)(?=, or |$)/, `: every sampled case is decided, so ${EXTEND}`)
    return message === result.message ? result : { ...result, message }
  }
  const ones = human.filter((label) => label === 1).length
  return {
    ...result,
    message: `every case of the split is sampled and decided (a census): the rate is ${(ones / result.cases).toFixed(3)} exactly (${ones} of ${result.cases}), with nothing left to estimate`,
  }
}
