import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { NULL_FINGERPRINT, sha256Hex } from '../../../../src/core/json/canonical-json.js'
import { evaluateFixture } from '../../../../src/core/engine/evaluate.js'
import { loadFixtureOfKind } from '../../../helpers/load-kind.js'
import { copyDebate } from '../../../helpers/scored-copy.js'

async function load(dir: string) {
  return loadFixtureOfKind('scored', dir)
}

/** The refusal message of a case's debate review, or of its baseline review. */
async function refusal(dir: string, id: string, system: 'debate' | 'baseline' = 'debate'): Promise<string> {
  const decision = evaluateFixture(await load(dir)).decisions.find((item) => item.id === id)
  if (decision === undefined) throw new Error(`no decision for ${id}`)
  if (system === 'baseline') {
    if (decision.baseline.status !== 'refused') throw new Error(`expected the baseline of ${id} to be refused, got ${decision.baseline.status}`)
    return decision.baseline.error.message
  }
  if (decision.status !== 'refused') throw new Error(`expected ${id} to be refused, got ${decision.status}`)
  return decision.error.message
}

describe('fixture-level defects of a scored fixture', () => {
  // A missing file, and every other kind of bad input: test/core/bad-input.test.ts.
  test('cases.json without a list of cases', async () => {
    const copy = await copyDebate()
    await writeFile(join(copy.dir, 'cases.json'), '{ "name": "debate-benchmark", "cases": {} }\n')
    await expect(load(copy.dir)).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: cases.json › cases: the value has the wrong type.
        expected: an array
        found:    an object {}
        fix:      cases.json holds exactly name, an optional split ("development" or "held_out") and a list of cases, each with a non-empty string id.]
    `)
  })

  test('a duplicate case id', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases[2]!.id = 'partial-recall'
    })
    await expect(load(copy.dir)).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: cases.json › cases[2] › id: the case id is already used by cases[0].
        found:    "partial-recall"
        fix:      give every case its own id: reviews are matched to cases by id.]
    `)
  })

  test('a review of an unknown case', async () => {
    const copy = await copyDebate()
    await copy.editAnnotations((annotations) => {
      annotations.reviews[4]!.case_id = 'false-claims-conceded'
    })
    await expect(load(copy.dir)).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: annotations.json › reviews[4] › case_id: the review names a case that cases.json does not hold.
        expected: one of the case ids: "partial-recall", "zero-planted-issues", "false-claim-conceded", "concession-without-update", "inefficient-resolution", "never-terminates", "empirical-test-agreed", "verdict-normalization", "unscoreable-silent-critique", "required-test-missing"
        found:    "false-claims-conceded"
        fix:      correct the case_id, or remove the review if its case was withdrawn.]
    `)
  })

  test('a review of an unknown system', async () => {
    const copy = await copyDebate()
    await copy.editAnnotations((annotations) => {
      ;(annotations.reviews[4] as Record<string, unknown>)['system'] = 'self-critique'
    })
    await expect(load(copy.dir)).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: annotations.json › reviews[4] › system: the review's system is not one this kind of fixture knows.
        expected: one of "debate", "baseline"
        found:    the string "self-critique"
        fix:      give every review its system: it says which output the review judges.]
    `)
  })

  test('two reviews of one case by one system', async () => {
    const copy = await copyDebate()
    await copy.editAnnotations((annotations) => {
      annotations.reviews.push(structuredClone(annotations.reviews[2]!))
    })
    await expect(load(copy.dir)).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: annotations.json › reviews[20] › case_id: case "zero-planted-issues" already has a debate review at reviews[2]: which one applies would be a guess.
        found:    "zero-planted-issues"
        fix:      keep one review per case and system: resolve the disagreement and merge the judgements into one review.]
    `)
  })
})

describe('case refusals name the binding or the excerpt that broke and how to fix it', () => {
  test('a value without a canonical form in cases.json refuses only its case, at its path', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases[2]!.outputs.baseline.answer += ' \ud800'
    })
    const { decisions, identities } = evaluateFixture(await load(copy.dir))
    expect(decisions.filter((decision) => decision.status === 'refused').map((decision) => decision.id)).toEqual(['false-claim-conceded'])
    expect(decisions.find((decision) => decision.id === 'false-claim-conceded')).toMatchObject({
      error: { code: 'NOT_CANONICAL_JSON', path: 'cases[2] › outputs › baseline › answer' },
      baseline: { status: 'refused', error: { code: 'NOT_CANONICAL_JSON' } },
    })
    // The case set has no canonical form, so it has no identity either.
    expect(identities.caseSetSha256).toBeNull()
    expect(await refusal(copy.dir, 'false-claim-conceded')).toMatchInlineSnapshot(`
      "cases.json › cases[2] › outputs › baseline › answer (case "false-claim-conceded"): the string holds a lone surrogate, which has no UTF-8 encoding.
        found:    "parsePort rejects negative and too-large ports; the check should be \`n < 1\` so that port 0 is rejected too. Verdict: request changes. \\ud800"
        fix:      replace the broken character: the text was probably cut in the middle of an emoji or other character beyond U+FFFF."
    `)
  })

  test('a review bound to another case spec', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases[1]!.spec.ideal_debate_resolution = 'critique_wins'
    })
    expect(await refusal(copy.dir, 'zero-planted-issues')).toMatchInlineSnapshot(`
      "annotations.json › reviews[2] › spec_sha256 (case "zero-planted-issues"): the case's spec changed since the review: its planted issues, ideal resolution or ground truth changed.
        expected: 8a5cf2071f6c91f20ce7d05c0f788ea0907c46f2026ece0eac4f9395bcc183eb (fingerprint of cases.json › cases[1] › spec now)
        found:    aec260076beb6f3f216020712b1e73044e4bcc2bf8631b65489b026011aaa097
        fix:      re-review the output against the changed case, then run \`vitest-rubric bind . --case zero-planted-issues\`."
    `)
  })

  test('a claim excerpt that the critique never wrote', async () => {
    const copy = await copyDebate()
    await copy.editReview('partial-recall', 'debate', (review) => {
      review.claims[1]!.span = 'the start index is wrong for page 1'
    })
    expect(await refusal(copy.dir, 'partial-recall')).toMatchInlineSnapshot(`
      "annotations.json › reviews[0] › claims[1] › span (case "partial-recall"): the excerpt does not occur in the critique turns of cases.json › cases[0] › outputs › debate › transcript.
        expected: an exact excerpt of the output the review describes
        found:    "the start index is wrong for page 1"
        fix:      quote the output exactly (whitespace and punctuation included); if the output changed, re-review it."
    `)
  })

  test('a defense excerpt quoted from a critique turn', async () => {
    const copy = await copyDebate()
    await copy.editReview('partial-recall', 'debate', (review) => {
      review.claims[0]!.defense.span = 'Critique wins.'
    })
    expect(await refusal(copy.dir, 'partial-recall')).toMatchInlineSnapshot(`
      "annotations.json › reviews[0] › claims[0] › defense › span (case "partial-recall"): the excerpt does not occur in the defense turns of cases.json › cases[0] › outputs › debate › transcript.
        expected: an exact excerpt of the output the review describes
        found:    "Critique wins."
        fix:      quote the output exactly (whitespace and punctuation included); if the output changed, re-review it."
    `)
  })

  test('a final verdict quoted from before the debate closes', async () => {
    const copy = await copyDebate()
    await copy.editReview('inefficient-resolution', 'debate', (review) => {
      review.final_verdict = 'this may be fine'
    })
    expect(await refusal(copy.dir, 'inefficient-resolution')).toMatchInlineSnapshot(`
      "annotations.json › reviews[8] › final_verdict (case "inefficient-resolution"): the excerpt does not occur in the turns of the last round (5) of cases.json › cases[4] › outputs › debate › transcript, where the debate closes.
        expected: an exact excerpt of the output the review describes
        found:    "this may be fine"
        fix:      quote the output exactly (whitespace and punctuation included); if the output changed, re-review it."
    `)
  })

  test('a claim of a planted issue the case does not plant', async () => {
    const copy = await copyDebate()
    await copy.editReview('partial-recall', 'baseline', (review) => {
      review.claims[0]!.planted_issue = 'P3'
    })
    expect(await refusal(copy.dir, 'partial-recall', 'baseline')).toMatchInlineSnapshot(`
      "annotations.json › reviews[1] › claims[0] › planted_issue (case "partial-recall"): the claim names a planted issue that the case does not plant (cases.json › cases[0] › spec › ground_truth › planted_issues).
        expected: one of "P1", "P2"
        found:    "P3"
        fix:      correct the planted issue id, or judge the claim demonstrably_real or invalid."
    `)
  })

  test('two claims with one id', async () => {
    const copy = await copyDebate()
    await copy.editReview('false-claim-conceded', 'debate', (review) => {
      review.claims[2]!.id = 'C1'
    })
    expect(await refusal(copy.dir, 'false-claim-conceded')).toMatchInlineSnapshot(`
      "annotations.json › reviews[4] › claims[2] › id (case "false-claim-conceded"): the claim id is already used by claims[0].
        found:    "C1"
        fix:      give every atomic claim its own id; a sentence that makes two claims is split into two atomic claims."
    `)
  })

  test('a concession of a valid claim without the (C) judgement', async () => {
    const copy = await copyDebate()
    await copy.editReview('verdict-normalization', 'debate', (review) => {
      delete review.claims[0]!.defense.position_updated
    })
    expect(await refusal(copy.dir, 'verdict-normalization')).toMatchInlineSnapshot(`
      "annotations.json › reviews[14] › claims[0] › defense › position_updated (case "verdict-normalization"): the defense concedes a valid claim (concede), so the (C) position update must be judged.
        expected: true or false
        found:    nothing (the key is missing)
        fix:      record whether the defense updated its stated conclusion or proposed fix after the concession."
    `)
  })

  test('a position update judged after a response that concedes nothing', async () => {
    const copy = await copyDebate()
    await copy.editReview('never-terminates', 'debate', (review) => {
      review.claims[0]!.defense.position_updated = false
    })
    expect(await refusal(copy.dir, 'never-terminates')).toMatchInlineSnapshot(`
      "annotations.json › reviews[10] › claims[0] › defense › position_updated (case "never-terminates"): a position update is judged only after the defense concedes a valid claim (fully or hedged).
        expected: no position_updated key
        found:    false
        fix:      remove position_updated, or correct the claim's validity or the response."
    `)
  })

  test('no_engagement that quotes a defense turn', async () => {
    const copy = await copyDebate()
    await copy.editReview('zero-planted-issues', 'debate', (review) => {
      review.claims[1]!.defense.response = 'no_engagement'
    })
    expect(await refusal(copy.dir, 'zero-planted-issues')).toMatchInlineSnapshot(`
      "annotations.json › reviews[2] › claims[1] › defense › span (case "zero-planted-issues"): a response of no_engagement quotes nothing: no defense turn answers the claim.
        expected: ""
        found:    "the spec says callers guarantee lo <= hi, so that input is outside the contract and no throw is required"
        fix:      set span to "", or record the response the quoted turn gives."
    `)
  })

  test('a planted claim without its credit, and a real claim with one', async () => {
    const copy = await copyDebate()
    await copy.editReview('false-claim-conceded', 'debate', (review) => {
      delete review.claims[0]!.credit
    })
    expect(await refusal(copy.dir, 'false-claim-conceded')).toMatchInlineSnapshot(`
      "annotations.json › reviews[4] › claims[0] › credit (case "false-claim-conceded"): a claim judged planted must name the planted issue it finds and the credit it earns.
        expected: "full" or "partial"
        found:    nothing (the key is missing)
        fix:      add the key, or judge the claim demonstrably_real or invalid."
    `)
    const other = await copyDebate()
    await other.editReview('false-claim-conceded', 'debate', (review) => {
      review.claims[1]!.credit = 'full'
    })
    expect(await refusal(other.dir, 'false-claim-conceded')).toMatchInlineSnapshot(`
      "annotations.json › reviews[4] › claims[1] › credit (case "false-claim-conceded"): only a claim judged planted names a planted issue and a credit; this one is demonstrably_real.
        expected: no credit key
        found:    "full"
        fix:      remove credit, or judge the claim planted."
    `)
  })

  test("a baseline judgement of the answer's handling of an invalid claim", async () => {
    const copy = await copyDebate()
    await copy.editReview('zero-planted-issues', 'baseline', (review) => {
      review.claims[0]!.answer_handling = 'already_correct'
    })
    expect(await refusal(copy.dir, 'zero-planted-issues', 'baseline')).toMatchInlineSnapshot(`
      "annotations.json › reviews[3] › claims[0] › answer_handling (case "zero-planted-issues"): an invalid claim identifies no flaw, so there is no handling to judge.
        expected: no answer_handling key
        found:    "already_correct"
        fix:      remove answer_handling, or correct the claim's validity."
    `)
  })

  test('an invalid value in a review', async () => {
    const copy = await copyDebate()
    await copy.editReview('partial-recall', 'debate', (review) => {
      ;(review.claims[0]!.defense as Record<string, unknown>)['response'] = 'agree'
      ;(review.resolution as Record<string, unknown>)['defense_final'] = 'critique wins'
    })
    expect(await refusal(copy.dir, 'partial-recall')).toMatchInlineSnapshot(`
      "annotations.json › reviews[0] › claims[0] › defense › response (case "partial-recall"): the value is not one of those allowed.
        expected: one of "concede", "hedged_concession", "reject_with_reasoning", "reject_without_reasoning", "no_engagement"
        found:    "agree"
        fix:      a debate review holds case_id, system, rubric_sha256, spec_sha256, output_sha256, claims, resolution, empirical_test and final_verdict (see docs/scored.md for each field).
        also:     annotations.json › reviews[0] › resolution › defense_final: the value is not one of those allowed. Expected one of "critique_wins", "defense_wins", "empirical_test_agreed"."
    `)
  })

  test('a review that records several tests: the format holds the one the debate closes on', async () => {
    const copy = await copyDebate()
    await copy.editReview('inefficient-resolution', 'debate', (review) => {
      ;(review as Record<string, unknown>)['empirical_test'] = [review.empirical_test, review.empirical_test]
    })
    expect(await refusal(copy.dir, 'inefficient-resolution')).toMatchInlineSnapshot(`
      "annotations.json › reviews[8] › empirical_test (case "inefficient-resolution"): the value has the wrong type.
        expected: an object
        found:    an array [{"proposed_by":"critique","span":"We could run the migrati…
        fix:      a debate review holds case_id, system, rubric_sha256, spec_sha256, output_sha256, claims, resolution, empirical_test and final_verdict (see docs/scored.md for each field)."
    `)
  })

  test('a malformed case refuses the case and its baseline', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      ;(cases.cases[0]!.spec as Record<string, unknown>)['max_rounds'] = 0
      cases.cases[0]!.spec.ground_truth.final_verdict = '  '
    })
    expect(await refusal(copy.dir, 'partial-recall')).toMatchInlineSnapshot(`
      "cases.json › cases[0] › spec › max_rounds (case "partial-recall"): the value is too small.
        expected: at least 1
        found:    0
        fix:      a case holds id, spec { input, ideal_debate_resolution, max_rounds, ground_truth { planted_issues, final_verdict? } }, outputs { debate { transcript }, baseline { answer, self_critique } } and expected { rubric_sha256, debate_review_sha256, baseline_review_sha256 } (see docs/scored.md).
        also:     cases.json › cases[0] › spec › ground_truth › final_verdict: the value breaks a rule of the format. Expected a non-blank verdict, or null."
    `)
    expect(await refusal(copy.dir, 'partial-recall', 'baseline')).toBe(await refusal(copy.dir, 'partial-recall'))
  })

  test('two planted issues with one id', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases[0]!.spec.ground_truth.planted_issues[1]!.id = 'P1'
    })
    expect(await refusal(copy.dir, 'partial-recall')).toMatchInlineSnapshot(`
      "cases.json › cases[0] › spec › ground_truth › planted_issues[1] › id (case "partial-recall"): the planted issue id is already used by planted_issues[0].
        found:    "P1"
        fix:      give every planted issue its own id: claims find planted issues by id.
        also:     annotations.json › reviews[0] › spec_sha256: the case's spec changed since the review: its planted issues, ideal resolution or ground truth changed. Fix: re-review the output against the changed case, then run \`vitest-rubric bind . --case partial-recall\`.
        also:     annotations.json › reviews[0] › claims[1] › planted_issue: the claim names a planted issue that the case does not plant (cases.json › cases[0] › spec › ground_truth › planted_issues). Fix: correct the planted issue id, or judge the claim demonstrably_real or invalid.
        also:     annotations.json › reviews[1] › spec_sha256: the case's spec changed since the review: its planted issues, ideal resolution or ground truth changed. Fix: re-review the output against the changed case, then run \`vitest-rubric bind . --case partial-recall\`."
    `)
  })
})

describe('refusals of a stale or unacknowledged revision say which revision and how to bind the new one', () => {
  async function editRubricNotes(dir: string): Promise<string> {
    const path = join(dir, 'evaluation_rubric.json')
    await writeFile(path, (await readFile(path, 'utf8')).replace('"notes": "', '"notes": "Revised. '))
    return sha256Hex(await readFile(path))
  }

  test('a case bound to another revision of the rubric', async () => {
    const copy = await copyDebate()
    const now = await editRubricNotes(copy.dir)
    expect((await refusal(copy.dir, 'partial-recall')).replaceAll(now, '<now>')).toMatchInlineSnapshot(`
      "cases.json › cases[0] › expected › rubric_sha256 (case "partial-recall"): the rubric changed since the case was written; it is fixed once execution begins.
        expected: <now> (SHA-256 of evaluation_rubric.json now)
        found:    be89f77dd9c03442e7f5333d6dcf1b906512792f030048390e7a9bc66309c0e0
        fix:      restore the rubric the benchmark was run under; if it really changed, re-review every output under it, then run \`vitest-rubric bind . --case partial-recall\`."
    `)
  })

  test('a review made under another revision of the rubric, in a case moved to the new one', async () => {
    const copy = await copyDebate()
    const now = await editRubricNotes(copy.dir)
    await copy.editCases((cases) => {
      cases.cases[0]!.expected.rubric_sha256 = now
    })
    expect((await refusal(copy.dir, 'partial-recall', 'baseline')).replaceAll(now, '<now>')).toMatchInlineSnapshot(`
      "annotations.json › reviews[1] › rubric_sha256 (case "partial-recall"): the review applied another revision of the rubric, which is fixed once execution begins, so the review cannot carry over.
        expected: <now> (SHA-256 of evaluation_rubric.json now)
        found:    be89f77dd9c03442e7f5333d6dcf1b906512792f030048390e7a9bc66309c0e0
        fix:      restore the rubric the review was made under; if the rubric really changed, re-review under it, then run \`vitest-rubric bind . --case partial-recall\`."
    `)
  })

  test('a review of another output', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases[0]!.outputs.baseline.answer += ' (revised)'
    })
    expect(await refusal(copy.dir, 'partial-recall', 'baseline')).toMatchInlineSnapshot(`
      "annotations.json › reviews[1] › output_sha256 (case "partial-recall"): the output changed since it was reviewed: the judgements describe another run.
        expected: b34b7c7fc35063cd35c2df6b8e8b188ff32205562c32106a02669fdec22c3eb1 (fingerprint of cases.json › cases[0] › outputs › baseline now)
        found:    e91399998807792be59b8792936a955c83c2787c71efb05a941981df91bc57ca
        fix:      re-review the new output, then run \`vitest-rubric bind . --case partial-recall\`."
    `)
  })

  test('an edited review the case has not acknowledged', async () => {
    const copy = await copyDebate()
    await copy.editReview(
      'partial-recall',
      'debate',
      (review) => {
        review.claims[0]!.reason = 'Reworded.'
      },
      false,
    )
    expect(await refusal(copy.dir, 'partial-recall')).toMatchInlineSnapshot(`
      "cases.json › cases[0] › expected › debate_review_sha256 (case "partial-recall"): annotations.json › reviews[0] changed since the case recorded it: an unacknowledged label edit.
        expected: 7bcbf056d3ff69da4d90aa37def7674b38bd2fa2262a09ec89a1bdb7055bab29 (fingerprint of annotations.json › reviews[0] now)
        found:    cbc656b97ba96ac8051d17d1a649c2f3bc1d582883da9561441522c77a0c9653
        fix:      if the review is meant to change, acknowledge it with \`vitest-rubric bind . --case partial-recall\`; otherwise restore the review."
    `)
  })

  test('a review added to a case that records none', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases[0]!.expected.baseline_review_sha256 = NULL_FINGERPRINT
    })
    expect(await refusal(copy.dir, 'partial-recall', 'baseline')).toMatchInlineSnapshot(`
      "cases.json › cases[0] › expected › baseline_review_sha256 (case "partial-recall"): annotations.json › reviews[1] is a new review, not bound yet.
        expected: 67c192774017852096059ce0c5ac144c41eb8c49a2e36083b7c30d34569850fb (fingerprint of annotations.json › reviews[1] now)
        found:    74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b
        fix:      check it, then run \`vitest-rubric bind . --case partial-recall\`: it records the hashes of the files as they are now."
    `)
  })

  test('a review removed from a case that still records it', async () => {
    const copy = await copyDebate()
    await copy.editAnnotations((annotations) => {
      annotations.reviews.splice(1, 1)
    })
    expect(await refusal(copy.dir, 'partial-recall', 'baseline')).toMatchInlineSnapshot(`
      "cases.json › cases[0] › expected › baseline_review_sha256 (case "partial-recall"): the case records a baseline review, but annotations.json has none for "partial-recall".
        expected: 74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b (fingerprint of null: no review now)
        found:    67c192774017852096059ce0c5ac144c41eb8c49a2e36083b7c30d34569850fb
        fix:      restore the review; if it was withdrawn on purpose, acknowledge that with \`vitest-rubric bind . --case partial-recall\`."
    `)
  })
})

describe('provenance refusals name the excerpt or judgement that does not fit', () => {
  test('a response other than no_engagement that quotes nothing', async () => {
    const copy = await copyDebate()
    await copy.editReview('partial-recall', 'debate', (review) => {
      review.claims[0]!.defense.span = ''
    })
    expect(await refusal(copy.dir, 'partial-recall')).toMatchInlineSnapshot(`
      "annotations.json › reviews[0] › claims[0] › defense › span (case "partial-recall"): a concede response needs the excerpt of the defense turn that gives it.
        expected: an exact excerpt of a defense turn
        found:    ""
        fix:      quote the defense turn, or record no_engagement if the defense never answers the claim."
    `)
  })

  test('a planted claim that names no planted issue', async () => {
    const copy = await copyDebate()
    await copy.editReview('partial-recall', 'debate', (review) => {
      delete review.claims[0]!.planted_issue
    })
    expect(await refusal(copy.dir, 'partial-recall')).toMatchInlineSnapshot(`
      "annotations.json › reviews[0] › claims[0] › planted_issue (case "partial-recall"): a claim judged planted must name the planted issue it finds and the credit it earns.
        expected: one of "P1", "P2"
        found:    nothing (the key is missing)
        fix:      add the key, or judge the claim demonstrably_real or invalid."
    `)
  })

  test('a planted claim in a case that plants no issue', async () => {
    const copy = await copyDebate()
    await copy.editReview('zero-planted-issues', 'debate', (review) => {
      Object.assign(review.claims[0]!, { validity: 'planted', credit: 'full' })
    })
    expect(await refusal(copy.dir, 'zero-planted-issues')).toMatchInlineSnapshot(`
      "annotations.json › reviews[2] › claims[0] › planted_issue (case "zero-planted-issues"): a claim judged planted must name the planted issue it finds and the credit it earns.
        expected: a planted issue id, but the case plants none
        found:    nothing (the key is missing)
        fix:      add the key, or judge the claim demonstrably_real or invalid."
    `)
    await copy.editReview('zero-planted-issues', 'debate', (review) => {
      review.claims[0]!.planted_issue = 'P1'
    })
    expect(await refusal(copy.dir, 'zero-planted-issues')).toMatchInlineSnapshot(`
      "annotations.json › reviews[2] › claims[0] › planted_issue (case "zero-planted-issues"): the claim names a planted issue that the case does not plant (cases.json › cases[1] › spec › ground_truth › planted_issues).
        expected: no planted claim: the case plants no issue
        found:    "P1"
        fix:      correct the planted issue id, or judge the claim demonstrably_real or invalid."
    `)
  })

  test("a valid baseline claim without the judgement of the answer's handling", async () => {
    const copy = await copyDebate()
    await copy.editReview('partial-recall', 'baseline', (review) => {
      delete review.claims[0]!.answer_handling
    })
    expect(await refusal(copy.dir, 'partial-recall', 'baseline')).toMatchInlineSnapshot(`
      "annotations.json › reviews[1] › claims[0] › answer_handling (case "partial-recall"): the self-critique identifies a valid flaw, so whether the answer already handled it must be judged.
        expected: "already_correct" or "not_handled"
        found:    nothing (the key is missing)
        fix:      record whether the original answer already contained the correct handling."
    `)
  })

  test("a test quoted from the other agent's turns", async () => {
    const copy = await copyDebate()
    await copy.editReview('inefficient-resolution', 'debate', (review) => {
      review.empirical_test!.proposed_by = 'defense'
    })
    expect(await refusal(copy.dir, 'inefficient-resolution')).toMatchInlineSnapshot(`
      "annotations.json › reviews[8] › empirical_test › span (case "inefficient-resolution"): the excerpt does not occur in the defense turns of cases.json › cases[4] › outputs › debate › transcript.
        expected: an exact excerpt of the output the review describes
        found:    "We could run the migration against a copy of the table and see what happens."
        fix:      quote the output exactly (whitespace and punctuation included); if the output changed, re-review it."
    `)
  })

  test('a baseline test and verdict that the self-critique and the answer do not contain', async () => {
    const copy = await copyDebate()
    await copy.editReview('inefficient-resolution', 'baseline', (review) => {
      review.empirical_test!.span = 'a test nobody proposed'
    })
    expect(await refusal(copy.dir, 'inefficient-resolution', 'baseline')).toMatchInlineSnapshot(`
      "annotations.json › reviews[9] › empirical_test › span (case "inefficient-resolution"): the excerpt does not occur in cases.json › cases[4] › outputs › baseline › self_critique.
        expected: an exact excerpt of the output the review describes
        found:    "a test nobody proposed"
        fix:      quote the output exactly (whitespace and punctuation included); if the output changed, re-review it."
    `)
    const other = await copyDebate()
    await other.editReview('partial-recall', 'baseline', (review) => {
      review.final_verdict = 'a verdict nobody gave'
    })
    expect(await refusal(other.dir, 'partial-recall', 'baseline')).toMatchInlineSnapshot(`
      "annotations.json › reviews[1] › final_verdict (case "partial-recall"): the excerpt does not occur in cases.json › cases[0] › outputs › baseline › answer.
        expected: an exact excerpt of the output the review describes
        found:    "a verdict nobody gave"
        fix:      quote the output exactly (whitespace and punctuation included); if the output changed, re-review it."
    `)
  })
})

describe('every refusal carries its stable code', () => {
  async function codeOf(dir: string, id: string): Promise<string | undefined> {
    const decision = evaluateFixture(await load(dir)).decisions.find((item) => item.id === id)!
    return decision.status === 'refused' ? decision.error.code : undefined
  }

  test('case and review refusals', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases[0]!.spec.ground_truth.planted_issues[1]!.id = 'P1'
    })
    await copy.editReview('false-claim-conceded', 'debate', (review) => {
      review.claims[1]!.id = review.claims[0]!.id
    })
    await copy.editReview('zero-planted-issues', 'debate', (review) => {
      Object.assign(review.claims[0]!, { validity: 'planted', credit: 'full', planted_issue: 'P9' })
    })
    await copy.editReview('never-terminates', 'debate', (review) => {
      review.claims[0]!.span = 'words nobody wrote'
    })
    await copy.editReview('concession-without-update', 'debate', (review) => {
      delete review.claims[0]!.defense.position_updated
    })
    expect({
      duplicatePlantedIssue: await codeOf(copy.dir, 'partial-recall'),
      duplicateClaim: await codeOf(copy.dir, 'false-claim-conceded'),
      unknownPlantedIssue: await codeOf(copy.dir, 'zero-planted-issues'),
      spanNotInOutput: await codeOf(copy.dir, 'never-terminates'),
      inconsistent: await codeOf(copy.dir, 'concession-without-update'),
    }).toEqual({
      duplicatePlantedIssue: 'DUPLICATE_PLANTED_ISSUE',
      duplicateClaim: 'DUPLICATE_CLAIM',
      unknownPlantedIssue: 'UNKNOWN_PLANTED_ISSUE',
      spanNotInOutput: 'SPAN_NOT_IN_OUTPUT',
      inconsistent: 'ANNOTATION_INCONSISTENT',
    })
  })

  test('fixture-level refusals', async () => {
    const cases = await copyDebate()
    await cases.editCases((document) => {
      document.cases[2]!.id = 'partial-recall'
    })
    await expect(load(cases.dir)).rejects.toMatchObject({ code: 'DUPLICATE_CASE' })
    const reviews = await copyDebate()
    await reviews.editAnnotations((annotations) => {
      annotations.reviews.push(annotations.reviews[0]!)
    })
    await expect(load(reviews.dir)).rejects.toMatchObject({ code: 'DUPLICATE_REVIEW' })
    const rubric = await copyDebate()
    const path = join(rubric.dir, 'evaluation_rubric.json')
    await writeFile(path, (await readFile(path, 'utf8')).replace('by >= 0.10', 'by a clear margin'))
    await expect(load(rubric.dir)).rejects.toMatchObject({ code: 'RUBRIC_RULE_UNREADABLE', summary: expect.stringContaining('the baseline definition') })
  })

  test('a benchmark without a split is a development split', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      delete cases.split
    })
    expect(new Set((await load(copy.dir)).cases.map((entry) => entry.split))).toEqual(new Set(['development']))
  })
})
