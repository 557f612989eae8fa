import { notApplicable, scored, type DimensionScore } from './score.js'

/**
 * How verdicts are compared: Unicode NFC, trimmed, lower-cased. Punctuation and inner whitespace
 * are kept (`"Reject."` is not `"reject"`): the rubric asks for an exact match after normalizing
 * case and surrounding whitespace, not for a judgement of what the text means.
 */
export function normalizeVerdict(verdict: string): string {
  return verdict.normalize('NFC').trim().toLowerCase()
}

/**
 * `final_verdict_correctness`: 1.0 when the final verdict emitted matches the ground truth after
 * {@link normalizeVerdict}, 0.0 when it does not or none was emitted; N/A when the ground truth's
 * `final_verdict` is null or absent.
 */
export function scoreVerdict(groundTruth: string | null | undefined, emitted: string | null): DimensionScore {
  if (groundTruth === undefined || groundTruth === null) {
    return notApplicable(`N/A: ground_truth.final_verdict is ${groundTruth === null ? 'null' : 'absent'}`)
  }
  if (emitted === null) return scored(0, `no final verdict emitted; expected ${JSON.stringify(groundTruth)}`)
  if (normalizeVerdict(emitted) === normalizeVerdict(groundTruth)) {
    return scored(1, `${JSON.stringify(emitted)} matches ${JSON.stringify(groundTruth)} (trimmed, case-insensitive)`)
  }
  return scored(0, `${JSON.stringify(emitted)} does not match ${JSON.stringify(groundTruth)} (trimmed, case-insensitive)`)
}
