// A judge's confidence in a rating: optional, a probability from 0 to 1 (docs/judges.md#confidence).
import type { DraftProblem } from '../../contract/kind.js'

/** What a confidence must be, as messages say it. */
export const CONFIDENCE_EXPECTED = "a number from 0 to 1 (the judge's probability that its rating is right), or no confidence"

/** Whether a value is a confidence: a finite number from 0 to 1. */
export function isConfidence(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1
}

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
