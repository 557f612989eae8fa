import { describe, expect, test } from 'vitest'
import type { CriteriaDecision } from '../../../../src/core/kinds/criteria/decision.js'
import { evaluateFixture } from '../../../../src/core/engine/evaluate.js'
import { fileNamesOf } from '../../../../src/core/registry.js'

const CRITERIA_FILES = fileNamesOf('criteria')
import { DOCUCTL, type AnnotationsJson } from '../../../helpers/fixture-copy.js'
import { editCriteriaFiles, loadCriteriaFromMemory, readFixtureFiles, type CriteriaEdits } from '../../../helpers/in-memory-fixture.js'

// Each test edits the bundled fixture in memory; messages name its files fixture/….
const bundled = await readFixtureFiles(DOCUCTL, CRITERIA_FILES)
const load = (edits: CriteriaEdits) => loadCriteriaFromMemory(editCriteriaFiles(bundled, edits))

/** The refusal of a case as `vitest-rubric evaluate --json` records it. */
async function refusalOf(id: string, edits: CriteriaEdits) {
  const decision = evaluateFixture(await load(edits)).decisions.find((item: CriteriaDecision) => item.id === id)
  if (decision?.status !== 'refused') throw new Error(`expected ${id} to be refused, got ${decision?.status}`)
  return decision.error
}

describe('a case refused for its own bindings', () => {
  test("a question that is not the rubric's task", async () => {
    expect(
      await refusalOf('negation', {
        cases: (cases) => void (cases.cases[2]!.input.question = 'Explain a production rollback.'),
      }),
    ).toMatchInlineSnapshot(`
      {
        "caseId": "negation",
        "code": "QUESTION_MISMATCH",
        "file": "fixture/cases.json",
        "message": "fixture/cases.json › cases[2] › input › question (case "negation"): the question differs from the task fixture/rubric.json was written for, so its criteria do not apply.
        expected: "Explain a staging rollback to r41, including the command, prerequisites, database boundary and post-rollback verification. Do not execute it."
        found:    "Explain a production rollback."
        fix:      restore the question, or revise fixture/rubric.json for the new question and review the answer again.",
        "name": "BindingError",
        "path": "cases[2] › input › question",
      }
    `)
  })

  test('a case bound to another revision of the rubric', async () => {
    expect(
      await refusalOf('complete', {
        cases: (cases) => void (cases.cases[0]!.expected.rubric_sha256 = '0'.repeat(64)),
      }),
    ).toMatchInlineSnapshot(`
      {
        "caseId": "complete",
        "code": "CASE_RUBRIC_STALE",
        "file": "fixture/cases.json",
        "message": "fixture/cases.json › cases[0] › expected › rubric_sha256 (case "complete"): the rubric changed since the case was written.
        expected: 3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228 (SHA-256 of fixture/rubric.json now)
        found:    0000000000000000000000000000000000000000000000000000000000000000
        fix:      review the answer against the changed criteria, then run \`vitest-rubric bind fixture --case complete\`.",
        "name": "BindingError",
        "path": "cases[0] › expected › rubric_sha256",
      }
    `)
  })

  test('a review removed while the case still records it', async () => {
    expect(
      await refusalOf('paraphrase', {
        annotations: (annotations) => void annotations.reviews.splice(1, 1),
      }),
    ).toMatchInlineSnapshot(`
      {
        "caseId": "paraphrase",
        "code": "REVIEW_EDIT_UNACKNOWLEDGED",
        "file": "fixture/cases.json",
        "message": "fixture/cases.json › cases[1] › expected › review_sha256 (case "paraphrase"): the case records a review, but fixture/annotations.json has none for "paraphrase".
        expected: 74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b (fingerprint of null: no review now)
        found:    ac13cee194ec357d44fad4c9b07a87be8e730eaa0f9114b0c36575c5f610fd37
        fix:      restore the review; if it was withdrawn on purpose, acknowledge that with \`vitest-rubric bind fixture --case paraphrase\`.",
        "name": "BindingError",
        "path": "cases[1] › expected › review_sha256",
      }
    `)
  })

  test('a review added to a case that records none', async () => {
    expect(
      await refusalOf('not-reviewed', {
        annotations: (annotations) => void annotations.reviews.push({ ...annotations.reviews[0]!, answer_id: 'not-reviewed' }),
      }),
    ).toMatchInlineSnapshot(`
      {
        "caseId": "not-reviewed",
        "code": "SPAN_NOT_IN_ANSWER",
        "file": "fixture/annotations.json",
        "message": "fixture/annotations.json › reviews[7] › judgements › preconditions › answer_span (case "not-reviewed"): the answer span does not occur in the answer text (fixture/cases.json › cases[7] › input › answer › text).
        expected: an exact excerpt of the answer text, or "" for an omission
        found:    "first obtain release approval and confirm that the active environment is staging"
        fix:      quote the answer exactly; for an omission use "" and name the absent requirement in the reason.
        also:     fixture/annotations.json › reviews[7] › judgements › database_scope › answer_span: the answer span does not occur in the answer text (fixture/cases.json › cases[7] › input › answer › text).
        also:     fixture/annotations.json › reviews[7] › judgements › verification › answer_span: the answer span does not occur in the answer text (fixture/cases.json › cases[7] › input › answer › text).
        also:     fixture/cases.json › cases[7] › expected › review_sha256: fixture/annotations.json › reviews[7] is a new review, not bound yet. Fix: check it, then run \`vitest-rubric bind fixture --case not-reviewed\`: it records the hashes of the files as they are now.",
        "name": "BindingError",
        "path": "reviews[7] › judgements › preconditions › answer_span",
      }
    `)
  })

  test('a review without a canonical form is refused at the value that has none', async () => {
    expect(
      await refusalOf('negation', {
        annotations: (annotations) => void (annotations.reviews[2]!.judgements['command']!.reason = 'Gives the command \ud800.'),
      }),
    ).toMatchInlineSnapshot(`
      {
        "caseId": "negation",
        "code": "NOT_CANONICAL_JSON",
        "file": "fixture/annotations.json",
        "message": "fixture/annotations.json › reviews[2] › judgements › command › reason (case "negation"): the string holds a lone surrogate, which has no UTF-8 encoding.
        found:    "Gives the command \\ud800."
        fix:      replace the broken character: the text was probably cut in the middle of an emoji or other character beyond U+FFFF.",
        "name": "BindingError",
        "path": "reviews[2] › judgements › command › reason",
      }
    `)
  })
})

describe('a case refused for its review', () => {
  test('a review made against another revision of the source', async () => {
    const error = await refusalOf('complete', {
      annotations: (annotations) => void (annotations.reviews[0]!.source_sha256 = '1'.repeat(64)),
      acknowledge: 'complete',
    })
    expect(error).toMatchInlineSnapshot(`
      {
        "caseId": "complete",
        "code": "REVIEW_SOURCE_STALE",
        "file": "fixture/annotations.json",
        "message": "fixture/annotations.json › reviews[0] › source_sha256 (case "complete"): the source changed since the review was made.
        expected: 2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2 (SHA-256 of fixture/source.txt now)
        found:    1111111111111111111111111111111111111111111111111111111111111111
        fix:      check the judgements against the changed source, then run \`vitest-rubric bind fixture --case complete\`.",
        "name": "BindingError",
        "path": "reviews[0] › source_sha256",
      }
    `)
  })

  test('a review that judged another revision of the rubric', async () => {
    const error = await refusalOf('complete', {
      annotations: (annotations) => void (annotations.reviews[0]!.rubric_sha256 = '2'.repeat(64)),
      acknowledge: 'complete',
    })
    expect(error).toMatchInlineSnapshot(`
      {
        "caseId": "complete",
        "code": "REVIEW_RUBRIC_STALE",
        "file": "fixture/annotations.json",
        "message": "fixture/annotations.json › reviews[0] › rubric_sha256 (case "complete"): the rubric's criteria changed since the review judged them.
        expected: 3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228 (SHA-256 of fixture/rubric.json now)
        found:    2222222222222222222222222222222222222222222222222222222222222222
        fix:      revise the judgements of the affected criteria, then run \`vitest-rubric bind fixture --case complete\`.",
        "name": "BindingError",
        "path": "reviews[0] › rubric_sha256",
      }
    `)
  })

  test("a judgement quoting another criterion's reference", async () => {
    const change = (annotations: AnnotationsJson) => {
      const judgements = annotations.reviews[0]!.judgements
      judgements['command']!.reference_quote = judgements['support']!.reference_quote
    }
    const error = await refusalOf('complete', {
      annotations: change,
      acknowledge: 'complete',
    })
    expect(error).toMatchInlineSnapshot(`
      {
        "caseId": "complete",
        "code": "QUOTE_MISMATCH",
        "file": "fixture/annotations.json",
        "message": "fixture/annotations.json › reviews[0] › judgements › command › reference_quote (case "complete"): the reference quote is not the one fixture/rubric.json assigns to criterion "command".
        expected: "Use \`docuctl releases rollback r41 --environment staging\` to select release r41."
        found:    "The command changes the deployed service version. It does not restore database contents."
        fix:      copy the criterion's reference_quote from fixture/rubric.json exactly.",
        "name": "BindingError",
        "path": "reviews[0] › judgements › command › reference_quote",
      }
    `)
  })

  test('an empty or missing reference quote is one format problem, never also a quote mismatch', async () => {
    for (const quote of ['', 7, undefined]) {
      const change = (annotations: AnnotationsJson) => {
        const judgement = annotations.reviews[0]!.judgements['command'] as unknown as Record<string, unknown>
        if (quote === undefined) delete judgement['reference_quote']
        else judgement['reference_quote'] = quote
      }
      const error = await refusalOf('complete', { annotations: change, acknowledge: 'complete' })
      expect(error.code).toBe('REVIEW_INVALID')
      expect(error.path).toBe('reviews[0] › judgements › command › reference_quote')
      expect(error.message).not.toContain('is not the one')
    }
  })

  test('an answer span the answer does not hold', async () => {
    const change = (annotations: AnnotationsJson) => void (annotations.reviews[0]!.judgements['verification']!.answer_span = 'check the logs')
    const error = await refusalOf('complete', {
      annotations: change,
      acknowledge: 'complete',
    })
    expect(error).toMatchInlineSnapshot(`
      {
        "caseId": "complete",
        "code": "SPAN_NOT_IN_ANSWER",
        "file": "fixture/annotations.json",
        "message": "fixture/annotations.json › reviews[0] › judgements › verification › answer_span (case "complete"): the answer span does not occur in the answer text (fixture/cases.json › cases[0] › input › answer › text).
        expected: an exact excerpt of the answer text, or "" for an omission
        found:    "check the logs"
        fix:      quote the answer exactly; for an omission use "" and name the absent requirement in the reason.",
        "name": "BindingError",
        "path": "reviews[0] › judgements › verification › answer_span",
      }
    `)
  })
})

describe('a fixture refused as a whole', () => {
  test('ratings that hold the three and more', async () => {
    await expect(load({ rubric: (rubric) => void rubric.ratings.push('meets') })).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: fixture/rubric.json › ratings: the value breaks a rule of the format.
        expected: exactly the three ratings "meets", "does_not_meet" and "uncertain"
        found:    ["meets","does_not_meet","uncertain","meets"]
        fix:      a rubric holds exactly id, version (an integer ≥ 1), task, acceptance, ratings and a non-empty list of criteria, each with a non-empty id, rule and reference_quote.]
    `)
  })

  test('a review of an unknown case lists the first ten case ids and says how many there are', async () => {
    const withCases = (count: number): CriteriaEdits => ({
      cases: (cases) => void (cases.cases = Array.from({ length: count }, (_, index) => ({ ...cases.cases[7]!, id: `case-${index + 1}` }))),
      annotations: (annotations) => void (annotations.reviews = [annotations.reviews[0]!]),
    })
    await expect(load(withCases(10))).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: fixture/annotations.json › reviews[0] › answer_id: the review names a case that fixture/cases.json does not hold.
        expected: one of the case ids: "case-1", "case-2", "case-3", "case-4", "case-5", "case-6", "case-7", "case-8", "case-9", "case-10"
        found:    "complete"
        fix:      correct the answer_id, or remove the review if its case was withdrawn.]
    `)
    await expect(load(withCases(11))).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: fixture/annotations.json › reviews[0] › answer_id: the review names a case that fixture/cases.json does not hold.
        expected: one of the case ids: "case-1", "case-2", "case-3", "case-4", "case-5", "case-6", "case-7", "case-8", "case-9", "case-10" … (11 in all)
        found:    "complete"
        fix:      correct the answer_id, or remove the review if its case was withdrawn.]
    `)
  })
})
