// The answer the assistant ships must stay the reviewed one: regenerating it may not drift from
// what the reviewer judged, and the review must still describe it.
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadFixture } from 'vitest-rubric'
import { getReview } from 'vitest-rubric/criteria'
import 'vitest-rubric/setup'
import { renderRollbackAnswer } from './rollback-answer.js'

const fixture = await loadFixture(join(import.meta.dirname, '../fixtures/docuctl-rollback'))
const review = getReview(fixture, 'complete')

describe('the shipped rollback answer', () => {
  test('still meets the rubric, by the review of the answer we ship', () => {
    expect(renderRollbackAnswer()).toMeetRubric(fixture, { review })
  })

  test('is the answer its review describes', () => {
    expect(review).toBeBoundTo({ answer: renderRollbackAnswer() })
    expect(review).toBeBoundTo(fixture)
  })

  test('a template change is a new answer: the old review no longer vouches for it', () => {
    const reworded = renderRollbackAnswer()
    reworded.text = reworded.text.replace('check service health', 'check that the service is up')
    expect(review).not.toBeBoundTo({ answer: reworded })
    expect(() => expect(reworded).toMeetRubric(fixture, { review })).toThrow(/the judgement describes another answer/)
  })
})
