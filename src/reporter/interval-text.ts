/**
 * How the reporter marks a bootstrap interval, as `agreement` and `calibrate` do
 * (docs/statistics.md: the share of skipped replicates is stated, and above 20% the interval is
 * followed by `?` and a line saying it is unreliable).
 */
import { plural } from '../core/common/primitives.js'
import { MAX_SKIPPED_SHARE, type IntervalReport } from '../core/stats/bootstrap.js'

const share = (value: number) => `${(100 * value).toFixed(1)}%`

/** What follows an interval: `?` when it is unreliable, and the share of skipped replicates when there are any. */
export function intervalSuffix(bootstrap: IntervalReport['bootstrap']): string {
  if (bootstrap === null || bootstrap.skipped === 0) return ''
  return `${bootstrap.unreliable ? '?' : ''} (${share(bootstrap.skipped_share)} of replicates skipped)`
}

/** The line that says an interval is unreliable, or `null` when it is not. */
export function unreliableText(name: string, bootstrap: IntervalReport['bootstrap']): string | null {
  if (bootstrap === null || !bootstrap.unreliable) return null
  return `${name}: interval unreliable: ${share(bootstrap.skipped_share)} of ${plural(bootstrap.replicates, 'replicate')} had no variation and were skipped (more than ${share(MAX_SKIPPED_SHARE)})`
}
