import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { DraftSource } from '../../../src/core/engine/authoring/draft.js'
import { recordReview } from '../../../src/core/engine/authoring/review.js'
import { convertFixture } from '../../../src/core/engine/convert-layout.js'
import { evaluationJson } from '../../../src/core/engine/evaluation-json.js'
import { evaluateFixture } from '../../../src/core/engine/evaluate.js'
import { IncrementalEvaluation } from '../../../src/core/engine/incremental.js'
import { createRegistry } from '../../../src/core/engine/registry.js'
import { fingerprint } from '../../../src/core/json/canonical-json.js'
import { bucketOf } from '../../../src/core/store/records.js'
import { KINDS, kinds, loadFixture } from '../../../src/core/registry.js'
import { generateFixture } from '../../bench/generate.mjs'
import { scratchDir } from '../../helpers/scratch.js'

const source: DraftSource = { label: 'the test', locate: (path) => path.join(' › ') }
const CASES = 300
/** The bucket files of a records fixture of {@link CASES} cases. */
const BUCKETS = 16
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

/** The shipped criteria kind, counting each case its decision rule decides and each case whose split is read (once per case a parse reads). */
function countingKinds() {
  const counts = { decided: 0, split: 0 }
  const criteria = KINDS.criteria
  const counting = {
    ...criteria,
    decide: (...args: Parameters<typeof criteria.decide>) => {
      counts.decided++
      return criteria.decide(...args)
    },
    splitOf: (...args: Parameters<typeof criteria.splitOf>) => {
      counts.split++
      return criteria.splitOf(...args)
    },
  }
  return { counts, registry: createRegistry([counting, KINDS.scored]) }
}

describe.each(['seed', 'records'] as const)('a save of one case, as the review page makes it, in the %s layout', (layout) => {
  test('decides that case alone, and every other case keeps the very decision it had', async () => {
    const root = await scratchDir(`save-cost-${layout}`)
    const dir = join(root, 'fixtures/lab')
    await generateFixture(dir, CASES, { fingerprint })
    if (layout === 'records') await convertFixture(dir, 'records', { cwd: root, kinds })
    const { counts, registry } = countingKinds()
    const incremental = await IncrementalEvaluation.open(registry, dir, { cwd: root })
    expect(counts.decided).toBe(CASES)
    const before = incremental.evaluation

    // A case the generator left pending, reviewed again through the evaluation's parse memo, as the page's server saves.
    const id = 'case-000042'
    const position = before.decisions.findIndex((decision) => decision.id === id)
    expect(before.decisions[position]?.status).toBe('pending')
    Object.assign(counts, { decided: 0, split: 0 })
    const draft = Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: 'Read again.', answer_span: '' }]))
    await recordReview(dir, draft, source, { cwd: root, kinds: registry, caseId: id, replace: true, memo: incremental.parsed })
    const change = await incremental.refresh()

    expect(change.decided).toEqual([id])
    // The revision decides the case it proposes, and the refresh decides it again: never once per case of the fixture.
    expect(counts.decided).toBeLessThanOrEqual(4)
    // Only the entries the save changed are parsed again for the evaluation; in the records layout the revision reads the
    // documents of the saved case's bucket file alone (when it opens the fixture, and for its proposal): never every case.
    const bucket = bucketOf(id, BUCKETS)
    const bucketCases = before.decisions.filter((decision) => bucketOf(decision.id, BUCKETS) === bucket).length
    expect(counts.split).toBeLessThanOrEqual(layout === 'seed' ? 2 : 2 * bucketCases + 2)
    expect(2 * bucketCases + 2).toBeLessThan(CASES / 4)
    const after = incremental.evaluation
    expect(after.decisions[position]?.status).toBe('accepted')
    const kept = after.decisions.filter((decision, index) => index !== position && decision === before.decisions[index])
    expect(kept).toHaveLength(CASES - 1)
    // The evaluation given out before the save is left as it was.
    expect(before.decisions[position]?.status).toBe('pending')
    expect(before.coverage.pending - after.coverage.pending).toBe(1)
    expect(evaluationJson(after)).toEqual(evaluationJson(evaluateFixture(await loadFixture(dir, { cwd: root }))))
  }, 60_000)
})
