import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { kindContext } from '../../src/core/engine/fixture.js'
import '../../src/matchers/setup.js'
import { getCase, getReview } from '../../src/core/kinds/criteria/access.js'
import type { Review } from '../../src/core/kinds/criteria/schemas.js'
import { UsageError } from '../../src/core/common/errors.js'
import { loadFixture } from '../../src/core/registry.js'
import { DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { answerOf, failureOf } from '../helpers/matcher-failure.js'

const fixture = await loadFixture(DOCUCTL, { cwd: ROOT, kind: 'criteria' })
const [rubric, source] = await Promise.all([readFile(join(DOCUCTL, 'rubric.json')), readFile(join(DOCUCTL, 'source.txt'))])
const editedRubric = rubric.toString('utf8').replace('"version": 1', '"version": 2')

describe('toBeBoundTo', () => {
  test('passes for every review of the bundled fixture against its case, fixture, rubric and source', () => {
    for (const id of fixture.reviews.keys()) {
      const review = getReview(fixture, id)
      expect(review).toBeBoundTo(getCase(fixture, id))
      expect(review).toBeBoundTo(fixture)
      expect(review).toBeBoundTo(kindContext(fixture))
      expect(review).toBeBoundTo({ rubric, source, answer: answerOf(getCase(fixture, id)) })
      expect(review.entry.value as Review).toBeBoundTo({ source: source.toString('utf8') })
    }
  })

  test('names the stale binding, the hash the review holds, the hash the content has now and the fix', () => {
    expect(failureOf(() => expect(getReview(fixture, 'complete')).toBeBoundTo({ rubric: editedRubric, source }))).toMatchInlineSnapshot(`
      "expect(review).toBeBoundTo(target)

      the review of case "complete" (fixtures/docuctl-rollback/annotations.json › reviews[0]) is stale: 1 of 2 bindings no longer hold.

      ✓ source_sha256  "2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2"  (the given source)
      ✗ rubric_sha256  stale: the given rubric changed since the review
          review holds: "3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228"
          content now:  "804924e52c90078de703afe17c448773434685d69481e486a3bba8eff59d3544"

      fix: re-review the answer against the changed criteria, then run \`vitest-rubric bind fixtures/docuctl-rollback --case complete\`: it records the content's hashes and acknowledges the new review revision. A stale review is never reused."
    `)
  })

  test('names every stale binding of a review object', () => {
    const review = getReview(fixture, 'negation').entry.value as Review
    const answer = { ...answerOf(getCase(fixture, 'negation')), citation: 'docuctl 3 guide' }
    expect(failureOf(() => expect(review).toBeBoundTo({ answer, rubric: editedRubric, source }))).toMatchInlineSnapshot(`
      "expect(review).toBeBoundTo(target)

      the review of "negation" is stale: 2 of 3 bindings no longer hold.

      ✗ answer_sha256  stale: the given answer changed since the review
          review holds: "72c2907553a00507ebe10017a371f2aee2a7e186681cbaaaf430fb354e644e22"
          content now:  "eb7ca58885519a3d426495ece2a5fcd1c27654194452164e217f3c3a2afa7849"
      ✓ source_sha256  "2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2"  (the given source)
      ✗ rubric_sha256  stale: the given rubric changed since the review
          review holds: "3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228"
          content now:  "804924e52c90078de703afe17c448773434685d69481e486a3bba8eff59d3544"

      fix: re-review the answer against the changed answer and criteria, then record in the review the hashes shown as "content now". A stale review is never reused."
    `)
  })

  test("a review that is not bound to another case's answer", () => {
    expect(getReview(fixture, 'complete')).not.toBeBoundTo({ answer: getCase(fixture, 'paraphrase') })
    expect(failureOf(() => expect(getReview(fixture, 'complete')).toBeBoundTo(getCase(fixture, 'paraphrase')))).toContain(
      '✗ answer_sha256  stale: the answer of case "paraphrase" changed since the review',
    )
  })
})

describe('.not.toBeBoundTo passes when at least one given binding is stale', () => {
  test('passes for an edited rubric', () => {
    expect(getReview(fixture, 'complete')).not.toBeBoundTo({ rubric: editedRubric })
    expect(getReview(fixture, 'complete')).not.toBeBoundTo({ rubric: editedRubric, source })
  })

  test('fails when every given binding holds', () => {
    expect(failureOf(() => expect(getReview(fixture, 'wrong-command')).not.toBeBoundTo(getCase(fixture, 'wrong-command')))).toMatchInlineSnapshot(`
      "expect(review).not.toBeBoundTo(target)

      the review of case "wrong-command" (fixtures/docuctl-rollback/annotations.json › reviews[5]) is bound to every given revision, so it still describes them:

      ✓ answer_sha256  "d11ec4f08a875d3f38293bebef03b6c218013014a18e487596fcdb75dab5a68e"  (the answer of case "wrong-command")
      ✓ source_sha256  "2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2"  (fixtures/docuctl-rollback/source.txt)
      ✓ rubric_sha256  "3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228"  (fixtures/docuctl-rollback/rubric.json)

      .not.toBeBoundTo passes when at least one of the given bindings is stale."
    `)
  })
})

describe('what cannot be told fails or throws, whatever .not says', () => {
  test('a review without a valid hash fails both ways', () => {
    const review = { ...(getReview(fixture, 'complete').entry.value as Review), rubric_sha256: 'TODO' }
    const message = failureOf(() => expect(review).not.toBeBoundTo({ rubric }))
    expect(message).toMatchInlineSnapshot(`
      "expect(review).not.toBeBoundTo(target)

      the review of "complete" holds no valid rubric_sha256, so whether it is bound cannot be told.

      rubric_sha256: "TODO"

      fix: a review binds each revision with a SHA-256 digest (64 lowercase hexadecimal characters)."
    `)
    expect(failureOf(() => expect(review).toBeBoundTo({ rubric }))).toBe(message.replace('.not.toBeBoundTo', '.toBeBoundTo'))
  })

  test('a target naming nothing, or a misspelled binding, is a usage error', () => {
    const review = getReview(fixture, 'complete')
    // @ts-expect-error at least one binding
    expect(() => expect(review).not.toBeBoundTo({})).toThrow(UsageError)
    // @ts-expect-error rubirc is not a binding
    expect(() => expect(review).not.toBeBoundTo({ rubirc: rubric })).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: toBeBoundTo: the target has unknown key "rubirc".
        expected: a fixture, a bound rubric, a fixture case, or { answer?, source?, rubric? } with at least one
        found:    { rubirc }
        fix:      docs/matchers.md says what toBeBoundTo accepts.]
    `)
    // @ts-expect-error a case is not a review
    expect(() => expect(getCase(fixture, 'complete')).not.toBeBoundTo(fixture)).toThrow(UsageError)
  })

  test('a binding given as undefined (a lookup that found nothing) is a usage error, with .not or without', () => {
    const review = getReview(fixture, 'complete')
    // The types forbid it; JavaScript, or a lookup typed loosely, passes it anyway.
    const loose = (target: Record<string, unknown>) => target as never
    const missing: Record<string, Buffer> = {}
    for (const assertion of [
      () => expect(review).toBeBoundTo(loose({ answer: undefined })),
      () => expect(review).not.toBeBoundTo(loose({ answer: undefined })),
      () => expect(review).toBeBoundTo(loose({ source, rubric: missing['rubric.json'] })),
    ]) {
      expect(assertion).toThrow(UsageError)
    }
    expect(() => expect(review).toBeBoundTo(loose({ answer: undefined }))).toThrow(
      /the target's "answer" is undefined, so there is nothing to check the review against/,
    )
  })
})
