import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { convertFixture } from '../../src/core/engine/convert-layout.js'
import { IncrementalEvaluation } from '../../src/core/engine/incremental.js'
import { kinds, loadFixture } from '../../src/core/registry.js'
import { pageFixture } from '../../src/web/page-data.js'
import { PageRows } from '../../src/web/page-rows.js'
import type { Viewer } from '../../src/web/viewer.js'
import { copyFixture } from '../helpers/fixture-copy.js'
import { apply, edit, type Edit } from '../helpers/fixture-edits.js'

// The served overview keeps what it made of each case by the case's assessment in the kept
// evaluation (PageRows): after any edit, every viewer's overview must be the one made afresh from
// the files, blind reviewers' own decisions, completed cases and agreement included.
const VIEWERS: readonly Viewer[] = [{ role: 'reader' }, { role: 'reviewer', name: 'alice' }, { role: 'reviewer', name: 'bob' }]

async function replay(layout: 'seed' | 'records', setup: readonly Edit[], edits: readonly Edit[]): Promise<void> {
  const fixture = await copyFixture()
  for (const change of setup) await apply(fixture.dir, change)
  if (layout === 'records') await convertFixture(fixture.dir, 'records', { cwd: fixture.dir, kinds })
  const incremental = await IncrementalEvaluation.open(kinds, fixture.dir, { cwd: fixture.dir })
  const rows = new PageRows()
  for (const change of [undefined, ...edits]) {
    if (change !== undefined) {
      await apply(fixture.dir, change, incremental.parsed)
      await incremental.refresh()
    }
    const fresh = await loadFixture(fixture.dir, { cwd: fixture.dir, kind: 'criteria' })
    for (const viewer of VIEWERS) {
      const decided = { evaluation: incremental.evaluation, assessments: incremental.assessments }
      const kept = await pageFixture(incremental.fixture, 0, {}, viewer, decided, undefined, rows)
      expect(kept, `${JSON.stringify(change)} seen by ${JSON.stringify(viewer)}`).toEqual(await pageFixture(fresh, 0, {}, viewer))
    }
  }
}

describe('the overview a server keeps', () => {
  test('after every edit of a random sequence, each viewer’s overview equals the one made from the files', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { maxLength: 3 }), fc.array(edit, { minLength: 1, maxLength: 8 }), (setup, edits) => replay('seed', setup, edits)),
      {
        numRuns: 20,
        // Two reviewers complete a case one after the other: bob's view of it moves from his own decision to the panel's, and the two disagree.
        examples: [
          [
            [],
            [
              { kind: 'reviewer', id: 'complete', reviewer: 'alice', ratings: ['meets', 'meets', 'meets', 'meets', 'meets'] },
              { kind: 'reviewer', id: 'complete', reviewer: 'bob', ratings: ['meets', 'meets', 'does_not_meet', 'meets', 'meets'] },
              { kind: 'adopt', id: 'complete', take: 'alice' },
              { kind: 'reviewer', id: 'negation', reviewer: 'bob', ratings: ['meets', 'uncertain', 'meets', 'meets', 'meets'] },
            ],
          ],
        ],
      },
    )
  }, 120_000)

  test('in the records layout too', async () => {
    // The edits a command saves (as records) and the rubric's own file.
    const saved = edit.filter((change) => ['add', 'review', 'replace', 'reviewer', 'adopt', 'judge', 'rubric'].includes(change.kind))
    await fc.assert(
      fc.asyncProperty(fc.array(saved, { maxLength: 3 }), fc.array(saved, { minLength: 1, maxLength: 8 }), (setup, edits) => replay('records', setup, edits)),
      { numRuns: 15 },
    )
  }, 120_000)
})
