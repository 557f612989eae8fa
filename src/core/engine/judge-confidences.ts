// A judge's confidence as its file records it: a probability from 0 to 1 (docs/judges.md#confidence).
// A run and an import never write another, so one in a judge's file was edited in by hand or made
// by another tool; `sample --method active` would draw by it, so it refuses the fixture.
import { CONFIDENCE_EXPECTED, isConfidence } from '../common/confidence.js'
import { FixtureError } from '../common/errors.js'
import { isObject } from '../common/primitives.js'
import { describeValue } from '../json/schema-error.js'
import type { ReviewDocument } from './documents.js'

/**
 * Refuses a judge's file in which a judgement's `confidence` is not a number from 0 to 1, naming the
 * file and the JSON path of the first one.
 */
export function checkJudgeConfidences(file: string, document: ReviewDocument): void {
  for (const bySlot of document.reviews.values()) {
    for (const entry of Object.values(bySlot)) {
      const judgements = isObject(entry.value) ? entry.value['judgements'] : undefined
      if (!isObject(judgements)) continue
      for (const [item, judgement] of Object.entries(judgements)) {
        if (!isObject(judgement) || !Object.hasOwn(judgement, 'confidence')) continue
        const confidence = judgement['confidence']
        if (isConfidence(confidence)) continue
        throw new FixtureError({
          code: 'FILE_SCHEMA',
          file,
          path: [...entry.path, 'judgements', item, 'confidence'],
          caseId: entry.caseId,
          summary: "the judge's confidence is not a number from 0 to 1, so a draw by the judge's confidence (`sample --method active`) cannot use it.",
          expected: CONFIDENCE_EXPECTED,
          found: describeValue(confidence),
          hint: "give the judge's probability that its rating is right, from 0 to 1, or leave the confidence out (a label without one is as valid).",
        })
      }
    }
  }
}
