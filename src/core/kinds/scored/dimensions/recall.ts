import { plural } from '../../../common/primitives.js'
import type { Claim, PlantedIssue } from '../schemas.js'
import { formatFigure, notApplicable, scored, type DimensionScore } from './score.js'

/** Credit for a planted issue found with the right location and characterization. */
const FULL = 1
/** Credit when the location is right but the characterization materially wrong, or the reverse. */
const PARTIAL = 0.5

/**
 * `issue_discovery_recall`: the credit of the planted issues the critique found over the number of
 * planted issues. A planted issue found by several claims earns the best of their credits, once.
 * N/A when the case has no planted issue (the rubric calls the score undefined).
 */
export function scoreRecall(plantedIssues: readonly PlantedIssue[], claims: readonly Claim[]): DimensionScore {
  if (plantedIssues.length === 0) return notApplicable('N/A: the case has no planted issues, so recall is undefined')
  let found = 0
  const parts = plantedIssues.map((issue) => {
    const matches = claims.filter((claim) => claim.validity === 'planted' && claim.planted_issue === issue.id)
    const best = matches.find((claim) => claim.credit === 'full') ?? matches[0]
    if (best === undefined) return `${issue.id} missed`
    found += best.credit === 'full' ? FULL : PARTIAL
    return `${issue.id} ${best.credit === 'full' ? 'full' : 'partial'} (${best.id})`
  })
  return scored(found / plantedIssues.length, `${formatFigure(found)} of ${plural(plantedIssues.length, 'planted issue')} found: ${parts.join(', ')}`)
}
