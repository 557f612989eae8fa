// The contrast answers of the rollback rubric, each authored to isolate the criteria it fails: if
// a review or the rubric drifts so that a contrast no longer fails exactly those, the boundary it
// was written to show is gone, and this suite says which criterion moved.
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadFixture } from 'vitest-rubric'
import { getCase } from 'vitest-rubric/criteria'
import 'vitest-rubric/setup'

const fixture = await loadFixture(join(import.meta.dirname, '../fixtures/docuctl-rollback'))

describe('docuctl rollback contrasts', () => {
  test.each(['complete', 'paraphrase', 'negation'])('%s meets the rubric', (id) => {
    expect(getCase(fixture, id)).toMeetRubric()
  })

  test.each([
    ['unsupported-guarantee', ['support']],
    ['missing-verification', ['verification']],
    ['wrong-command', ['command', 'support']],
  ] as const)('%s fails exactly %j', (id, criteria) => {
    expect(getCase(fixture, id)).toFailCriteria(criteria)
  })

  test.each(['uncertain-wording', 'not-reviewed'])('%s stays pending until it is reviewed', (id) => {
    expect(getCase(fixture, id)).toBePendingReview()
  })

  test('review coverage counts the pending answers beside the graded ones', () => {
    expect(fixture).toHaveReviewCoverage({ candidates: 8, graded: 6, pending: 2, refused: 0, accepted: 3, rejected: 3 })
  })
})
