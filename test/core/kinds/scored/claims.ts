import type { BaselineClaim, DebateClaim, DefenseResponse } from '../../../../src/core/kinds/scored/schemas.js'

/** A claim that finds a planted issue. */
export function planted(
  id: string,
  issue: string,
  credit: 'full' | 'partial' = 'full',
): { id: string; span: string; validity: 'planted'; planted_issue: string; credit: 'full' | 'partial'; reason: string } {
  return { id, span: `claim ${id}`, validity: 'planted', planted_issue: issue, credit, reason: 'authored for a unit test' }
}

export function real(id: string): { id: string; span: string; validity: 'demonstrably_real'; reason: string } {
  return { id, span: `claim ${id}`, validity: 'demonstrably_real', reason: 'authored for a unit test' }
}

export function invalid(id: string): { id: string; span: string; validity: 'invalid'; reason: string } {
  return { id, span: `claim ${id}`, validity: 'invalid', reason: 'authored for a unit test' }
}

/** A debate claim with the defense's response to it. */
export function answered(
  claim: ReturnType<typeof planted | typeof real | typeof invalid>,
  response: DefenseResponse['response'],
  positionUpdated?: boolean,
): DebateClaim {
  const defense: DefenseResponse =
    positionUpdated === undefined
      ? { response, span: response === 'no_engagement' ? '' : 'reply' }
      : { response, span: 'reply', position_updated: positionUpdated }
  return { ...claim, defense }
}

/** A baseline claim with the original answer's handling of it. */
export function handled(claim: ReturnType<typeof planted | typeof real | typeof invalid>, handling?: 'already_correct' | 'not_handled'): BaselineClaim {
  return handling === undefined ? claim : { ...claim, answer_handling: handling }
}
