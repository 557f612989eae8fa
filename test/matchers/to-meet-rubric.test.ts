import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { kindContext } from '../../src/core/engine/fixture.js'
import '../../src/matchers/setup.js'
import { getCase, getReview } from '../../src/core/kinds/criteria/access.js'
import { UsageError } from '../../src/core/common/errors.js'
import type { Review } from '../../src/core/kinds/criteria/schemas.js'
import { loadFixture } from '../../src/core/registry.js'
import { copyFixture, DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { answerOf, failureOf } from '../helpers/matcher-failure.js'

const fixture = await loadFixture(DOCUCTL, { cwd: ROOT, kind: 'criteria' })
const contrast = (id: string) => getCase(fixture, id)

describe('toMeetRubric on a fixture case', () => {
  test('passes for the accepted contrasts', () => {
    expect(contrast('complete')).toMeetRubric()
    expect(contrast('paraphrase')).toMeetRubric()
    expect(contrast('negation')).toMeetRubric()
  })

  test('fails on a rejection with each failed criterion, its reason, quote and span, and the ratings diff', () => {
    expect(failureOf(() => expect(contrast('unsupported-guarantee')).toMeetRubric())).toMatchInlineSnapshot(`
      "expect(case).toMeetRubric()

      case "unsupported-guarantee" of fixtures/docuctl-rollback is rejected on support.

      rejected: 1 criterion does not meet the rubric
        ✗ support: Every material claim must be supported by this source; do not invent guarantees.
            reason: The guide promises nothing about downtime; the zero-downtime guarantee is invented.
            quote:  "The command changes the deployed service version. It does not restore database contents."
            span:   "It guarantees zero downtime."

      - Expected ratings
      + Received ratings

        {
          "command": "meets",
          "preconditions": "meets",
          "database_scope": "meets",
          "verification": "meets",
      -   "support": "meets",
      +   "support": "does_not_meet",
        }

      fix: revise the answer until it meets that criterion and have it reviewed again; if it is a contrast meant to fail, assert toFailCriteria(["support"])."
    `)
  })

  test('fails on a pending review with what is uncertain', () => {
    expect(failureOf(() => expect(contrast('uncertain-wording')).toMeetRubric())).toMatchInlineSnapshot(`
      "expect(case).toMeetRubric()

      case "uncertain-wording" of fixtures/docuctl-rollback is pending (uncertain on support): not a pass and not a fail until its review is complete.

      uncertain: 1 criterion needs adjudication or a clearer rule
        ? support: Every material claim must be supported by this source; do not invent guarantees.
            reason: "Your data will be safe" may promise database durability that the guide never gives; it needs adjudication.
            quote:  "The command changes the deployed service version. It does not restore database contents."
            span:   "Your data will be safe."

      fix: complete the review (uncertain on support) in fixtures/docuctl-rollback/annotations.json, then run \`vitest-rubric bind fixtures/docuctl-rollback --case uncertain-wording\` to acknowledge the new review revision."
    `)
  })

  test('fails on a missing review', () => {
    expect(failureOf(() => expect(contrast('not-reviewed')).toMeetRubric())).toMatchInlineSnapshot(`
      "expect(case).toMeetRubric()

      case "not-reviewed" of fixtures/docuctl-rollback is pending (no review): not a pass and not a fail until its review is complete.

      Nobody has reviewed this answer.

      fix: review the answer and add the review to fixtures/docuctl-rollback/annotations.json."
    `)
  })
})

describe('.not.toMeetRubric passes only for a completed review that rejects the answer', () => {
  test('passes for the rejected contrasts', () => {
    expect(contrast('unsupported-guarantee')).not.toMeetRubric()
    expect(contrast('missing-verification')).not.toMeetRubric()
    expect(contrast('wrong-command')).not.toMeetRubric()
  })

  test('fails for an accepted answer', () => {
    expect(failureOf(() => expect(contrast('complete')).not.toMeetRubric())).toMatchInlineSnapshot(`
      "expect(case).not.toMeetRubric()

      case "complete" of fixtures/docuctl-rollback is accepted: every criterion is judged "meets".

      ratings: command meets, preconditions meets, database_scope meets, verification meets, support meets

      .not.toMeetRubric passes only when a completed review rejects the answer."
    `)
  })

  test('fails for a pending answer: pending is not a rejection', () => {
    expect(failureOf(() => expect(contrast('uncertain-wording')).not.toMeetRubric())).toMatchInlineSnapshot(`
      "expect(case).not.toMeetRubric()

      case "uncertain-wording" of fixtures/docuctl-rollback is pending (uncertain on support): not a pass and not a fail until its review is complete.

      uncertain: 1 criterion needs adjudication or a clearer rule
        ? support: Every material claim must be supported by this source; do not invent guarantees.
            reason: "Your data will be safe" may promise database durability that the guide never gives; it needs adjudication.
            quote:  "The command changes the deployed service version. It does not restore database contents."
            span:   "Your data will be safe."

      .not.toMeetRubric passes only when a completed review rejects the answer: a pending review is not a rejection. Assert toBePendingReview() for that."
    `)
    expect(failureOf(() => expect(contrast('not-reviewed')).not.toMeetRubric())).toContain('is pending (no review)')
  })
})

describe("a refused case fails with the core's error, with and without .not", () => {
  test('an unacknowledged label edit', async () => {
    const copy = await copyFixture()
    await copy.editAnnotations((annotations) => {
      annotations.reviews[4]!.judgements['verification']!.rating = 'meets'
    })
    const edited = getCase(await loadFixture(copy.dir, { cwd: copy.dir }), 'missing-verification')
    const message = failureOf(() => expect(edited).toMeetRubric())
    expect(message).toMatchInlineSnapshot(`
      "expect(case).toMeetRubric()

      case "missing-verification" is refused: a binding or provenance check failed, so there is no decision.

      cases.json › cases[4] › expected › review_sha256 (case "missing-verification"): annotations.json › reviews[4] changed since the case recorded it: an unacknowledged label edit.
        expected: 266cc1e89034d82777229b925cc407f8081f8bed56e7682519032463f57d44c2 (fingerprint of annotations.json › reviews[4] now)
        found:    67564b6f7a60c34c6a681a526e2670568af111744d29feff4c9125daa048e6a0
        fix:      if the review is meant to change, acknowledge it with \`vitest-rubric bind . --case missing-verification\`; otherwise restore the review.

      a refused case is an error, not a decision: no assertion about its decision passes, with or without .not."
    `)
    expect(failureOf(() => expect(edited).not.toMeetRubric())).toBe(message.replace('expect(case).toMeetRubric()', 'expect(case).not.toMeetRubric()'))
  })
})

describe('toMeetRubric on an answer with a rubric and a review', () => {
  test('the reviewed answer, regenerated identically, meets the rubric under the fixture or the raw files', async () => {
    const review = getReview(fixture, 'paraphrase')
    expect(answerOf(contrast('paraphrase'))).toMeetRubric(fixture, { review })
    expect(answerOf(contrast('paraphrase'))).toMeetRubric(kindContext(fixture), { review })
    const [rubric, source] = await Promise.all([readFile(join(DOCUCTL, 'rubric.json')), readFile(join(DOCUCTL, 'source.txt'))])
    expect(answerOf(contrast('paraphrase'))).toMeetRubric(rubric, { review, source })
    expect(answerOf(contrast('wrong-command'))).not.toMeetRubric(rubric, { review: getReview(fixture, 'wrong-command'), source })
  })

  test('a changed answer is refused: the review describes another answer', () => {
    const changed = answerOf(contrast('paraphrase'))
    changed.text = changed.text.replace('verify that the service is healthy', 'check the dashboard')
    expect(failureOf(() => expect(changed).toMeetRubric(fixture, { review: getReview(fixture, 'paraphrase') }))).toMatchInlineSnapshot(`
      "expect(answer).toMeetRubric(rubric, { review })

      the answer reviewed as "paraphrase" is refused: a binding or provenance check failed, so there is no decision.

      fixtures/docuctl-rollback/annotations.json › reviews[1] › answer_sha256 (case "paraphrase"): the answer changed since it was reviewed: the judgement describes another answer.
        expected: 492fd68ce847c66435408f70b463f9051130a60f2b3f707ab2207b7623e4a59d (fingerprint of answer now)
        found:    1fb2ec5f7a4c91a7effe3312c9240c039193ee5a5bb8e65944229f98a4821c41
        fix:      re-read the answer and revise the review, then record the review again for this answer, from the answer, source and rubric as they are now.
        also:     fixtures/docuctl-rollback/annotations.json › reviews[1] › judgements › verification › answer_span: the answer span does not occur in the answer text (answer › text). Fix: quote the answer exactly; for an omission use "" and name the absent requirement in the reason.

      a refused case is an error, not a decision: no assertion about its decision passes, with or without .not."
    `)
  })

  test('a review object bound to an edited rubric is refused on the rubric binding', async () => {
    const rubric = (await readFile(join(DOCUCTL, 'rubric.json'), 'utf8')).replace('"version": 1', '"version": 2')
    const source = await readFile(join(DOCUCTL, 'source.txt'))
    const review = getReview(fixture, 'complete').entry.value as Review
    const message = failureOf(() => expect(answerOf(contrast('complete'))).not.toMeetRubric(rubric, { review, source }))
    expect(message).toMatchInlineSnapshot(`
      "expect(answer).not.toMeetRubric(rubric, { review })

      the answer reviewed as "complete" is refused: a binding or provenance check failed, so there is no decision.

      review › rubric_sha256 (case "complete"): the rubric's criteria changed since the review judged them.
        expected: 804924e52c90078de703afe17c448773434685d69481e486a3bba8eff59d3544 (SHA-256 of rubric now)
        found:    3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228
        fix:      revise the judgements of the affected criteria, then record the review again for this answer, from the answer, source and rubric as they are now.

      a refused case is an error, not a decision: no assertion about its decision passes, with or without .not."
    `)
  })

  test('an answer without a review is pending', () => {
    expect(failureOf(() => expect(answerOf(contrast('complete'))).toMeetRubric(fixture, { review: null }))).toMatchInlineSnapshot(`
      "expect(answer).toMeetRubric(rubric, { review })

      the answer is pending (no review): not a pass and not a fail until its review is complete.

      Nobody has reviewed this answer.

      fix: review the answer and add the review to fixtures/docuctl-rollback/annotations.json."
    `)
  })

  test('a wrong call is a usage error, thrown whatever .not says', () => {
    // @ts-expect-error a fixture case carries its rubric and review
    expect(() => expect(contrast('complete')).not.toMeetRubric(fixture, { review: null })).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: toMeetRubric: a fixture case carries its rubric and review: pass no arguments.
        expected: toMeetRubric() with no arguments
        found:    2 argument(s)
        fix:      docs/matchers.md says what toMeetRubric accepts.]
    `)
    // @ts-expect-error rubric contents need their source
    expect(() => expect({ text: 'Run it.', citation: 'guide' }).not.toMeetRubric('{}', { review: null })).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: toMeetRubric: rubric contents are bound with the source they quote.
        expected: { review, source } with the bytes of source.txt
        found:    undefined
        fix:      docs/matchers.md says what toMeetRubric accepts.]
    `)
    // @ts-expect-error a number is neither a case nor an answer
    expect(() => expect(42).toMeetRubric()).toThrow(UsageError)
  })
})

describe('a scored case', () => {
  // The scored kind's rule decides, and its words say why: the matchers only read its decision.
  const scored = () => loadFixture(join(ROOT, 'fixtures/debate-benchmark'), { cwd: ROOT })

  test('passes toMeetRubric when accepted, and fails it with the rule that rejected it', async () => {
    const fixture = await scored()
    expect(getCase(fixture, 'partial-recall')).toMeetRubric()
    const failure = failureOf(() => expect(getCase(fixture, 'never-terminates')).toMeetRubric())
    expect(failure).toContain(
      'case "never-terminates" of fixtures/debate-benchmark is rejected on defense_calibration, debate_resolution_quality, final_verdict_correctness.',
    )
    expect(failure).toContain('mean 0.4 is below overall_case_pass 0.65')
    expect(getCase(fixture, 'never-terminates')).not.toMeetRubric()
    const accepted = failureOf(() => expect(getCase(fixture, 'partial-recall')).not.toMeetRubric())
    expect(accepted).toContain('is accepted: mean 0.95 of 5 applicable dimensions; none below 0.50.')
  })

  test('toFailCriteria compares the dimensions below per_dimension_pass', async () => {
    const fixture = await scored()
    expect(getCase(fixture, 'never-terminates')).toFailCriteria(['final_verdict_correctness', 'defense_calibration', 'debate_resolution_quality'])
    expect(getCase(fixture, 'required-test-missing')).toFailCriteria(['empirical_test_diagnosticity'])
    const failure = failureOf(() => expect(getCase(fixture, 'required-test-missing')).toFailCriteria(['defense_calibration']))
    expect(failure).toContain('Received failed dimensions: ["empirical_test_diagnosticity"]')
    const rejected = failureOf(() => expect(getCase(fixture, 'required-test-missing')).toMeetRubric())
    expect(rejected).toContain('assert toFailCriteria(["empirical_test_diagnosticity"])')
    expect(getCase(fixture, 'partial-recall')).not.toFailCriteria(['issue_discovery_recall'])
  })

  test("a case a person must decide is pending, and says why in the kind's words", async () => {
    const fixture = await scored()
    expect(getCase(fixture, 'unscoreable-silent-critique')).toBePendingReview()
    const failure = failureOf(() => expect(getCase(fixture, 'unscoreable-silent-critique')).toMeetRubric())
    expect(failure).toContain('A person decides this case: manual review: only 2 of 6 dimensions applicable (at least 4 needed).')
    expect(() => expect(getCase(fixture, 'partial-recall')).toBePendingReview()).toThrow()
  })
})
