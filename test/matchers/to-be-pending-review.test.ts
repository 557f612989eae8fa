import { describe, expect, test } from 'vitest'
import '../../src/matchers/setup.js'
import { getCase, getReview } from '../../src/core/kinds/criteria/access.js'
import { loadFixture } from '../../src/core/registry.js'
import { copyFixture, DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { answerOf, failureOf } from '../helpers/matcher-failure.js'

const fixture = await loadFixture(DOCUCTL, { cwd: ROOT })
const contrast = (id: string) => getCase(fixture, id)

describe('toBePendingReview', () => {
  test('passes for the uncertain and the unreviewed contrast, and for an answer without a review', () => {
    expect(contrast('uncertain-wording')).toBePendingReview()
    expect(contrast('not-reviewed')).toBePendingReview()
    expect(answerOf(contrast('complete'))).toBePendingReview(fixture, { review: null })
  })

  test('fails for a graded answer, saying what its review decided', () => {
    expect(failureOf(() => expect(contrast('missing-verification')).toBePendingReview())).toMatchInlineSnapshot(`
      "expect(case).toBePendingReview()

      case "missing-verification" of fixtures/docuctl-rollback is rejected on verification.

      rejected: 1 criterion does not meet the rubric
        ✗ verification: Tell the reader to check service health after rollback.
            reason: Omission: the answer never asks for a service health check after the rollback.
            quote:  "After the rollback, check service health."
            span:   no span: omission

      Its review is complete, so it is graded, not pending."
    `)
  })

  test('a review missing a criterion is pending, with the criterion named', async () => {
    const copy = await copyFixture()
    await copy.editAnnotations((annotations) => {
      delete annotations.reviews[0]!.judgements['database_scope']
    })
    await copy.acknowledgeReview('complete')
    const incomplete = getCase(await loadFixture(copy.dir, { cwd: copy.dir }), 'complete')
    expect(incomplete).toBePendingReview()
    expect(failureOf(() => expect(incomplete).not.toBePendingReview())).toMatchInlineSnapshot(`
      "expect(case).not.toBePendingReview()

      case "complete" is pending (missing criterion database_scope): not a pass and not a fail until its review is complete.

      not judged: database_scope

      fix: complete the review (missing criterion database_scope) in annotations.json, then run \`vitest-rubric bind . --case complete\` to acknowledge the new review revision."
    `)
  })

  test('a known does_not_meet does not make an incomplete review a rejection', async () => {
    const copy = await copyFixture()
    await copy.editAnnotations((annotations) => {
      annotations.reviews[5]!.judgements['verification']!.rating = 'uncertain'
    })
    await copy.acknowledgeReview('wrong-command')
    const wrongCommand = getCase(await loadFixture(copy.dir, { cwd: copy.dir }), 'wrong-command')
    expect(wrongCommand).toBePendingReview()
    expect(failureOf(() => expect(wrongCommand).toFailCriteria(['command', 'support']))).toMatchInlineSnapshot(`
      "expect(case).toFailCriteria(criteria)

      case "wrong-command" is pending (uncertain on verification): not a pass and not a fail until its review is complete.

      uncertain: 1 criterion needs adjudication or a clearer rule
        ? verification: Tell the reader to check service health after rollback.
            reason: Tells the reader to check service health once the rollback is done.
            quote:  "After the rollback, check service health."
            span:   "After the rollback, check service health."
      already judged does_not_meet (not a rejection while the review is incomplete):
        ✗ command: Give the exact docuctl 3 staging command for release r41.
            reason: Uses an older command syntax instead of the docuctl 3 command the guide gives.
            quote:  "Use \`docuctl releases rollback r41 --environment staging\` to select release r41."
            span:   "\`docuctl rollback r41 --env staging\`"
        ✗ support: Every material claim must be supported by this source; do not invent guarantees.
            reason: The guide does not document this command form, so the answer asserts something the source does not support.
            quote:  "The command changes the deployed service version. It does not restore database contents."
            span:   "docuctl rollback r41 --env staging"

      toFailCriteria compares the failed criteria of a completed review, with or without .not; a pending review has none yet.

      fix: complete the review (uncertain on verification) in annotations.json, then run \`vitest-rubric bind . --case wrong-command\` to acknowledge the new review revision."
    `)
  })
})

describe('.not.toBePendingReview passes for a completed review, accepted or rejected', () => {
  test('passes for graded contrasts', () => {
    expect(contrast('complete')).not.toBePendingReview()
    expect(contrast('wrong-command')).not.toBePendingReview()
    expect(answerOf(contrast('negation'))).not.toBePendingReview(fixture, { review: getReview(fixture, 'negation') })
  })

  test('fails for a pending answer with its reason', () => {
    expect(failureOf(() => expect(contrast('not-reviewed')).not.toBePendingReview())).toMatchInlineSnapshot(`
      "expect(case).not.toBePendingReview()

      case "not-reviewed" of fixtures/docuctl-rollback is pending (no review): not a pass and not a fail until its review is complete.

      Nobody has reviewed this answer.

      fix: review the answer and add the review to fixtures/docuctl-rollback/annotations.json."
    `)
  })

  test('a refused case is neither: it fails both ways', async () => {
    const copy = await copyFixture()
    await copy.editCases((cases) => {
      cases.cases[6]!.input.answer.text += ' Rollbacks are routine.'
    })
    const stale = getCase(await loadFixture(copy.dir, { cwd: copy.dir }), 'uncertain-wording')
    const message = failureOf(() => expect(stale).toBePendingReview())
    expect(message).toMatchInlineSnapshot(`
      "expect(case).toBePendingReview()

      case "uncertain-wording" is refused: a binding or provenance check failed, so there is no decision.

      annotations.json › reviews[6] › answer_sha256 (case "uncertain-wording"): the answer changed since it was reviewed: the judgement describes another answer.
        expected: fb8c70aae0abb55386a8c871d66aebe0f5a31395d942b65d3177529a110e19ef (fingerprint of cases.json › cases[6] › input › answer now)
        found:    290bd77cb844cf8f4a817131cbd5d623760b381c3ea234ce3219d64c6a170296
        fix:      re-read the answer and revise the review, then run \`vitest-rubric bind . --case uncertain-wording\`.

      a refused case is an error, not a decision: no assertion about its decision passes, with or without .not."
    `)
    expect(failureOf(() => expect(stale).not.toBePendingReview())).toContain('is refused: a binding or provenance check failed')
  })
})
