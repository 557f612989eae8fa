import { join } from 'node:path'
import { describe, expect, test, vi } from 'vitest'
import type { DraftSource } from '../../../src/core/engine/authoring/draft.js'
import { recordReview } from '../../../src/core/engine/authoring/review.js'
import { convertFixture } from '../../../src/core/engine/convert-layout.js'
import { evaluationJson } from '../../../src/core/engine/evaluation-json.js'
import { evaluateFixture } from '../../../src/core/engine/evaluate.js'
import { IncrementalEvaluation } from '../../../src/core/engine/incremental.js'
import { fingerprint } from '../../../src/core/json/canonical-json.js'
import { kinds, loadFixture } from '../../../src/core/registry.js'
import { generateFixture } from '../../bench/generate.mjs'
import { scratchDir } from '../../helpers/scratch.js'

// How many cases a refresh compares with the last read (each comparison asks whether a case's entry is the same), and
// which files are read whole from disk.
const compared = vi.hoisted(() => ({ count: 0, read: [] as string[] }))
vi.mock(import('../../../src/core/json/read.js'), async (original) => {
  const actual = await original()
  return {
    ...actual,
    readFixtureFile: (path: string, display: string) => {
      compared.read.push(display)
      return actual.readFixtureFile(path, display)
    },
  }
})
vi.mock(import('../../../src/core/engine/same-entries.js'), async (original) => {
  const actual = await original()
  return {
    ...actual,
    sameEntry: (...args: Parameters<typeof actual.sameEntry>) => {
      compared.count++
      return actual.sameEntry(...args)
    },
  }
})

const source: DraftSource = { label: 'the test', locate: (path) => path.join(' › ') }
const CASES = 300
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const draft = Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: 'Read.', answer_span: '' }]))

describe.each(['seed', 'records'] as const)('a team reviewer’s save through the page, in the %s layout', (layout) => {
  test('compares and decides the case saved alone, once both reviewers have joined', async () => {
    const root = await scratchDir(`reviewer-save-cost-${layout}`)
    const dir = join(root, 'fixtures/lab')
    await generateFixture(dir, CASES, { fingerprint })
    if (layout === 'records') await convertFixture(dir, 'records', { cwd: root, kinds })
    const incremental = await IncrementalEvaluation.open(kinds, dir, { cwd: root })
    const save = async (reviewer: string, caseId: string) => {
      await recordReview(dir, draft, source, { cwd: root, kinds, caseId, replace: true, reviewer, memo: incremental.parsed })
      const read = compared.read.splice(0)
      compared.count = 0
      return { change: await incremental.refresh(), read: [...read, ...compared.read.splice(0)] }
    }
    // Each reviewer's first save adds their file: every case is compared then.
    await save('alice', 'case-000001')
    await save('bob', 'case-000002')
    // With no adjudications file, and with the reviewers as they were, a save changes its one case.
    const { change, read } = await save('alice', 'case-000042')
    expect(change.decided).toEqual(['case-000042'])
    expect(compared.count).toBe(1)
    // What the evaluation read is known to the save by its stat stamp: the save and the refresh read the reviewer's file alone.
    expect(read.filter((display) => !display.includes('records/'))).toEqual(layout === 'seed' ? ['fixtures/lab/reviews/alice.json'] : [])
    expect(evaluationJson(incremental.evaluation)).toEqual(evaluationJson(evaluateFixture(await loadFixture(dir, { cwd: root }))))
  }, 60_000)
})
