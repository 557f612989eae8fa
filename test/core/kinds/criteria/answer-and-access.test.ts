import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { fingerprint, sha256Hex } from '../../../../src/core/json/canonical-json.js'
import { assessAnswer } from '../../../../src/core/kinds/criteria/answer.js'
import { assessFixtureCase, getCase, getReview } from '../../../../src/core/kinds/criteria/access.js'
import { bindRubricContents, type BoundRubric } from '../../../../src/core/kinds/criteria/rubric.js'
import { evaluateFixture } from '../../../../src/core/engine/evaluate.js'
import { kindContext } from '../../../../src/core/engine/fixture.js'
import { fileNamesOf, loadFixture } from '../../../../src/core/registry.js'

const CRITERIA_FILES = fileNamesOf('criteria')
import { DOCUCTL, ROOT } from '../../../helpers/fixture-copy.js'
import { editCriteriaFiles, loadCriteriaFromMemory, readFixtureFiles } from '../../../helpers/in-memory-fixture.js'

const fixture = await loadFixture(DOCUCTL, { cwd: DOCUCTL, kind: 'criteria' })

function answerOf(id: string): { text: string; citation: string } {
  return structuredClone((getCase(fixture, id).entry.value as { input: { answer: { text: string; citation: string } } }).input.answer)
}

describe('bindRubricContents', () => {
  test('hashes the bytes it is given: the revisions the specification publishes', async () => {
    const bound = bindRubricContents(await readFile(join(DOCUCTL, 'rubric.json')), await readFile(join(DOCUCTL, 'source.txt')))
    expect(bound.files.rubric?.sha256).toBe('3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228')
    expect(bound.files.source?.sha256).toBe('2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2')
    expect([...bound.rubric.criteria.keys()]).toEqual(['command', 'preconditions', 'database_scope', 'verification', 'support'])
  })

  test('a Uint8Array is hashed as it is, not as text', async () => {
    const rubric = new Uint8Array(await readFile(join(DOCUCTL, 'rubric.json')))
    const bound = bindRubricContents(rubric, new Uint8Array(await readFile(join(DOCUCTL, 'source.txt'))))
    expect(bound.files.rubric?.sha256).toBe('3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228')
    expect(bound.files.source?.sha256).toBe('2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2')
  })

  test('a string is hashed as UTF-8, so reformatting it is a new revision', async () => {
    const text = await readFile(join(DOCUCTL, 'rubric.json'), 'utf8')
    const source = await readFile(join(DOCUCTL, 'source.txt'), 'utf8')
    expect(bindRubricContents(text, source).files.rubric?.sha256).toBe('3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228')
    expect(bindRubricContents(JSON.stringify(JSON.parse(text)), source).files.rubric?.sha256).not.toBe(
      '3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228',
    )
  })

  test('refuses an invalid rubric with the names it was given', async () => {
    const source = await readFile(join(DOCUCTL, 'source.txt'))
    const rubric = JSON.parse(await readFile(join(DOCUCTL, 'rubric.json'), 'utf8')) as { criteria: { reference_quote: string }[] }
    rubric.criteria[2]!.reference_quote = 'It restores database contents.'
    expect(() => bindRubricContents(JSON.stringify(rubric), source, { rubric: 'edited rubric' })).toThrowErrorMatchingInlineSnapshot(`
      [FixtureError: edited rubric › criteria[2] › reference_quote: the reference quote does not occur in source.txt.
        expected: an exact excerpt of source.txt
        found:    "It restores database contents."
        fix:      copy the sentence from source.txt exactly (whitespace and punctuation included), or revise the criterion.]
    `)
  })
})

describe('getCase and getReview', () => {
  test('give a case with its review, and decide it as the whole fixture does', () => {
    const wrongCommand = getCase(fixture, 'wrong-command')
    expect(wrongCommand).toMatchObject({ kind: 'case', id: 'wrong-command', split: 'development', entry: { path: ['cases', 5] } })
    expect(wrongCommand.review).toMatchObject({
      kind: 'review',
      caseId: 'wrong-command',
      entry: { path: ['reviews', 5] },
      revisionRecordedAt: 'cases.json › cases[5] › expected › review_sha256',
    })
    expect(assessFixtureCase(wrongCommand)).toMatchObject({ status: 'rejected', reason: 'command, support' })
    expect(getCase(fixture, 'not-reviewed').review).toBeNull()
    expect(assessFixtureCase(getCase(fixture, 'not-reviewed'))).toMatchObject({ status: 'pending', reason: 'no review' })
  })

  test('an unknown id is a usage error listing the ids there are', () => {
    expect(() => getCase(fixture, 'negations')).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: cases.json: getCase: the fixture holds no case "negations".
        expected: one of "complete", "paraphrase", "negation", "unsupported-guarantee", "missing-verification", "wrong-command", "uncertain-wording", "not-reviewed"
        found:    "negations"
        fix:      use the id of a case in cases.json.]
    `)
  })

  test('getReview of an unknown id names the case, not a missing review', () => {
    expect(() => getReview(fixture, 'negations')).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: cases.json: getReview: the fixture holds no case "negations".
        expected: one of "complete", "paraphrase", "negation", "unsupported-guarantee", "missing-verification", "wrong-command", "uncertain-wording", "not-reviewed"
        found:    "negations"
        fix:      use the id of a case in cases.json.]
    `)
    expect(() => getReview(fixture, 'negations')).toThrow(expect.objectContaining({ name: 'UsageError', code: 'USAGE' }))
    expect(() => getCase(fixture, 'negations')).toThrow(expect.objectContaining({ name: 'UsageError', code: 'USAGE' }))
  })

  test("read a fixture of any kind: a scored fixture's case is decided as evaluateFixture decides it", async () => {
    const scored = await loadFixture(join(ROOT, 'fixtures/debate-benchmark'), { cwd: ROOT })
    const recall = getCase(scored, 'partial-recall')
    expect(recall).toMatchObject({ kind: 'case', id: 'partial-recall', review: { kind: 'review', caseId: 'partial-recall' } })
    expect(getReview(scored, 'partial-recall')).toEqual(recall.review)
    expect(assessFixtureCase(recall)).toEqual(evaluateFixture(scored).decisions.find((decision) => decision.id === 'partial-recall'))
    expect(() => getCase(scored, 'partial')).toThrow(
      expect.objectContaining({ name: 'UsageError', message: expect.stringContaining('getCase: the fixture holds no case "partial"') }),
    )
  })

  test('a held-out case keeps its split', async () => {
    const files = editCriteriaFiles(await readFixtureFiles(DOCUCTL, CRITERIA_FILES), {
      cases: (cases) => void (cases.cases[3]!.split = 'held_out'),
    })
    const edited = await loadCriteriaFromMemory(files)
    expect(getCase(edited, 'unsupported-guarantee').split).toBe('held_out')
    expect(getCase(edited, 'complete').split).toBe('development')
  })

  test('asking for the review of an unreviewed case is a usage error, not an empty review', () => {
    expect(() => getReview(fixture, 'not-reviewed')).toThrowErrorMatchingInlineSnapshot(`
      [UsageError: annotations.json (case "not-reviewed"): the case has no review.
        fix:      review the answer and add its review to annotations.json; until then the case is pending (getCase(fixture, "not-reviewed").review is null).]
    `)
    expect(() => getReview(fixture, 'not-reviewed')).toThrow(expect.objectContaining({ name: 'UsageError', code: 'USAGE' }))
  })
})

describe('assessAnswer: an answer outside the fixture against a review', () => {
  const context = kindContext(fixture)
  const bound: BoundRubric = { ...context, files: { ...context.files, cases: { name: 'cases.json', display: 'answer', sha256: '' } } }
  const review = (id: string) => getReview(fixture, id).entry

  test("the reviewed answer itself gets the case's decision", () => {
    expect(assessAnswer(bound, { value: answerOf('paraphrase'), path: [] }, review('paraphrase'))).toMatchObject({
      status: 'accepted',
      id: 'paraphrase',
    })
    expect(assessAnswer(bound, { value: answerOf('missing-verification'), path: [] }, review('missing-verification'))).toMatchObject({
      status: 'rejected',
      reason: 'verification',
    })
  })

  test('a changed answer is refused: the review describes another answer, and there is no case to acknowledge in', () => {
    const changed = answerOf('paraphrase')
    changed.text = changed.text.replace('healthy', 'up')
    const decision = assessAnswer(bound, { value: changed, path: [] }, review('paraphrase'))
    expect(decision.status).toBe('refused')
    expect(decision.status === 'refused' && decision.error.message).toMatchInlineSnapshot(`
      "annotations.json › reviews[1] › answer_sha256 (case "paraphrase"): the answer changed since it was reviewed: the judgement describes another answer.
        expected: 919296c8afed6ded043c4b811fed510945aa918385e6baa11e1ccf5a15c5235f (fingerprint of answer now)
        found:    1fb2ec5f7a4c91a7effe3312c9240c039193ee5a5bb8e65944229f98a4821c41
        fix:      re-read the answer and revise the review, then record the review again for this answer, from the answer, source and rubric as they are now.
        also:     annotations.json › reviews[1] › judgements › verification › answer_span: the answer span does not occur in the answer text (answer › text). Fix: quote the answer exactly; for an omission use "" and name the absent requirement in the reason."
    `)
  })

  test('no review keeps the answer pending', () => {
    expect(assessAnswer(bound, { value: answerOf('complete'), path: [] }, null)).toEqual({
      status: 'pending',
      id: 'answer',
      split: 'development',
      ratings: {},
      reason: 'no review',
      reviewed: false,
      missing: ['command', 'preconditions', 'database_scope', 'verification', 'support'],
      uncertain: [],
      failed: [],
    })
  })

  test('a review without a usable answer_id is reported for "answer"', () => {
    const complete = review('complete')
    for (const value of [{ ...(complete.value as object), answer_id: '' }, { ...(complete.value as object), answer_id: 7 }, null, undefined]) {
      const decision = assessAnswer(bound, { value: answerOf('complete'), path: [] }, { value, path: ['reviews', 0] })
      expect(decision).toMatchObject({ status: 'refused', id: 'answer', split: 'development', error: { code: 'REVIEW_INVALID', caseId: 'answer' } })
    }
  })

  test('an error that is not a refusal is thrown, never turned into a decision', () => {
    const answer = {
      get text(): string {
        throw new Error('the answer could not be read')
      },
      citation: 'guide',
    }
    expect(() => assessAnswer(bound, { value: answer, path: [] }, review('complete'))).toThrow('the answer could not be read')
  })

  test('an answer that is not { text, citation } is refused, not decided', () => {
    const decision = assessAnswer(bound, { value: { text: 'Run it.' }, path: [] }, review('complete'))
    expect(decision).toMatchObject({ status: 'refused', error: { code: 'CASE_INVALID', path: 'citation' } })
    expect(decision.status === 'refused' && decision.error.message).toMatchInlineSnapshot(`
      "answer › citation (case "complete"): a required value is missing.
        expected: a string
        found:    nothing (the key is missing)
        fix:      an answer holds exactly text and citation, both non-empty strings."
    `)
  })
})

describe('each recorded hash of a case and its review is refused with its own code', () => {
  test('source and rubric of the case, then of its review', async () => {
    const base = await readFixtureFiles(DOCUCTL, CRITERIA_FILES)
    const staleCase = (key: 'source_sha256' | 'rubric_sha256') =>
      editCriteriaFiles(base, { cases: (cases) => void (cases.cases[0]!.expected[key] = '0'.repeat(64)) })
    const staleReview = (key: 'source_sha256' | 'rubric_sha256') =>
      editCriteriaFiles(base, { annotations: (annotations) => void (annotations.reviews[0]![key] = '0'.repeat(64)), acknowledge: 'complete' })
    const codes = []
    for (const files of [staleCase('source_sha256'), staleCase('rubric_sha256'), staleReview('source_sha256'), staleReview('rubric_sha256')]) {
      const decision = evaluateFixture(await loadCriteriaFromMemory(files)).decisions[0]!
      codes.push(decision.status === 'refused' && decision.error.code)
    }
    expect(codes).toEqual(['CASE_SOURCE_STALE', 'CASE_RUBRIC_STALE', 'REVIEW_SOURCE_STALE', 'REVIEW_RUBRIC_STALE'])
  })
})

describe('criterion ids that name a property every object inherits', () => {
  const source = 'Use the staging command.\nCheck service health.\n'
  const rubric = JSON.stringify({
    id: 'inherited-names',
    version: 1,
    task: 'Explain the rollback.',
    acceptance: 'Every criterion must meet.',
    ratings: ['meets', 'does_not_meet', 'uncertain'],
    criteria: [
      { id: 'command', rule: 'Give the command.', reference_quote: 'Use the staging command.' },
      { id: 'constructor', rule: 'Say how to check.', reference_quote: 'Check service health.' },
    ],
  })
  const bound = bindRubricContents(rubric, source)
  const answer = { text: 'Use the staging command.', citation: 'guide' }
  const reviewOf = (judgements: Record<string, unknown>) => ({
    answer_id: 'answer',
    answer_sha256: fingerprint(answer),
    source_sha256: sha256Hex(source),
    rubric_sha256: sha256Hex(rubric),
    judgements,
  })
  const meets = { rating: 'meets', reason: 'Given.', reference_quote: 'Use the staging command.', answer_span: '' }

  test('a criterion named "constructor" that the review does not judge keeps the answer pending, never accepted', () => {
    const decision = assessAnswer(bound, { value: answer, path: [] }, { value: reviewOf({ command: meets }), path: [] })
    expect(decision).toMatchObject({ status: 'pending', reason: 'missing criterion constructor', ratings: { command: 'meets' } })
  })

  test('judged, it counts like any other criterion', () => {
    const fails = { rating: 'does_not_meet', reason: 'No check.', reference_quote: 'Check service health.', answer_span: '' }
    const decision = assessAnswer(bound, { value: answer, path: [] }, { value: reviewOf({ command: meets, constructor: fails }), path: [] })
    expect(decision).toMatchObject({ status: 'rejected', reason: 'constructor' })
  })
})
