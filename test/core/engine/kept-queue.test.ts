import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { convertFixture } from '../../../src/core/engine/convert-layout.js'
import { DecidedUnder } from '../../../src/core/engine/decided-under.js'
import { IncrementalEvaluation } from '../../../src/core/engine/incremental.js'
import { KeptQueue } from '../../../src/core/engine/kept-queue.js'
import { reviewQueue } from '../../../src/core/engine/review-queue.js'
import { kinds, loadFixture } from '../../../src/core/registry.js'
import type { ReadSample, SampleFile } from '../../../src/core/sample/sample-file.js'
import { join } from 'node:path'
import type { DraftSource } from '../../../src/core/engine/authoring/draft.js'
import { recordReview } from '../../../src/core/engine/authoring/review.js'
import { fingerprint } from '../../../src/core/json/canonical-json.js'
import type { CaseAssessment } from '../../../src/core/engine/assess.js'
import type { Decision } from '../../../src/core/contract/decision.js'
import { generateFixture } from '../../bench/generate.mjs'
import { scratchDir } from '../../helpers/scratch.js'
import { copyFixture } from '../../helpers/fixture-copy.js'
import { apply, edit, type Edit } from '../../helpers/fixture-edits.js'

// A team's server keeps each reviewer's queue case by case (KeptQueue), reading again after a save
// only the cases the kept evaluation decided again. After any edit, each reviewer's kept queue must
// be the queue made afresh from the files: the same cases, in the same order, for the same reasons.
const REVIEWERS = ['alice', 'bob', 'carol']
const POLICY = { minReviews: 2 }
// Cast: the queue reads a sample's cases alone; the rest of the file is the sample command's.
const SAMPLE = {
  cases: [
    { id: 'negation', draw: 0 },
    { id: 'not-reviewed', draw: 1, least_sure: { criterion: 'support', confidence: 0.55 } },
  ],
} as unknown as SampleFile
const NO_SAMPLE: ReadSample = { sample: undefined, sha256: null }

async function replay(layout: 'seed' | 'records', setup: readonly Edit[], edits: readonly Edit[], sampleAt: number): Promise<void> {
  const fixture = await copyFixture()
  for (const change of setup) await apply(fixture.dir, change)
  if (layout === 'records') await convertFixture(fixture.dir, 'records', { cwd: fixture.dir, kinds })
  const kept = await IncrementalEvaluation.open(kinds, fixture.dir, { cwd: fixture.dir })
  const under = new DecidedUnder({}, POLICY)
  const queues = REVIEWERS.map((reviewer) => new KeptQueue(reviewer, under))
  for (const [step, change] of [undefined, ...edits].entries()) {
    if (change !== undefined) {
      await apply(fixture.dir, change, kept.parsed)
      await kept.refresh()
    }
    // The sample drawn part way through, and gone again at the end: each reads every case again.
    const sample: ReadSample = step >= sampleAt && step < edits.length ? { sample: SAMPLE, sha256: 'drawn' } : NO_SAMPLE
    const fresh = await loadFixture(fixture.dir, { cwd: fixture.dir, kind: 'criteria' })
    for (const [index, reviewer] of REVIEWERS.entries()) {
      const made = reviewQueue(fresh, { sample: sample.sample, for: { reviewer }, panel: POLICY }).entries
      const read = queues[index]!.read(kept, sample)
      expect([...read], `${reviewer} after ${JSON.stringify(change)}`).toEqual(made)
      for (const entry of made) expect(read.get(entry.caseId)).toEqual(entry)
    }
  }
}

describe('a reviewer’s queue a server keeps', () => {
  test('after every edit of a random sequence, each reviewer’s kept queue equals the one made from the files', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(edit, { maxLength: 3 }),
        fc.array(edit, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 8 }),
        (setup, edits, sampleAt) => replay('seed', setup, edits, sampleAt),
      ),
      {
        numRuns: 20,
        // Two reviewers disagree on a case, which leaves carol's queue for a disagreement; bob's own review goes stale.
        examples: [
          [
            [],
            [
              { kind: 'reviewer', id: 'complete', reviewer: 'alice', ratings: ['meets', 'meets', 'meets', 'meets', 'meets'] },
              { kind: 'reviewer', id: 'complete', reviewer: 'bob', ratings: ['meets', 'meets', 'does_not_meet', 'meets', 'meets'] },
              { kind: 'reviewer', id: 'negation', reviewer: 'bob', ratings: ['meets', 'uncertain', 'meets', 'meets', 'meets'] },
              { kind: 'answer', id: 'negation', suffix: ' Check health.' },
              { kind: 'adopt', id: 'complete', take: 'alice' },
            ],
            2,
          ],
        ],
      },
    )
  }, 120_000)

  test('in the records layout too', async () => {
    const saved = edit.filter((change) => ['add', 'review', 'replace', 'reviewer', 'adopt', 'judge', 'rubric'].includes(change.kind))
    await fc.assert(
      fc.asyncProperty(
        fc.array(saved, { maxLength: 3 }),
        fc.array(saved, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 8 }),
        (setup, edits, sampleAt) => replay('records', setup, edits, sampleAt),
      ),
      { numRuns: 15 },
    )
  }, 120_000)
})

/** A policy's assessments, counting the cases asked for. */
class CountedUnder extends DecidedUnder {
  asked = 0
  override at(kept: IncrementalEvaluation, position: number): CaseAssessment<Decision> {
    this.asked++
    return super.at(kept, position)
  }
}

const source: DraftSource = { label: 'the test', locate: (path) => path.join(' › ') }
const draft = Object.fromEntries(
  ['command', 'preconditions', 'database_scope', 'verification', 'support'].map((criterion) => [
    criterion,
    { rating: 'meets', reason: 'Read.', answer_span: '' },
  ]),
)

describe.each(['seed', 'records'] as const)('a kept queue after a reviewer’s save, in the %s layout', (layout) => {
  test('reads the case saved alone, and lists it no more', async () => {
    const root = await scratchDir(`kept-queue-cost-${layout}`)
    const dir = join(root, 'fixtures/lab')
    await generateFixture(dir, 300, { fingerprint })
    if (layout === 'records') await convertFixture(dir, 'records', { cwd: root, kinds })
    const kept = await IncrementalEvaluation.open(kinds, dir, { cwd: root })
    const save = async (reviewer: string, caseId: string) => {
      await recordReview(dir, draft, source, { cwd: root, kinds, caseId, replace: true, reviewer, memo: kept.parsed })
      await kept.refresh()
    }
    // Each reviewer's first save adds their file, which decides every case again.
    await save('alice', 'case-000001')
    await save('bob', 'case-000002')
    const under = new CountedUnder({}, POLICY)
    const queue = new KeptQueue('alice', under)
    expect([...queue.read(kept, NO_SAMPLE)].map((entry) => entry.caseId)).toContain('case-000042')
    expect(under.asked).toBe(300)
    under.asked = 0
    await save('alice', 'case-000042')
    const read = [...queue.read(kept, NO_SAMPLE)]
    expect(under.asked).toBe(1)
    expect(read.map((entry) => entry.caseId)).not.toContain('case-000042')
    expect(read).toEqual(reviewQueue(await loadFixture(dir, { cwd: root }), { for: { reviewer: 'alice' }, panel: POLICY }).entries)
  })
})
