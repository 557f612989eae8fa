import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import '../../../src/matchers/setup.js'
import { getCase, getReview } from '../../../src/core/cases.js'
import { UsageError } from '../../../src/core/common/errors.js'
import { addCases } from '../../../src/core/engine/authoring/add.js'
import { fileSource } from '../../../src/core/engine/authoring/draft.js'
import { recordReview } from '../../../src/core/engine/authoring/review.js'
import { loadFixture, type SomeFixture } from '../../../src/core/engine/fixture.js'
import { createRegistry } from '../../../src/core/engine/registry.js'
import { kinds } from '../../../src/core/registry.js'
import { DOCUCTL, ROOT } from '../../helpers/fixture-copy.js'
import { failureOf } from '../../helpers/matcher-failure.js'
import { removeFileScratch, scratchDir } from '../../helpers/scratch.js'
import { verdictKind } from '../../kinds/verdict/index.js'

// The rubric matchers decide a case of the verdict kind (test/kinds/verdict/), registered here
// only, by its own definition: its rule, its words and what its review page says failed. The kind
// gains them through its folder alone (its `matchers` part).

const registry = createRegistry([...kinds.kinds, verdictKind])
const source = fileSource('the test')

/** A verdict fixture whose answers are accepted (paris), rejected (lyon), unsure (nice) and not reviewed (open). */
async function capitals(): Promise<{ cwd: string; dir: string }> {
  const cwd = await scratchDir('verdict-matchers', 'file')
  const dir = 'lab'
  await mkdir(join(cwd, dir))
  const question = 'Does the answer name the capital of France?'
  await writeFile(join(cwd, dir, 'verdict.json'), `${JSON.stringify({ id: 'capital', version: 1, question }, null, 2)}\n`)
  await writeFile(join(cwd, dir, 'cases.json'), `${JSON.stringify({ name: 'capitals', cases: [] }, null, 2)}\n`)
  await writeFile(join(cwd, dir, 'annotations.json'), `${JSON.stringify({ origin: 'a reviewer', reviews: [] }, null, 2)}\n`)
  const options = { cwd, kinds: registry }
  const answers = { paris: 'Paris.', lyon: 'Lyon.', nice: 'Nice?', open: 'Marseille?' }
  await addCases(
    dir,
    Object.entries(answers).map(([id, answer]) => ({ id, answer })),
    source,
    options,
  )
  const verdicts = [
    ['paris', 'yes', 'Paris is the capital.'],
    ['lyon', 'no', 'Lyon is not the capital.'],
    ['nice', 'unsure', 'a question, not an answer'],
  ] as const
  for (const [caseId, verdict, reason] of verdicts) await recordReview(dir, { verdict, reason }, source, { ...options, caseId, replace: false })
  return { cwd, dir }
}

let cwd = ''
let dir = ''
let fixture: SomeFixture
beforeAll(async () => {
  ;({ cwd, dir } = await capitals())
  fixture = await loadFixture(registry, dir, { cwd })
})
afterAll(removeFileScratch)

describe('the rubric matchers on a case of a third kind', () => {
  test('toMeetRubric passes for an accepted case, and .not for a rejected one', () => {
    expect(getCase(fixture, 'paris')).toMeetRubric()
    expect(getCase(fixture, 'lyon')).not.toMeetRubric()
    expect(failureOf(() => expect(getCase(fixture, 'paris')).not.toMeetRubric())).toMatchInlineSnapshot(`
      "expect(case).not.toMeetRubric()

      case "paris" of lab is accepted: every question is judged "yes".

      ratings: verdict yes

      .not.toMeetRubric passes only when a completed review rejects the answer."
    `)
  })

  test('a rejected case fails toMeetRubric on what its review page says failed, with its ratings against all passing', () => {
    expect(failureOf(() => expect(getCase(fixture, 'lyon')).toMeetRubric())).toMatchInlineSnapshot(`
      "expect(case).toMeetRubric()

      case "lyon" of lab is rejected on verdict.

      Lyon is not the capital.

      - Expected ratings
      + Received ratings

        {
      -   "verdict": "yes",
      +   "verdict": "no",
        }

      fix: revise the answer until it meets that question and have it reviewed again; if it is a contrast meant to fail, assert toFailCriteria(["verdict"])."
    `)
  })

  test('toFailCriteria compares the items the kind judges', () => {
    expect(getCase(fixture, 'lyon')).toFailCriteria(['verdict'])
    expect(getCase(fixture, 'paris')).not.toFailCriteria(['verdict'])
    expect(() => expect(getCase(fixture, 'lyon')).toFailCriteria(['capital'])).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: toFailCriteria: lab/verdict.json defines no question "capital".
        expected: ids among "verdict"
        found:    ["capital"]
        fix:      docs/matchers.md says what toFailCriteria accepts.]
    `)
  })

  test("a pending case is pending in the kind's words, and fails toMeetRubric either way", () => {
    expect(getCase(fixture, 'nice')).toBePendingReview()
    expect(getCase(fixture, 'open')).toBePendingReview()
    expect(getCase(fixture, 'paris')).not.toBePendingReview()
    expect(failureOf(() => expect(getCase(fixture, 'nice')).toMeetRubric())).toMatchInlineSnapshot(`
      "expect(case).toMeetRubric()

      case "nice" of lab is pending (unsure: a question, not an answer): not a pass and not a fail until its review is complete.

      The reviewer is unsure whether the answer says yes to "Does the answer name the capital of France?"; settle the verdict.

      fix: complete the review (unsure: a question, not an answer) in lab/annotations.json, then run \`vitest-rubric bind lab --case nice\` to acknowledge the new review revision."
    `)
    expect(failureOf(() => expect(getCase(fixture, 'open')).not.toMeetRubric())).toMatchInlineSnapshot(`
      "expect(case).not.toMeetRubric()

      case "open" of lab is pending (no review): not a pass and not a fail until its review is complete.

      Nobody has answered "Does the answer name the capital of France?" for this answer yet.

      .not.toMeetRubric passes only when a completed review rejects the answer: a pending review is not a rejection. Assert toBePendingReview() for that."
    `)
  })

  test("toBeBoundTo reads the kind's binding table", () => {
    expect(getReview(fixture, 'paris')).toBeBoundTo(fixture)
    expect(getReview(fixture, 'paris')).toBeBoundTo(getCase(fixture, 'paris'))
    expect(getReview(fixture, 'paris')).toBeBoundTo({ answer: { text: 'Paris.' } })
    expect(getReview(fixture, 'paris')).not.toBeBoundTo({ answer: { text: 'Paris, France.' } })
    const stale = failureOf(() => expect(getReview(fixture, 'paris')).toBeBoundTo({ answer: { text: 'Paris, France.' } }))
    expect(stale).toMatchInlineSnapshot(`
      "expect(review).toBeBoundTo(target)

      the review of case "paris" (lab/annotations.json › reviews[0]) is stale: 1 of 1 binding no longer holds.

      ✗ answer_sha256  stale: the given answer changed since the review
          review holds: "78d266d4efb36ec21fb5353b2eb5a6e9801b0febe8b13ace049f374d93ec82b4"
          content now:  "01dce08df62b781ac52b00c3c07361594fedac0ff14b816ec78500ab16c941a8"

      fix: re-review the answer against the changed answer, then run \`vitest-rubric bind lab --case paris\`: it records the content's hashes and acknowledges the new review revision. A stale review is never reused."
    `)
  })

  test('toBeBoundTo refuses a target of another kind than the review', async () => {
    const docuctl = await loadFixture(kinds, DOCUCTL, { cwd: ROOT })
    expect(() => expect(getReview(fixture, 'paris')).toBeBoundTo(docuctl)).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: toBeBoundTo: the review is a verdict review and the target is of the criteria kind: a review is bound to content of its own kind.
        expected: a target of the verdict kind
        found:    a target of the criteria kind
        fix:      docs/matchers.md says what toBeBoundTo accepts.]
    `)
  })

  test('a kind without a matchers part is not decided by them, and the matcher says so', async () => {
    const { matchers: _, ...unmatched } = verdictKind
    const bare = await loadFixture(createRegistry([...kinds.kinds, unmatched]), dir, { cwd })
    expect(() => expect(getCase(bare, 'paris')).toMeetRubric()).toThrow(UsageError)
    expect(() => expect(getCase(bare, 'paris')).toMeetRubric()).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: toMeetRubric: lab is a verdict fixture, and the verdict kind does not say how the rubric matchers read its decisions.
        expected: a case of a kind the matchers read (criteria, scored)
        found:    case "paris" of a verdict fixture
        fix:      docs/matchers.md says what toMeetRubric accepts.]
    `)
  })
})
