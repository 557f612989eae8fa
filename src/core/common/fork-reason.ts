/**
 * How the pending reason of a case whose records were revised apart begins (two branches or two
 * machines, merged: docs/format.md#merging-with-git). The case is shown unreviewed meanwhile, so it
 * is pending; its reason names the fork, never `no review`.
 */
export const FORK_REASON = 'forked: '

/** Whether a pending reason is that of a case whose records were revised apart. */
export function isForkReason(reason: string): boolean {
  return reason.startsWith(FORK_REASON)
}
