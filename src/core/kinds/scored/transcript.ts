import type { Turn } from './schemas.js'

/** The highest round of a transcript, by a loop: a spread of a long transcript would overflow the call stack. */
export function lastRoundOf(transcript: readonly Turn[]): number {
  let last = 0
  for (const turn of transcript) if (turn.round > last) last = turn.round
  return last
}
