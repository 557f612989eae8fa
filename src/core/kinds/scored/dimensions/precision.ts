import { plural } from '../../../common/primitives.js'
import type { Claim } from '../schemas.js'
import { notApplicable, scored, type DimensionScore } from './score.js'

/**
 * `issue_discovery_precision`: the atomic claims that are a planted issue (full or partial credit)
 * or demonstrably real, over all atomic claims. N/A when the critique makes no claim: the ratio is
 * undefined, and the rubric excludes undefined scores rather than inventing them.
 */
export function scorePrecision(claims: readonly Claim[]): DimensionScore {
  if (claims.length === 0) return notApplicable('N/A: the critique makes no claims, so precision is undefined')
  const invalid = claims.filter((claim) => claim.validity === 'invalid')
  const valid = claims.length - invalid.length
  const detail = `${valid} of ${plural(claims.length, 'claim')} valid${invalid.length === 0 ? '' : `; invalid: ${invalid.map((claim) => claim.id).join(', ')}`}`
  return scored(valid / claims.length, detail)
}
