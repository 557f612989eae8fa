// A judge module's confidence in a verdict: checked apart from the rest of the verdict, so that a
// refusal names the judge, the case, the criterion, the value and what was expected.
import { CONFIDENCE_EXPECTED, isConfidence } from '../common/confidence.js'

/** A judgement as a run writes it into a label's draft: the verdict, its span defaulted, and its confidence when given. */
export interface JudgedCriterion {
  rating: string
  reason: string
  answer_span: string
  confidence?: number
}

/** The code a refused confidence is reported with, at the head of the failure's message (docs/errors.md). */
export const CONFIDENCE_ERROR_CODE = 'JUDGE_CONFIDENCE_INVALID'

/**
 * The verdict's confidence when it is one (`undefined` when left out); throws, so that the call is
 * retried and then reported, when it is not a number from 0 to 1.
 */
export function checkedConfidence(value: unknown, where: { readonly judge: string; readonly caseId: string; readonly criterion: string }): number | undefined {
  if (value === undefined || isConfidence(value)) return value
  let found: string
  try {
    found = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value))
  } catch {
    found = String(value)
  }
  throw new Error(
    `${CONFIDENCE_ERROR_CODE}: judge ${JSON.stringify(where.judge)} gave case ${JSON.stringify(where.caseId)}, criterion ${JSON.stringify(where.criterion)} ` +
      `the confidence ${found.length > 80 ? `${found.slice(0, 79)}…` : found}; expected ${CONFIDENCE_EXPECTED}`,
  )
}
