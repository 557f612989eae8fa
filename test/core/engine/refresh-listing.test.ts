import { join } from 'node:path'
import { describe, expect, test, vi } from 'vitest'
import type { DraftSource } from '../../../src/core/engine/authoring/draft.js'
import { recordReview } from '../../../src/core/engine/authoring/review.js'
import { IncrementalEvaluation } from '../../../src/core/engine/incremental.js'
import { fingerprint } from '../../../src/core/json/canonical-json.js'
import { kinds } from '../../../src/core/registry.js'
import { generateFixture } from '../../bench/generate.mjs'
import { scratchDir } from '../../helpers/scratch.js'

// A file another process adds while the evaluation reads the fixture must be read at the next
// refresh at the latest. The seam: once a read of the file `after` names ends, `during` runs, as if
// that process wrote just then, between the read of one file and the end of the refresh.
const seam = vi.hoisted(() => ({ after: '', during: undefined as (() => Promise<void>) | undefined }))
vi.mock(import('../../../src/core/json/read.js'), async (original) => {
  const actual = await original()
  return {
    ...actual,
    readFixtureFile: async (path: string, display: string) => {
      const file = await actual.readFixtureFile(path, display)
      const during = seam.during
      if (during !== undefined && path.endsWith(seam.after)) {
        seam.during = undefined
        await during()
      }
      return file
    },
  }
})

const source: DraftSource = { label: 'the test', locate: (path) => path.join(' › ') }
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const draft = Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: 'Read.', answer_span: '' }]))

describe('a refresh of a served fixture', () => {
  test('reads at the next refresh at the latest a reviewer’s file written while it read the others', async () => {
    const root = await scratchDir('refresh-listing')
    const dir = join(root, 'fixtures/lab')
    await generateFixture(dir, 6, { fingerprint })
    const incremental = await IncrementalEvaluation.open(kinds, dir, { cwd: root })
    const options = { cwd: root, kinds, caseId: 'case-000001', replace: true }
    await recordReview(dir, draft, source, { ...options, reviewer: 'bob' })
    // carol's review lands while the refresh that reads bob's is under way.
    seam.after = 'reviews/bob.json'
    seam.during = () => recordReview(dir, draft, source, { ...options, reviewer: 'carol' }).then(() => undefined)
    await incremental.refresh()
    expect(seam.during).toBeUndefined()
    await incremental.refresh()
    expect(incremental.fixture.panel.reviewers).toEqual(['bob', 'carol'])
    expect([...(incremental.fixture.panel.reviews.get('case-000001')?.keys() ?? [])].sort()).toEqual(['bob', 'carol'])
  })
})
