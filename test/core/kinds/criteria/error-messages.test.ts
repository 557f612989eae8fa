import { describe, expect, test } from 'vitest'
import type { CriteriaDecision } from '../../../../src/core/kinds/criteria/decision.js'
import { evaluateFixture } from '../../../../src/core/engine/evaluate.js'
import { copyFixture } from '../../../helpers/fixture-copy.js'
import { loadFixtureOfKind } from '../../../helpers/load-kind.js'

/** Loads a copy with paths shown relative to the copy, so messages read `cases.json › …`. */
async function load(dir: string) {
  return loadFixtureOfKind('criteria', dir)
}

async function refusal(dir: string, id: string): Promise<string> {
  const decision = evaluateFixture(await load(dir)).decisions.find((item: CriteriaDecision) => item.id === id)
  if (decision?.status !== 'refused') throw new Error(`expected ${id} to be refused, got ${decision?.status}`)
  return decision.error.message
}

describe('fixture-level defects name the file, the JSON path, the expectation and the fix', () => {
  // Malformed JSON, a file that is not UTF-8, a missing file and a directory without its rubric:
  // test/core/bad-input.test.ts, with every other kind of bad input.
  test('a rubric with a wrong set of ratings', async () => {
    const copy = await copyFixture()
    const rubric = await copy.readJson<{ ratings: string[] }>('rubric.json')
    rubric.ratings = ['meets', 'does_not_meet']
    await copy.writeJson('rubric.json', rubric)
    await expect(load(copy.dir)).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: rubric.json › ratings: the value breaks a rule of the format.
        expected: exactly the three ratings "meets", "does_not_meet" and "uncertain"
        found:    ["meets","does_not_meet"]
        fix:      a rubric holds exactly id, version (an integer ≥ 1), task, acceptance, ratings and a non-empty list of criteria, each with a non-empty id, rule and reference_quote.]
    `)
  })

  test('a rubric criterion with an unexpected key', async () => {
    const copy = await copyFixture()
    const rubric = await copy.readJson<{ criteria: Record<string, unknown>[] }>('rubric.json')
    rubric.criteria[1]!['weight'] = 2
    await copy.writeJson('rubric.json', rubric)
    await expect(load(copy.dir)).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: rubric.json › criteria[1]: unexpected key "weight".
        expected: only the keys the format defines (docs/format.md lists them)
        found:    "weight"
        fix:      a rubric holds exactly id, version (an integer ≥ 1), task, acceptance, ratings and a non-empty list of criteria, each with a non-empty id, rule and reference_quote.]
    `)
  })

  test('a duplicate criterion id', async () => {
    const copy = await copyFixture()
    const rubric = await copy.readJson<{ criteria: { id: string }[] }>('rubric.json')
    rubric.criteria[4]!.id = 'command'
    await copy.writeJson('rubric.json', rubric)
    await expect(load(copy.dir)).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: rubric.json › criteria[4] › id: the criterion id is already used by criteria[0].
        found:    "command"
        fix:      give every criterion its own id: reviews refer to criteria by id.]
    `)
    await expect(load(copy.dir)).rejects.toMatchObject({ name: 'FixtureError', code: 'DUPLICATE_CRITERION' })
  })

  test('a duplicate case id', async () => {
    const copy = await copyFixture()
    await copy.editCases((cases) => {
      cases.cases[3]!.id = 'complete'
    })
    await expect(load(copy.dir)).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: cases.json › cases[3] › id: the case id is already used by cases[0].
        found:    "complete"
        fix:      give every case its own id: reviews are matched to cases by id.]
    `)
  })

  test('a review of an unknown case', async () => {
    const copy = await copyFixture()
    await copy.editAnnotations((annotations) => {
      annotations.reviews[2]!.answer_id = 'negations'
    })
    await expect(load(copy.dir)).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: annotations.json › reviews[2] › answer_id: the review names a case that cases.json does not hold.
        expected: one of the case ids: "complete", "paraphrase", "negation", "unsupported-guarantee", "missing-verification", "wrong-command", "uncertain-wording", "not-reviewed"
        found:    "negations"
        fix:      correct the answer_id, or remove the review if its case was withdrawn.]
    `)
  })

  test('two reviews of one case', async () => {
    const copy = await copyFixture()
    await copy.editAnnotations((annotations) => {
      annotations.reviews.push(structuredClone(annotations.reviews[0]!))
    })
    await expect(load(copy.dir)).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: annotations.json › reviews[7] › answer_id: case "complete" already has a review at reviews[0]: which one applies would be a guess.
        found:    "complete"
        fix:      keep one review per case: resolve the disagreement and merge the judgements into one review.]
    `)
    await expect(load(copy.dir)).rejects.toMatchObject({ name: 'FixtureError', code: 'DUPLICATE_REVIEW' })
  })
})

describe('case refusals name the binding that broke and how to fix it', () => {
  test('a stale answer binding', async () => {
    const copy = await copyFixture()
    await copy.editCases((cases) => {
      cases.cases[1]!.input.answer.text = cases.cases[1]!.input.answer.text.replace('healthy', 'up')
    })
    expect(await refusal(copy.dir, 'paraphrase')).toMatchInlineSnapshot(`
      "annotations.json › reviews[1] › answer_sha256 (case "paraphrase"): the answer changed since it was reviewed: the judgement describes another answer.
        expected: 919296c8afed6ded043c4b811fed510945aa918385e6baa11e1ccf5a15c5235f (fingerprint of cases.json › cases[1] › input › answer now)
        found:    1fb2ec5f7a4c91a7effe3312c9240c039193ee5a5bb8e65944229f98a4821c41
        fix:      re-read the answer and revise the review, then run \`vitest-rubric bind . --case paraphrase\`.
        also:     annotations.json › reviews[1] › judgements › verification › answer_span: the answer span does not occur in the answer text (cases.json › cases[1] › input › answer › text). Fix: quote the answer exactly; for an omission use "" and name the absent requirement in the reason."
    `)
  })

  test('an unacknowledged label edit', async () => {
    const copy = await copyFixture()
    await copy.editAnnotations((annotations) => {
      annotations.reviews[4]!.judgements['verification']!.rating = 'meets'
    })
    expect(await refusal(copy.dir, 'missing-verification')).toMatchInlineSnapshot(`
      "cases.json › cases[4] › expected › review_sha256 (case "missing-verification"): annotations.json › reviews[4] changed since the case recorded it: an unacknowledged label edit.
        expected: 266cc1e89034d82777229b925cc407f8081f8bed56e7682519032463f57d44c2 (fingerprint of annotations.json › reviews[4] now)
        found:    67564b6f7a60c34c6a681a526e2670568af111744d29feff4c9125daa048e6a0
        fix:      if the review is meant to change, acknowledge it with \`vitest-rubric bind . --case missing-verification\`; otherwise restore the review."
    `)
  })

  test('an invalid rating', async () => {
    const copy = await copyFixture()
    await copy.editAnnotations((annotations) => {
      annotations.reviews[2]!.judgements['command']!.rating = 'meet'
    })
    await copy.acknowledgeReview('negation')
    expect(await refusal(copy.dir, 'negation')).toMatchInlineSnapshot(`
      "annotations.json › reviews[2] › judgements › command › rating (case "negation"): the value is not one of those allowed.
        expected: one of "meets", "does_not_meet", "uncertain"
        found:    "meet"
        fix:      a review holds answer_id, answer_sha256, source_sha256, rubric_sha256 and judgements; each judgement holds rating ("meets", "does_not_meet" or "uncertain"), a non-empty reason, the criterion's reference_quote and an answer_span ("" for an omission)."
    `)
  })

  test('an unknown criterion', async () => {
    const copy = await copyFixture()
    await copy.editAnnotations((annotations) => {
      const judgements = annotations.reviews[0]!.judgements
      judgements['tone'] = { ...judgements['support']! }
    })
    await copy.acknowledgeReview('complete')
    expect(await refusal(copy.dir, 'complete')).toMatchInlineSnapshot(`
      "annotations.json › reviews[0] › judgements › tone (case "complete"): the review judges a criterion that rubric.json does not define.
        expected: one of "command", "preconditions", "database_scope", "verification", "support"
        found:    "tone"
        fix:      rename the judgement to the criterion it judges or remove it; if the criteria changed, revise rubric.json first."
    `)
  })

  test('a malformed case', async () => {
    const copy = await copyFixture()
    await copy.editCases((cases) => {
      cases.cases[0]!.expected.review_sha256 = 'ABC'
      cases.cases[0]!.split = 'test'
    })
    expect(await refusal(copy.dir, 'complete')).toMatchInlineSnapshot(`
      "cases.json › cases[0] › split (case "complete"): the value is not one of those allowed.
        expected: one of "development", "held_out"
        found:    "test"
        fix:      a case holds id, an optional split ("development" or "held_out"), input { question, answer { text, citation } } and expected { acceptable: true, source_sha256, rubric_sha256, review_sha256 }.
        also:     cases.json › cases[0] › expected › review_sha256: the value is not in the required format. Expected a SHA-256 digest: 64 lowercase hexadecimal characters."
    `)
  })
})
