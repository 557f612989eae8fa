import { appendFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { CriteriaDecision } from '../../../../src/core/kinds/criteria/decision.js'
import { evaluateFixture } from '../../../../src/core/engine/evaluate.js'
import { FixtureError } from '../../../../src/core/common/errors.js'
import { formatEvaluation } from '../../../../src/cli/commands/evaluate.js'
import { evaluationJson } from '../../../../src/core/engine/evaluation-json.js'
import { copyFixture, DOCUCTL, ROOT, type FixtureCopy } from '../../../helpers/fixture-copy.js'
import { loadFixtureOfKind } from '../../../helpers/load-kind.js'

async function decide(dir: string) {
  return evaluateFixture(await loadFixtureOfKind('criteria', dir))
}

function byId(decisions: readonly CriteriaDecision[], id: string): CriteriaDecision {
  const decision = decisions.find((item) => item.id === id)
  if (decision === undefined) throw new Error(`no decision for ${id}`)
  return decision
}

function statuses(decisions: readonly CriteriaDecision[]): Record<string, string> {
  return Object.fromEntries(decisions.map((decision) => [decision.id, decision.status]))
}

const untouched = {
  complete: 'accepted',
  paraphrase: 'accepted',
  negation: 'accepted',
  'unsupported-guarantee': 'rejected',
  'missing-verification': 'rejected',
  'wrong-command': 'rejected',
  'uncertain-wording': 'pending',
  'not-reviewed': 'pending',
}

async function setRating(copy: FixtureCopy, caseId: string, criterion: string, rating: string) {
  await copy.editAnnotations((annotations) => {
    const judgement = annotations.reviews.find((review) => review.answer_id === caseId)?.judgements[criterion]
    if (judgement === undefined) throw new Error(`no judgement ${caseId}/${criterion}`)
    judgement.rating = rating
  })
}

describe('the failure triggers of the specification', () => {
  test('1. an unsupported promise is rejected although every required point is present', async () => {
    const decision = byId((await decide(DOCUCTL)).decisions, 'unsupported-guarantee')
    expect(decision).toMatchObject({
      status: 'rejected',
      reason: 'support',
      ratings: { command: 'meets', preconditions: 'meets', database_scope: 'meets', verification: 'meets', support: 'does_not_meet' },
    })
  })

  test('2. an answer without the post-rollback check is rejected on verification', async () => {
    expect(byId((await decide(DOCUCTL)).decisions, 'missing-verification')).toMatchObject({ status: 'rejected', reason: 'verification' })
  })

  test('3. the older command syntax stays a failure, not a plausible acceptance', async () => {
    expect(byId((await decide(DOCUCTL)).decisions, 'wrong-command')).toMatchObject({ status: 'rejected', reason: 'command, support' })
  })

  test('4. an uncertain or missing review keeps the case pending', async () => {
    const { decisions } = await decide(DOCUCTL)
    expect(byId(decisions, 'uncertain-wording')).toMatchObject({ status: 'pending', reason: 'uncertain on support', reviewed: true })
    expect(byId(decisions, 'not-reviewed')).toMatchObject({ status: 'pending', reason: 'no review', reviewed: false, ratings: {} })
  })

  test('5. pending reviews stay in coverage beside completed ones', async () => {
    const evaluation = await decide(DOCUCTL)
    expect(evaluation.coverage).toMatchObject({ candidates: 8, graded: 6, pending: 2 })
    const text = formatEvaluation(evaluationJson(evaluation))
    expect(text).toContain('6 graded of 8 candidates; 2 pending')
    expect(text).toContain('uncertain-wording: pending (uncertain on support)')
    expect(text).toContain('not-reviewed: pending (no review)')
  })

  test('6. a judgement of an answer that has since changed is refused, and only that case', async () => {
    const copy = await copyFixture()
    await copy.editCases((cases) => {
      cases.cases[1]!.input.answer.text += ' Extra sentence.'
    })
    const { decisions } = await decide(copy.dir)
    expect(statuses(decisions)).toEqual({ ...untouched, paraphrase: 'refused' })
    const refused = byId(decisions, 'paraphrase')
    expect(refused.status === 'refused' && refused.error.code).toBe('REVIEW_ANSWER_STALE')
  })

  test('6b. re-reviewing the changed answer and binding it again restores a decision', async () => {
    const copy = await copyFixture()
    await copy.editCases((cases) => {
      cases.cases[1]!.input.answer.text += ' Extra sentence.'
    })
    await copy.rebindAnswer('paraphrase')
    expect(statuses((await decide(copy.dir)).decisions)).toEqual(untouched)
  })

  test('7a. a changed source refuses every judgement bound to the old one', async () => {
    const copy = await copyFixture()
    await appendFile(join(copy.dir, 'source.txt'), 'Rollbacks take about five minutes.\n')
    const { decisions, coverage } = await decide(copy.dir)
    expect(new Set(decisions.map((decision) => decision.status === 'refused' && decision.error.code))).toEqual(new Set(['CASE_SOURCE_STALE']))
    expect(coverage).toMatchObject({ candidates: 8, graded: 0, pending: 0, refused: 8, outcomes: null })
  })

  test('7b. a changed rubric refuses every judgement bound to the old criteria', async () => {
    const copy = await copyFixture()
    const rubric = await copy.readJson<{ criteria: { rule: string }[] }>('rubric.json')
    rubric.criteria[3]!.rule = 'Tell the reader to check service health and error rates after rollback.'
    await copy.writeJson('rubric.json', rubric)
    const { decisions } = await decide(copy.dir)
    expect(new Set(decisions.map((decision) => decision.status === 'refused' && decision.error.code))).toEqual(new Set(['CASE_RUBRIC_STALE']))
  })

  test('7c. a case moved to the new rubric revision still refuses a review made under the old one', async () => {
    const copy = await copyFixture()
    // Same criteria, other bytes: the revision is the file as written, so this is a new revision.
    await writeFile(join(copy.dir, 'rubric.json'), JSON.stringify(await copy.readJson('rubric.json'), null, 4))
    const { fixture } = await decide(copy.dir)
    await copy.editCases((cases) => {
      for (const entry of cases.cases) entry.expected.rubric_sha256 = fixture.files.rubric!.sha256
    })
    const { decisions } = await decide(copy.dir)
    expect(byId(decisions, 'complete')).toMatchObject({ status: 'refused', error: { code: 'REVIEW_RUBRIC_STALE' } })
    expect(byId(decisions, 'not-reviewed')).toMatchObject({ status: 'pending' })
  })

  test('8. an edited review that the case has not acknowledged is refused', async () => {
    const copy = await copyFixture()
    await setRating(copy, 'missing-verification', 'verification', 'meets')
    const refused = byId((await decide(copy.dir)).decisions, 'missing-verification')
    expect(refused).toMatchObject({ status: 'refused', error: { code: 'REVIEW_EDIT_UNACKNOWLEDGED' } })
    await copy.acknowledgeReview('missing-verification')
    expect(byId((await decide(copy.dir)).decisions, 'missing-verification')).toMatchObject({ status: 'accepted' })
  })

  test('8b. a review removed without acknowledgement is refused, not silently pending', async () => {
    const copy = await copyFixture()
    await copy.editAnnotations((annotations) => {
      annotations.reviews = annotations.reviews.filter((review) => review.answer_id !== 'complete')
    })
    expect(byId((await decide(copy.dir)).decisions, 'complete')).toMatchObject({
      status: 'refused',
      error: { code: 'REVIEW_EDIT_UNACKNOWLEDGED' },
    })
  })

  test('9. a missing criterion keeps the review pending, and known failures stay in the record', async () => {
    const copy = await copyFixture()
    await copy.editAnnotations((annotations) => {
      const review = annotations.reviews.find((item) => item.answer_id === 'wrong-command')!
      delete review.judgements['verification']
    })
    await copy.acknowledgeReview('wrong-command')
    expect(byId((await decide(copy.dir)).decisions, 'wrong-command')).toMatchObject({
      status: 'pending',
      reason: 'missing criterion verification',
      missing: ['verification'],
      ratings: { command: 'does_not_meet', support: 'does_not_meet' },
      failed: [{ criterion: 'command' }, { criterion: 'support' }],
    })
  })

  test("10a. a judgement quoting another criterion's reference is refused", async () => {
    const copy = await copyFixture()
    await copy.editAnnotations((annotations) => {
      const judgements = annotations.reviews.find((item) => item.answer_id === 'complete')!.judgements
      judgements['verification']!.reference_quote = judgements['command']!.reference_quote
    })
    await copy.acknowledgeReview('complete')
    expect(byId((await decide(copy.dir)).decisions, 'complete')).toMatchObject({
      status: 'refused',
      error: { code: 'QUOTE_MISMATCH', path: 'reviews[0] › judgements › verification › reference_quote' },
    })
  })

  test('10b. a rubric quote that is not in the source refuses the fixture', async () => {
    const copy = await copyFixture()
    const rubric = await copy.readJson<{ criteria: { reference_quote: string }[] }>('rubric.json')
    rubric.criteria[3]!.reference_quote = 'After the rollback, check service health and logs.'
    await copy.writeJson('rubric.json', rubric)
    await expect(decide(copy.dir)).rejects.toThrow(FixtureError)
    await expect(decide(copy.dir)).rejects.toMatchObject({ code: 'RUBRIC_QUOTE_NOT_IN_SOURCE' })
  })

  test('10c. an answer span that is not in the answer is refused', async () => {
    const copy = await copyFixture()
    await copy.editAnnotations((annotations) => {
      annotations.reviews[0]!.judgements['support']!.answer_span = 'It guarantees zero downtime.'
    })
    await copy.acknowledgeReview('complete')
    expect(byId((await decide(copy.dir)).decisions, 'complete')).toMatchObject({ status: 'refused', error: { code: 'SPAN_NOT_IN_ANSWER' } })
  })

  test("11. a case asking another question than the rubric's task is refused", async () => {
    const copy = await copyFixture()
    await copy.editCases((cases) => {
      cases.cases[0]!.input.question = 'Explain a production rollback to r41.'
    })
    const { decisions } = await decide(copy.dir)
    expect(statuses(decisions)).toEqual({ ...untouched, complete: 'refused' })
    expect(byId(decisions, 'complete')).toMatchObject({ error: { code: 'QUESTION_MISMATCH' } })
  })

  test('12. zero completed reviews report zero review coverage and no quality figure', async () => {
    const copy = await copyFixture()
    await copy.editAnnotations((annotations) => {
      annotations.reviews = []
    })
    const cases = await copy.readJson<{ cases: { id: string }[] }>('cases.json')
    for (const entry of cases.cases) await copy.acknowledgeReview(entry.id)
    const evaluation = await decide(copy.dir)
    expect(evaluation.coverage).toMatchObject({ candidates: 8, graded: 0, pending: 8, outcomes: null })
    const text = formatEvaluation(evaluationJson(evaluation))
    expect(text).toContain('0 graded of 8 candidates; 8 pending; 0 refused — no completed reviews, so no quality figure')
    expect(text).not.toMatch(/accepted \d/)
  })
})

describe('the pending guard', () => {
  test('an uncertain rating never becomes an acceptance, even when every other criterion meets', async () => {
    const { decisions } = await decide(DOCUCTL)
    const decision = byId(decisions, 'uncertain-wording')
    expect(Object.values(decision.status === 'pending' ? decision.ratings : {}).filter((rating) => rating !== 'meets')).toEqual(['uncertain'])
    expect(decision.status).toBe('pending')
  })

  test('an uncertain rating beside a failed criterion is pending first, not a rejection', async () => {
    const copy = await copyFixture()
    await setRating(copy, 'wrong-command', 'preconditions', 'uncertain')
    await copy.acknowledgeReview('wrong-command')
    expect(byId((await decide(copy.dir)).decisions, 'wrong-command')).toMatchObject({
      status: 'pending',
      reason: 'uncertain on preconditions',
      failed: [{ criterion: 'command' }, { criterion: 'support' }],
    })
  })
})

test('the bundled fixture loads from the repository root with relative paths in messages', async () => {
  const fixture = await loadFixtureOfKind('criteria', 'fixtures/docuctl-rollback', ROOT)
  expect(fixture.files.cases!.display).toBe('fixtures/docuctl-rollback/cases.json')
})
