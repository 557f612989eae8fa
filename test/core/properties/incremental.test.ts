import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { convertFixture } from '../../../src/core/engine/convert-layout.js'
import { DecidedUnder } from '../../../src/core/engine/decided-under.js'
import { evaluateFixture, evaluateWithStates } from '../../../src/core/engine/evaluate.js'
import { evaluationJson } from '../../../src/core/engine/evaluation-json.js'
import { IncrementalEvaluation } from '../../../src/core/engine/incremental.js'
import { reviewQueue } from '../../../src/core/engine/review-queue.js'
import { kinds, loadFixture } from '../../../src/core/registry.js'
import { copyFixture, ROOT } from '../../helpers/fixture-copy.js'
import { apply, edit, editJson } from '../../helpers/fixture-edits.js'

async function fullEvaluation(dir: string): Promise<unknown> {
  return evaluationJson(evaluateFixture(await loadFixture(dir, { cwd: dir })))
}

describe('the incremental evaluation', () => {
  test('after every edit of a random sequence, it equals a full evaluation of the files', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { maxLength: 3 }), fc.array(edit, { minLength: 1, maxLength: 8 }), async (setup, edits) => {
        const fixture = await copyFixture()
        for (const change of setup) await apply(fixture.dir, change)
        const incremental = await IncrementalEvaluation.open(kinds, fixture.dir, { cwd: fixture.dir })
        expect(evaluationJson(incremental.evaluation)).toEqual(await fullEvaluation(fixture.dir))
        for (const [step, change] of edits.entries()) {
          // Every other edit shares the memo, so that both a primed parse and a parse of the file read are compared.
          await apply(fixture.dir, change, step % 2 === 0 ? incremental.parsed : undefined)
          await incremental.refresh()
          expect(evaluationJson(incremental.evaluation), JSON.stringify(change)).toEqual(await fullEvaluation(fixture.dir))
        }
      }),
      {
        numRuns: 25,
        // A panel built, adopted, then its adoption removed by hand: the one change that touches adjudications.json alone.
        examples: [
          [
            [],
            [
              { kind: 'reviewer', id: 'complete', reviewer: 'alice', ratings: ['meets', 'meets', 'meets', 'meets', 'meets'] },
              { kind: 'reviewer', id: 'complete', reviewer: 'bob', ratings: ['meets', 'meets', 'meets', 'meets', 'uncertain'] },
              { kind: 'adopt', id: 'complete', take: 'alice' },
              { kind: 'unadopt', id: 'complete' },
              { kind: 'adopt', id: 'complete', take: 'bob' },
              { kind: 'judge', id: 'complete', ratings: ['meets', 'meets', 'does_not_meet', 'meets', 'meets'] },
            ],
          ],
          // Every reviewer's file deleted while an adoption stays: the reviewers go, the several-reviewer rule still applies.
          [
            [
              { kind: 'reviewer', id: 'complete', reviewer: 'alice', ratings: ['meets', 'meets', 'meets', 'meets', 'meets'] },
              { kind: 'reviewer', id: 'negation', reviewer: 'bob', ratings: ['meets', 'meets', 'meets', 'meets', 'meets'] },
              { kind: 'adopt', id: 'complete', take: 'alice' },
            ],
            [
              { kind: 'leave', reviewer: 'bob' },
              { kind: 'leave', reviewer: 'alice' },
            ],
          ],
        ],
      },
    )
  }, 120_000)

  test('in the records layout too: after every saved edit of a random sequence, it equals a full evaluation of the records', async () => {
    // The edits a command saves (as records) and the rubric's own file; a hand edit of a record is refused, not decided (records-layout tests).
    const saved = edit.filter((change) => ['add', 'review', 'replace', 'reviewer', 'adopt', 'judge', 'rubric'].includes(change.kind))
    await fc.assert(
      fc.asyncProperty(fc.array(saved, { maxLength: 3 }), fc.array(saved, { minLength: 1, maxLength: 8 }), async (setup, edits) => {
        const fixture = await copyFixture()
        for (const change of setup) await apply(fixture.dir, change)
        await convertFixture(fixture.dir, 'records', { cwd: fixture.dir, kinds })
        const incremental = await IncrementalEvaluation.open(kinds, fixture.dir, { cwd: fixture.dir })
        expect(incremental.evaluation.fixture.records).toBeDefined()
        expect(evaluationJson(incremental.evaluation)).toEqual(await fullEvaluation(fixture.dir))
        for (const [step, change] of edits.entries()) {
          await apply(fixture.dir, change, step % 2 === 0 ? incremental.parsed : undefined)
          await incremental.refresh()
          expect(evaluationJson(incremental.evaluation), JSON.stringify(change)).toEqual(await fullEvaluation(fixture.dir))
        }
      }),
      { numRuns: 15 },
    )
  }, 120_000)

  // A team's assignment asks more reviews of each case than the served rule; the other way round too, where the rule no longer depends on the fixture.
  test.each([
    { served: 0, asked: 2, rule: 'two reviews a case, served asking none' },
    { served: 2, asked: 0, rule: 'no minimum, served asking two' },
  ])(
    'decided under another rule ($rule), after every edit it gives the decisions and the queue of a full evaluation under that rule',
    async ({ served, asked }) => {
      const panel = { minReviews: asked }
      await fc.assert(
        fc.asyncProperty(fc.array(edit, { maxLength: 3 }), fc.array(edit, { minLength: 1, maxLength: 8 }), async (setup, edits) => {
          const fixture = await copyFixture()
          for (const change of setup) await apply(fixture.dir, change)
          const incremental = await IncrementalEvaluation.open(kinds, fixture.dir, { cwd: fixture.dir, panel: { minReviews: served } })
          const under = new DecidedUnder({}, panel)
          for (const change of [undefined, ...edits]) {
            if (change !== undefined) {
              await apply(fixture.dir, change, incremental.parsed)
              await incremental.refresh()
            }
            const decided = under.of(incremental)
            const fresh = await loadFixture(fixture.dir, { cwd: fixture.dir, kind: 'criteria' })
            const full = evaluateWithStates(fresh, { panel })
            expect(
              decided.assessments.map((each) => each.decision),
              JSON.stringify(change),
            ).toEqual(full.evaluation.decisions)
            for (const reviewer of ['alice', 'bob']) {
              const queue = reviewQueue(incremental.fixture, { for: { reviewer }, panel, decided })
              expect(queue.entries, JSON.stringify(change)).toEqual(reviewQueue(fresh, { for: { reviewer }, panel }).entries)
            }
            // Everyone's queue under the served rule, read from the kept evaluation itself (serve without a team).
            const servedRule = { panel: { minReviews: served } }
            const kept = { evaluation: incremental.evaluation, assessments: incremental.assessments }
            expect(reviewQueue(incremental.fixture, { ...servedRule, decided: kept }).entries, JSON.stringify(change)).toEqual(
              reviewQueue(fresh, servedRule).entries,
            )
          }
        }),
        {
          numRuns: 20,
          // An adoption, then its removal by hand: whether the rule applies at all moves under a rule that asks no reviews.
          examples: [
            [
              [
                { kind: 'reviewer', id: 'complete', reviewer: 'alice', ratings: ['meets', 'meets', 'meets', 'meets', 'meets'] },
                { kind: 'reviewer', id: 'complete', reviewer: 'bob', ratings: ['meets', 'meets', 'meets', 'meets', 'meets'] },
              ],
              [
                { kind: 'adopt', id: 'complete', take: 'alice' },
                { kind: 'unadopt', id: 'complete' },
              ],
            ],
          ],
        },
      )
    },
    120_000,
  )

  test('a review of one case decides that case again, and a rubric edit decides every case', async () => {
    const fixture = await copyFixture()
    const incremental = await IncrementalEvaluation.open(kinds, fixture.dir, { cwd: fixture.dir })
    expect(incremental.decisionOf('not-reviewed')?.status).toBe('pending')

    await apply(fixture.dir, { kind: 'review', id: 'not-reviewed', ratings: ['meets', 'meets', 'meets', 'meets', 'meets'] })
    const reviewed = await incremental.refresh()
    expect(reviewed).toEqual({ files: ['annotations.json', 'cases.json'], decided: ['not-reviewed'], removed: [] })
    expect(incremental.decisionOf('not-reviewed')?.status).toBe('accepted')

    expect(await incremental.refresh()).toEqual({ files: [], decided: [], removed: [] })

    await apply(fixture.dir, { kind: 'rubric', criterion: 4 })
    const reworded = await incremental.refresh()
    expect(reworded.decided).toBe('all')
    expect(reworded.files).toEqual(['rubric.json'])
    expect(evaluationJson(incremental.evaluation)).toEqual(await fullEvaluation(fixture.dir))
  })

  test.each(['seed', 'records'] as const)(
    "in the %s layout, a reviewer's first review decides the case they reviewed again, not every case",
    async (layout) => {
      const fixture = await copyFixture()
      const judged = ['meets', 'meets', 'meets', 'meets', 'meets']
      await apply(fixture.dir, { kind: 'reviewer', id: 'complete', reviewer: 'alice', ratings: judged })
      if (layout === 'records') await convertFixture(fixture.dir, 'records', { cwd: fixture.dir, kinds })
      const incremental = await IncrementalEvaluation.open(kinds, fixture.dir, { cwd: fixture.dir })
      // A second reviewer joins: the set of reviewers changes, and only the case bob reviewed is his.
      await apply(fixture.dir, { kind: 'reviewer', id: 'negation', reviewer: 'bob', ratings: judged })
      const joined = await incremental.refresh()
      expect(joined.decided).toEqual(['negation'])
      expect(evaluationJson(incremental.evaluation)).toEqual(await fullEvaluation(fixture.dir))
    },
  )

  test('in the records layout, an evaluation read only after the next save still gives the fingerprints of the files it was made from', async () => {
    const fixture = await copyFixture()
    await convertFixture(fixture.dir, 'records', { cwd: fixture.dir, kinds })
    const incremental = await IncrementalEvaluation.open(kinds, fixture.dir, { cwd: fixture.dir })
    await apply(fixture.dir, { kind: 'review', id: 'not-reviewed', ratings: ['meets', 'meets', 'meets', 'meets', 'meets'] }, incremental.parsed)
    await incremental.refresh()
    const [earlier, itsFiles] = [incremental.evaluation, await fullEvaluation(fixture.dir)]
    await apply(fixture.dir, { kind: 'replace', id: 'not-reviewed', ratings: ['meets', 'meets', 'uncertain', 'meets', 'meets'] }, incremental.parsed)
    expect((await incremental.refresh()).decided).toEqual(['not-reviewed'])
    expect(evaluationJson(earlier)).toEqual(itsFiles)
    expect(evaluationJson(incremental.evaluation)).not.toEqual(itsFiles)
  })

  const judged = ['meets', 'meets', 'meets', 'meets', 'meets']
  test.each([
    ['reviews/alice.json', "the only reviewer's file", [{ kind: 'reviewer', id: 'complete', reviewer: 'alice', ratings: judged }]],
    [
      'adjudications.json',
      'the adoptions',
      [
        { kind: 'reviewer', id: 'complete', reviewer: 'alice', ratings: judged },
        { kind: 'reviewer', id: 'complete', reviewer: 'bob', ratings: ['does_not_meet', ...judged.slice(1)] },
        { kind: 'adopt', id: 'complete', take: 'alice' },
      ],
    ],
    ['judges/keyword-judge.json', "the judge's file", [{ kind: 'judge', id: 'complete', ratings: judged }]],
  ] as const)('%s deleted (%s) is a change that names the file, and it decides as a full evaluation does', async (file, _what, setup) => {
    const fixture = await copyFixture()
    for (const change of setup) await apply(fixture.dir, change)
    const incremental = await IncrementalEvaluation.open(kinds, fixture.dir, { cwd: fixture.dir })
    const before = evaluationJson(incremental.evaluation)
    await rm(join(fixture.dir, file))
    const change = await incremental.refresh()
    expect(change.files).toEqual([file])
    const full = await fullEvaluation(fixture.dir)
    expect(evaluationJson(incremental.evaluation)).toEqual(full)
    if (file !== 'judges/keyword-judge.json') expect(full).not.toEqual(before)
  })

  test('a file whose bytes are rewritten unchanged is read again but parses nothing and decides nothing', async () => {
    const fixture = await copyFixture()
    const incremental = await IncrementalEvaluation.open(kinds, fixture.dir, { cwd: fixture.dir })
    const before = incremental.evaluation
    const path = join(fixture.dir, 'annotations.json')
    await writeFile(path, await readFile(path))
    expect(await incremental.refresh()).toEqual({ files: [], decided: [], removed: [] })
    expect(incremental.evaluation).toBe(before)
  })
})

describe('the incremental evaluation of a scored fixture', () => {
  test('a review removed and the rubric re-saved each give what a full evaluation gives, benchmark included', async () => {
    const fixture = await copyFixture(join(ROOT, 'fixtures/debate-benchmark'))
    const incremental = await IncrementalEvaluation.open(kinds, fixture.dir, { cwd: fixture.dir })
    expect(evaluationJson(incremental.evaluation)).toEqual(await fullEvaluation(fixture.dir))

    await editJson<{ reviews: unknown[] }>(fixture.dir, 'annotations.json', (annotations) => {
      annotations.reviews.shift()
    })
    const removed = await incremental.refresh()
    expect(removed.decided).not.toBe('all')
    expect(removed.decided.length).toBeGreaterThan(0)
    expect(evaluationJson(incremental.evaluation)).toEqual(await fullEvaluation(fixture.dir))

    const rubric = join(fixture.dir, 'evaluation_rubric.json')
    await writeFile(rubric, `${(await readFile(rubric, 'utf8')).trimEnd()}\n\n`)
    expect((await incremental.refresh()).decided).toBe('all')
    expect(evaluationJson(incremental.evaluation)).toEqual(await fullEvaluation(fixture.dir))
  })
})
