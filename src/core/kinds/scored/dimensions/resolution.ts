import { plural } from '../../../common/primitives.js'
import type { ResolutionType } from '../schemas.js'
import { scored, type DimensionScore } from './score.js'

/** The debate's end as the reviewer recorded it, with the rounds the transcript shows. */
export interface DebateEnding {
  readonly ideal: ResolutionType
  /** The resolution type of each agent's final explicit statement; `null` for none. */
  readonly critiqueFinal: ResolutionType | null
  readonly defenseFinal: ResolutionType | null
  readonly moreRoundsThanNecessary: boolean
  /** The highest round of the transcript. */
  readonly rounds: number
  readonly maxRounds: number
}

/**
 * `debate_resolution_quality` of the debate system. The resolution type is the one both agents'
 * final explicit statements agree on. 1.0 when it is the ideal type, reached within the maximum
 * rounds and without needless rounds; 0.5 when it is the ideal type but reached in more rounds than
 * necessary ("directionally correct" is read as the same type: the rubric names no partial order
 * between types); 0.0 for another type, no agreement, or agreement only after the maximum rounds.
 */
export function scoreDebateResolution(ending: DebateEnding): DimensionScore {
  const { ideal, critiqueFinal, defenseFinal, rounds, maxRounds } = ending
  const within = `${rounds} of at most ${plural(maxRounds, 'round')}`
  if (critiqueFinal === null || critiqueFinal !== defenseFinal) {
    const statements = `critique states ${critiqueFinal ?? 'nothing'}, defense states ${defenseFinal ?? 'nothing'}`
    return scored(0, `no agreement after ${within} (${statements}): the loop did not terminate with a resolution`)
  }
  if (rounds > maxRounds) {
    return scored(0, `both agents state ${critiqueFinal}, but only after ${within}: the loop did not terminate within the maximum rounds`)
  }
  if (critiqueFinal !== ideal) return scored(0, `both agents state ${critiqueFinal}, but the ideal resolution is ${ideal}`)
  if (ending.moreRoundsThanNecessary) {
    return scored(0.5, `both agents state ${ideal} as ideal, but the loop ran more rounds than necessary (${within})`)
  }
  return scored(1, `both agents state ${ideal} as ideal, in ${within}`)
}

/**
 * `debate_resolution_quality` of the trivial baseline (adaptation 3): 0.5 when the self-critique
 * reaches the ideal type, else 0.0; never 1.0, since it performs no actual debate.
 */
export function scoreBaselineResolution(ideal: ResolutionType, reached: ResolutionType | null): DimensionScore {
  if (reached === ideal) return scored(0.5, `the self-critique reaches ${ideal} as ideal; capped at 0.5 without a debate`)
  return scored(0, `the self-critique reaches ${reached ?? 'no resolution'}, but the ideal resolution is ${ideal}`)
}
