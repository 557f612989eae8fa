/**
 * Why an estimate is refused, told as the sample stands (docs/cli.md#estimate).
 */
import type { PpiResult } from '../stats/ppi.js'

/**
 * A refused estimate told as the sample stands, where the statistic's own advice ("review more of
 * the sample") cannot be followed: a split without cases has nothing to estimate, and a census (every
 * case of the split sampled and decided) needs no estimate, its rate being known exactly. `human`
 * is the label of each sampled case, `null` while pending. Any other result is returned as it is.
 */
export function situatedRefusal<Result extends PpiResult>(result: Result, human: readonly (0 | 1 | null)[]): Result {
  if (result.status !== 'unsupported') return result
  if (result.cases === 0) return { ...result, message: 'the split holds no case, so there is nothing to estimate' }
  if (result.sampled < result.cases || result.pending > 0) return result
  const ones = human.filter((label) => label === 1).length
  return {
    ...result,
    message: `every case of the split is sampled and decided (a census): the rate is ${(ones / result.cases).toFixed(3)} exactly (${ones} of ${result.cases}), with nothing left to estimate`,
  }
}
