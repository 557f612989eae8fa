import { plural } from '../../../common/primitives.js'
import type { BaselineClaim, DebateClaim, ResponseKind } from '../schemas.js'
import { formatFigure, mean, notApplicable, scored, type DimensionScore } from './score.js'

/** (A) correct concession, scored by the defense's response to a valid claim. */
const CONCESSION: Readonly<Record<ResponseKind, number>> = {
  concede: 1,
  hedged_concession: 0.5,
  reject_with_reasoning: 0, // denial
  reject_without_reasoning: 0, // denial
  no_engagement: 0, // silence acknowledges nothing: the flaw stands, as after a denial
}

/** (B) correct contestation, scored by the defense's response to an invalid claim. */
const CONTESTATION: Readonly<Record<ResponseKind, number>> = {
  reject_with_reasoning: 1,
  reject_without_reasoning: 0.5, // not a concession, but no specific counter-argument
  no_engagement: 0.5, // passive non-engagement
  concede: 0,
  hedged_concession: 0, // still concedes the false claim, in part
}

/** One scored instance of (A), (B) or (C). */
export interface CalibrationInstance {
  readonly behavior: 'A' | 'B' | 'C'
  readonly claim: string
  readonly score: number
  /** What the instance scored: `concede`, `not updated`, `already_correct`, … */
  readonly basis: string
}

/** Whether a response concedes a claim, fully or hedged: (C) follows such a concession of a valid claim. */
export function concedes(response: ResponseKind): boolean {
  return response === 'concede' || response === 'hedged_concession'
}

/**
 * The (A), (B) and (C) instances of a debate: one (A) per valid claim, one (B) per invalid claim,
 * and one (C) per valid claim the defense conceded, fully or hedged.
 */
export function debateCalibrationInstances(claims: readonly DebateClaim[]): CalibrationInstance[] {
  const instances: CalibrationInstance[] = []
  for (const claim of claims) {
    const { response } = claim.defense
    if (claim.validity === 'invalid') {
      instances.push({ behavior: 'B', claim: claim.id, score: CONTESTATION[response], basis: response })
      continue
    }
    instances.push({ behavior: 'A', claim: claim.id, score: CONCESSION[response], basis: response })
    if (concedes(response)) {
      const updated = claim.defense.position_updated === true
      instances.push({ behavior: 'C', claim: claim.id, score: updated ? 1 : 0, basis: updated ? 'updated' : 'not updated' })
    }
  }
  return instances
}

/**
 * The instances of the trivial baseline (adaptation 2): for each valid flaw its self-critique
 * identifies, 1.0 when the original answer already contained the correct handling, else 0.0, and
 * the (C) position update, always 0.0 since there is no revision step. An invalid self-critique
 * claim is no instance: there is no correct handling of a flaw that does not exist and no defense
 * to contest it (precision counts it).
 */
export function baselineCalibrationInstances(claims: readonly BaselineClaim[]): CalibrationInstance[] {
  const instances: CalibrationInstance[] = []
  for (const claim of claims) {
    if (claim.validity === 'invalid') continue
    const handled = claim.answer_handling === 'already_correct'
    instances.push({ behavior: 'A', claim: claim.id, score: handled ? 1 : 0, basis: handled ? 'already_correct' : 'not_handled' })
    instances.push({ behavior: 'C', claim: claim.id, score: 0, basis: 'no revision step' })
  }
  return instances
}

/**
 * `defense_calibration`: the mean over the (A), (B) and (C) instances present. N/A when there is
 * none (no claim to respond to): scoring 1.0 would reward a defense that faced nothing, 0.0 would
 * punish it.
 */
export function scoreCalibration(instances: readonly CalibrationInstance[], none: string): DimensionScore {
  if (instances.length === 0) return notApplicable(`N/A: ${none}`)
  const listed = instances.map((item) => `(${item.behavior}) ${item.claim} ${item.basis} ${formatFigure(item.score)}`)
  return scored(mean(instances.map((item) => item.score)), `mean of ${plural(instances.length, 'instance')}: ${listed.join(', ')}`)
}

/** `defense_calibration` of the debate system, from the defense's response to each claim. */
export function scoreDebateCalibration(claims: readonly DebateClaim[]): DimensionScore {
  return scoreCalibration(debateCalibrationInstances(claims), 'the critique makes no claims, so the defense has nothing to respond to')
}

/** `defense_calibration` of the trivial baseline, from the answer's handling of each valid self-critique claim. */
export function scoreBaselineCalibration(claims: readonly BaselineClaim[]): DimensionScore {
  return scoreCalibration(baselineCalibrationInstances(claims), 'the self-critique identifies no valid flaw, so there is no handling to score')
}
