import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import '../../src/matchers/setup.js'
import { getCase, getReview } from '../../src/core/kinds/criteria/access.js'
import { UsageError } from '../../src/core/common/errors.js'
import { loadFixture } from '../../src/core/registry.js'
import { DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { answerOf, failureOf } from '../helpers/matcher-failure.js'

const fixture = await loadFixture(DOCUCTL, { cwd: ROOT })
const contrast = (id: string) => getCase(fixture, id)

describe('toFailCriteria', () => {
  test('passes when a completed review rejects exactly those criteria, in any order', () => {
    expect(contrast('unsupported-guarantee')).toFailCriteria(['support'])
    expect(contrast('missing-verification')).toFailCriteria(['verification'])
    expect(contrast('wrong-command')).toFailCriteria(['support', 'command'])
    expect(answerOf(contrast('wrong-command'))).toFailCriteria(['command', 'support'], fixture, { review: getReview(fixture, 'wrong-command') })
  })

  test('fails when more criteria fail than asserted, with the ratings diff', () => {
    expect(failureOf(() => expect(contrast('wrong-command')).toFailCriteria(['command']))).toMatchInlineSnapshot(`
      "expect(case).toFailCriteria(criteria)

      case "wrong-command" of fixtures/docuctl-rollback is rejected on command, support.

      Expected failed criteria: ["command"]
      Received failed criteria: ["command", "support"]

      - Expected ratings
      + Received ratings

        {
          "command": "does_not_meet",
          "preconditions": "meets",
          "database_scope": "meets",
          "verification": "meets",
      -   "support": "meets",
      +   "support": "does_not_meet",
        }

      rejected: 2 criteria do not meet the rubric
        ✗ command: Give the exact docuctl 3 staging command for release r41.
            reason: Uses an older command syntax instead of the docuctl 3 command the guide gives.
            quote:  "Use \`docuctl releases rollback r41 --environment staging\` to select release r41."
            span:   "\`docuctl rollback r41 --env staging\`"
        ✗ support: Every material claim must be supported by this source; do not invent guarantees.
            reason: The guide does not document this command form, so the answer asserts something the source does not support.
            quote:  "The command changes the deployed service version. It does not restore database contents."
            span:   "docuctl rollback r41 --env staging""
    `)
  })

  test('fails for an accepted answer', () => {
    expect(failureOf(() => expect(contrast('paraphrase')).toFailCriteria(['support']))).toMatchInlineSnapshot(`
      "expect(case).toFailCriteria(criteria)

      case "paraphrase" of fixtures/docuctl-rollback is accepted: every criterion is judged "meets".

      Expected failed criteria: ["support"]
      Received failed criteria: []

      - Expected ratings
      + Received ratings

        {
          "command": "meets",
          "preconditions": "meets",
          "database_scope": "meets",
          "verification": "meets",
      -   "support": "does_not_meet",
      +   "support": "meets",
        }"
    `)
  })

  test('fails both ways for a pending answer', () => {
    expect(failureOf(() => expect(contrast('uncertain-wording')).toFailCriteria(['support']))).toMatchInlineSnapshot(`
      "expect(case).toFailCriteria(criteria)

      case "uncertain-wording" of fixtures/docuctl-rollback is pending (uncertain on support): not a pass and not a fail until its review is complete.

      uncertain: 1 criterion needs adjudication or a clearer rule
        ? support: Every material claim must be supported by this source; do not invent guarantees.
            reason: "Your data will be safe" may promise database durability that the guide never gives; it needs adjudication.
            quote:  "The command changes the deployed service version. It does not restore database contents."
            span:   "Your data will be safe."

      toFailCriteria compares the failed criteria of a completed review, with or without .not; a pending review has none yet.

      fix: complete the review (uncertain on support) in fixtures/docuctl-rollback/annotations.json, then run \`vitest-rubric bind fixtures/docuctl-rollback --case uncertain-wording\` to acknowledge the new review revision."
    `)
    expect(failureOf(() => expect(contrast('uncertain-wording')).not.toFailCriteria(['support']))).toContain(
      'toFailCriteria compares the failed criteria of a completed review, with or without .not; a pending review has none yet.',
    )
  })

  test('fails both ways for a refused answer', async () => {
    const source = `${await readFile(join(DOCUCTL, 'source.txt'), 'utf8')}A rollback takes about a minute.\n`
    const rubric = await readFile(join(DOCUCTL, 'rubric.json'))
    const answer = answerOf(contrast('missing-verification'))
    const review = getReview(fixture, 'missing-verification')
    expect(failureOf(() => expect(answer).toFailCriteria(['verification'], rubric, { review, source }))).toMatchInlineSnapshot(`
      "expect(answer).toFailCriteria(criteria, rubric, { review })

      the answer reviewed as "missing-verification" is refused: a binding or provenance check failed, so there is no decision.

      fixtures/docuctl-rollback/annotations.json › reviews[4] › source_sha256 (case "missing-verification"): the source changed since the review was made.
        expected: a75c3567e3096fcdd259d20e52096293decb76eacec38ce1dc85791eeaf6fab3 (SHA-256 of source now)
        found:    2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2
        fix:      check the judgements against the changed source, then record the review again for this answer, from the answer, source and rubric as they are now.

      a refused case is an error, not a decision: no assertion about its decision passes, with or without .not."
    `)
    expect(failureOf(() => expect(answer).not.toFailCriteria(['verification'], rubric, { review, source }))).toContain(
      'the source changed since the review was made.',
    )
  })
})

describe('.not.toFailCriteria passes for a completed review that fails other criteria, or none', () => {
  test('passes', () => {
    expect(contrast('wrong-command')).not.toFailCriteria(['command'])
    expect(contrast('complete')).not.toFailCriteria(['support'])
  })

  test('fails when exactly those criteria fail', () => {
    expect(failureOf(() => expect(contrast('missing-verification')).not.toFailCriteria(['verification']))).toMatchInlineSnapshot(`
      "expect(case).not.toFailCriteria(criteria)

      case "missing-verification" of fixtures/docuctl-rollback is rejected on verification.

      It fails exactly ["verification"]: .not.toFailCriteria passes only when the failed criteria differ.

      rejected: 1 criterion does not meet the rubric
        ✗ verification: Tell the reader to check service health after rollback.
            reason: Omission: the answer never asks for a service health check after the rollback.
            quote:  "After the rollback, check service health."
            span:   no span: omission"
    `)
  })
})

describe('criterion ids are checked, whatever .not says', () => {
  test('an id the rubric does not define is a usage error, not a mismatch', () => {
    expect(() => expect(contrast('unsupported-guarantee')).not.toFailCriteria(['suport'])).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: toFailCriteria: fixtures/docuctl-rollback/rubric.json defines no criterion "suport".
        expected: ids among "command", "preconditions", "database_scope", "verification", "support"
        found:    ["suport"]
        fix:      docs/matchers.md says what toFailCriteria accepts.]
    `)
  })

  test('an empty list or duplicate ids are usage errors', () => {
    // @ts-expect-error at least one criterion
    expect(() => expect(contrast('complete')).not.toFailCriteria([])).toThrow(UsageError)
    expect(() => expect(contrast('wrong-command')).toFailCriteria(['command', 'command'])).toThrow(UsageError)
  })
})
