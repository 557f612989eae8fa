// A judge's confidence in a rating: a probability from 0 to 1 (docs/judges.md#confidence).

/** What a confidence must be, as messages say it. */
export const CONFIDENCE_EXPECTED = "a number from 0 to 1 (the judge's probability that its rating is right), or no confidence"

/** Whether a value is a confidence: a finite number from 0 to 1. */
export function isConfidence(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1
}
