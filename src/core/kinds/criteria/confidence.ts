// A judge's confidence in a rating: optional, a probability from 0 to 1 (docs/judges.md#confidence).
import { CONFIDENCE_EXPECTED, isConfidence } from '../../common/confidence.js'
import type { DraftProblem } from '../../contract/kind.js'

/** The problem with a judgement's confidence, or `undefined` when it is one or left out. */
export function confidenceProblem(value: unknown, criterion: string): DraftProblem | undefined {
  if (value === undefined || isConfidence(value)) return undefined
  return {
    path: [criterion, 'confidence'],
    summary: `the confidence is ${String(value)}, outside 0 to 1.`,
    expected: CONFIDENCE_EXPECTED,
    found: String(value),
    hint: 'give the probability that the rating is right, from 0 to 1, or leave the confidence out.',
  }
}
