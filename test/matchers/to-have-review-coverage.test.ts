import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import '../../src/matchers/setup.js'
import { UsageError } from '../../src/core/common/errors.js'
import { evaluateFixture } from '../../src/core/engine/evaluate.js'
import { loadFixture } from '../../src/core/registry.js'
import { copyFixture, DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { failureOf } from '../helpers/matcher-failure.js'

const fixture = await loadFixture(DOCUCTL, { cwd: ROOT })

describe('toHaveReviewCoverage', () => {
  test("a scored fixture's failure says its coverage in its kind's words: scored, passed, failed", async () => {
    const scored = await loadFixture(join(ROOT, 'fixtures/debate-benchmark'), { cwd: ROOT })
    const { coverage } = evaluateFixture(scored)
    const message = failureOf(() => expect(scored).toHaveReviewCoverage({ candidates: coverage.candidates + 1 }))
    expect(message).toContain(
      `review coverage: ${coverage.graded} scored of ${coverage.candidates} candidates; ${coverage.pending} pending; ${coverage.refused} refused — passed ${coverage.outcomes?.accepted}, failed ${coverage.outcomes?.rejected}`,
    )
    expect(message).not.toMatch(/graded of|accepted \d|rejected \d/)
  })

  test('passes for the counts of the bundled fixture, from the fixture, its evaluation or its coverage', () => {
    expect(fixture).toHaveReviewCoverage({ graded: 6, pending: 2 })
    expect(fixture).toHaveReviewCoverage({ candidates: 8, graded: 6, pending: 2, refused: 0, accepted: 3, rejected: 3 })
    expect(evaluateFixture(fixture)).toHaveReviewCoverage({ accepted: 3 })
    expect(evaluateFixture(fixture).coverage).toHaveReviewCoverage({ rejected: 3 })
    expect(fixture).toHaveReviewCoverage({ candidates: 8, graded: 6 }, { split: 'development' })
    expect(fixture).toHaveReviewCoverage({ candidates: 0, graded: 0, accepted: 0 }, { split: 'held_out' })
  })

  test('fails with a diff of the counts, the summary and the pending reasons', () => {
    expect(failureOf(() => expect(fixture).toHaveReviewCoverage({ graded: 8, pending: 0 }))).toMatchInlineSnapshot(`
      "expect(fixture).toHaveReviewCoverage(expected)

      fixture "docuctl-rollback-contrasts" (fixtures/docuctl-rollback) has another review coverage.

      - Expected coverage
      + Received coverage

        {
      -   "graded": 8,
      -   "pending": 0,
      +   "graded": 6,
      +   "pending": 2,
        }

      review coverage: 6 graded of 8 candidates; 2 pending; 0 refused — accepted 3, rejected 3

      pending:
        uncertain-wording: uncertain on support
        not-reviewed: no review"
    `)
  })

  test('.not passes when a count differs, and fails when all match', () => {
    expect(fixture).not.toHaveReviewCoverage({ pending: 0 })
    expect(failureOf(() => expect(fixture).not.toHaveReviewCoverage({ graded: 6, pending: 2 }))).toMatchInlineSnapshot(`
      "expect(fixture).not.toHaveReviewCoverage(expected)

      fixture "docuctl-rollback-contrasts" (fixtures/docuctl-rollback) has exactly these counts: graded 6, pending 2.

      review coverage: 6 graded of 8 candidates; 2 pending; 0 refused — accepted 3, rejected 3

      .not.toHaveReviewCoverage passes when at least one given count differs."
    `)
  })
})

describe('refused cases', () => {
  async function withRefusal() {
    const copy = await copyFixture()
    await copy.editAnnotations((annotations) => {
      annotations.reviews[0]!.judgements['command']!.reason = 'Edited after the fact.'
    })
    return loadFixture(copy.dir, { cwd: copy.dir })
  }

  test('fail the assertion either way unless refused is counted', async () => {
    const edited = await withRefusal()
    const message = failureOf(() => expect(edited).not.toHaveReviewCoverage({ graded: 6 }))
    expect(message).toMatchInlineSnapshot(`
      "expect(fixture).not.toHaveReviewCoverage(expected)

      fixture "docuctl-rollback-contrasts" has 1 refused case: a refusal is an error, so no coverage assertion passes over it, with or without .not.

      review coverage: 5 graded of 8 candidates; 2 pending; 1 refused — accepted 2, rejected 3

      refused:
        complete (REVIEW_EDIT_UNACKNOWLEDGED):
          cases.json › cases[0] › expected › review_sha256 (case "complete"): annotations.json › reviews[0] changed since the case recorded it: an unacknowledged label edit.
            expected: ea07668184856f9f9405476fb78e0fb91b55f40f5d37611cd785bf1d7f892aa2 (fingerprint of annotations.json › reviews[0] now)
            found:    81149c3489f30105f2dcd7e2fee463c4a4f5b5950cccdc809da66e5e03c6a28c
            fix:      if the review is meant to change, acknowledge it with \`vitest-rubric bind . --case complete\`; otherwise restore the review.

      fix: repair the refused cases (each error says how), or assert them with refused: <count>."
    `)
    expect(failureOf(() => expect(edited).toHaveReviewCoverage({ graded: 5, pending: 2 }))).toContain('has 1 refused case')
  })

  test('can be asserted by count', async () => {
    const edited = await withRefusal()
    expect(edited).toHaveReviewCoverage({ candidates: 8, graded: 5, pending: 2, refused: 1, accepted: 2 })
    expect(edited).not.toHaveReviewCoverage({ refused: 0 })
  })
})

describe('a wrong call is a usage error', () => {
  test('unknown counts, no count, a wrong split', () => {
    // @ts-expect-error gradded is not a count
    expect(() => expect(fixture).not.toHaveReviewCoverage({ gradded: 6 })).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: toHaveReviewCoverage: every count must be one of candidates, graded, pending, refused, accepted, rejected, with a whole number ≥ 0.
        expected: { graded: 6, pending: 2 } (at least one count)
        found:    {"gradded":6}
        fix:      docs/matchers.md says what toHaveReviewCoverage accepts.]
    `)
    // @ts-expect-error at least one count
    expect(() => expect(fixture).not.toHaveReviewCoverage({})).toThrow(UsageError)
    expect(() => expect(fixture).toHaveReviewCoverage({ graded: -1 })).toThrow(UsageError)
    // @ts-expect-error not a split
    expect(() => expect(fixture).toHaveReviewCoverage({ graded: 6 }, { split: 'test' })).toThrow(UsageError)
  })
})
