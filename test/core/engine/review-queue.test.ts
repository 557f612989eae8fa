import { describe, expect, test } from 'vitest'
import { reviewQueue } from '../../../src/core/engine/review-queue.js'
import { loadFixture } from '../../../src/core/registry.js'
import { readSampleFile } from '../../../src/core/sample/sample-file.js'
import { samplePlace } from '../../../src/core/sample/sample.js'
import { runCli } from '../../helpers/cli.js'
import { queueFixture } from '../../helpers/queue-fixture.js'

async function queueOf(dir: string, options: Parameters<typeof reviewQueue>[1] = {}) {
  const fixture = await loadFixture('.', { cwd: dir })
  const { sample } = await readSampleFile(samplePlace(fixture, dir))
  return reviewQueue(fixture, { sample, ...options })
}

const lines = (queue: Awaited<ReturnType<typeof queueOf>>) => queue.entries.map((entry) => `${entry.caseId} ${entry.reason}`)

describe('the review queue', () => {
  test('lists each case once, for its first reason: disagreement, adjudication, stale, unreviewed, unsettled', async () => {
    const fixture = await queueFixture()
    const queue = await queueOf(fixture.dir)
    expect(lines(queue)).toEqual([
      'not-reviewed disagreement',
      'complete adjudication',
      'paraphrase stale',
      'negation stale',
      'wrong-command unreviewed',
      'uncertain-wording unsettled',
    ])
    expect(queue.counts).toEqual({ sampled: 0, disagreement: 1, adjudication: 1, stale: 2, unreviewed: 1, unsettled: 1 })
    const byId = new Map(queue.entries.map((entry) => [entry.caseId, entry]))
    expect(byId.get('not-reviewed')).toMatchObject({ criteria: ['support'], detail: 'on support' })
    expect(byId.get('paraphrase')).toMatchObject({ codes: ['REVIEW_ANSWER_STALE'], detail: "alice's review: answer changed (REVIEW_ANSWER_STALE)" })
    expect(byId.get('negation')).toMatchObject({ codes: ['REVIEW_ANSWER_STALE'], detail: 'the review: answer changed (REVIEW_ANSWER_STALE)' })
  })

  test('a sampled case pending for lack of a review goes first', async () => {
    const fixture = await queueFixture()
    expect((await runCli(['sample', '.', '--size', '8', '--seed', 'queue'], fixture.dir)).code).toBe(0)
    const queue = await queueOf(fixture.dir)
    expect(lines(queue).slice(0, 2)).toEqual(['wrong-command sampled', 'not-reviewed disagreement'])
    expect(queue.entries[0]!.detail).toBe('drawn in draw 1; no review')
  })

  test('a stale source or rubric is named by its code', async () => {
    const fixture = await queueFixture()
    const rubric = await fixture.readJson<{ criteria: { id: string; rule: string }[] }>('rubric.json')
    rubric.criteria[0]!.rule += ' Exactly.'
    await fixture.writeJson('rubric.json', rubric)
    const queue = await queueOf(fixture.dir)
    const paraphrase = queue.entries.find((entry) => entry.caseId === 'paraphrase')!
    expect(paraphrase.codes).toEqual(['REVIEW_ANSWER_STALE', 'REVIEW_RUBRIC_STALE'])
  })

  test("a reviewer's queue skips what they reviewed, keeps their own stale review, leaves adjudication out", async () => {
    const fixture = await queueFixture()
    expect(lines(await queueOf(fixture.dir, { for: { reviewer: 'alice' } }))).toEqual([
      'paraphrase stale',
      'wrong-command unreviewed',
      'uncertain-wording unreviewed',
    ])
    const carol = await queueOf(fixture.dir, { for: { reviewer: 'carol' } })
    // Blind: the disagreement is named by criterion, never by who rated what.
    expect(carol.entries.map((entry) => [entry.caseId, entry.reason, entry.detail])).toEqual([
      ['not-reviewed', 'disagreement', 'on support; not reviewed by carol'],
      ['complete', 'unreviewed', 'not reviewed by carol'],
      ['wrong-command', 'unreviewed', 'not reviewed by carol'],
      ['uncertain-wording', 'unreviewed', 'not reviewed by carol'],
    ])
  })

  test('with a minimum of reviews, reviewers who disagree are still named by criterion; agreeing ones wait for more reviews', async () => {
    const fixture = await queueFixture()
    const queue = await queueOf(fixture.dir, { panel: { minReviews: 3 } })
    expect(queue.entries.slice(0, 2).map((entry) => [entry.caseId, entry.reason, entry.detail])).toEqual([
      ['not-reviewed', 'disagreement', 'on support'],
      ['paraphrase', 'stale', "alice's review: answer changed (REVIEW_ANSWER_STALE)"],
    ])
    expect(queue.entries.find((entry) => entry.caseId === 'complete')).toMatchObject({
      reason: 'unreviewed',
      detail: expect.stringMatching(/2 of 3 required reviews$/),
    })
  })

  test("an adjudicator's queue holds what an adjudication decides", async () => {
    const fixture = await queueFixture()
    expect(lines(await queueOf(fixture.dir, { for: { adjudicator: 'dana' } }))).toEqual(['not-reviewed disagreement', 'complete adjudication'])
  })
})
