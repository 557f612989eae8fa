import { cp } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { convertFixture } from '../../../src/core/engine/convert-layout.js'
import { recordJudgeLabels } from '../../../src/core/judges/judge-labels.js'
import { runJudge } from '../../../src/core/judges/judge-run.js'
import type { CriterionJudge } from '../../../src/core/judges/judge-types.js'
import { kinds, loadFixture } from '../../../src/core/registry.js'
import { DOCUCTL } from '../../helpers/fixture-copy.js'
import { scratchDir } from '../../helpers/scratch.js'

// A judge run decides what to judge at its start, and writes its verdicts in batches while it runs.
// A label recorded meanwhile by another command (`review --judge`, another run) is not replaced: the
// run's write keeps every judgement the current label holds, as recording it again would need --replace.
describe.each(['seed', 'records'] as const)('a judge run, in the %s layout', (layout) => {
  test('keeps a judgement recorded while it ran, and adds its own verdicts beside it', async () => {
    const root = await scratchDir('judge-run-meanwhile')
    await cp(DOCUCTL, join(root, 'lab'), { recursive: true })
    if (layout === 'records') await convertFixture('lab', 'records', { cwd: root, kinds })
    let meanwhile: Promise<unknown> | undefined
    const perCriterion: CriterionJudge = async ({ criterion }) => {
      // At the run's first call, another command records a label of a case the run is to judge.
      meanwhile ??= recordJudgeLabels(
        join(root, 'lab'),
        [
          {
            caseId: 'not-reviewed',
            draft: { support: { rating: 'does_not_meet', reason: 'Recorded by hand.', answer_span: '' } },
            source: { label: 'the test', locate: (path) => path.join(' › ') },
            at: [],
            place: 'the test',
          },
        ],
        { cwd: root, kinds, judge: 'kw' },
      )
      await meanwhile
      return { rating: 'meets', reason: `Meets ${criterion.id}.` }
    }
    const result = await runJudge('lab', { cwd: root, kinds, judge: 'kw', concurrency: 1, backoffMs: 1, run: { perCriterion } })
    expect(result.failures).toEqual([])
    const fixture = await loadFixture('lab', { cwd: root })
    // Cast: a criteria label holds its judgements by criterion.
    const label = fixture.judges.reviews.get('not-reviewed')!.get('kw')!['review']!.value as { judgements: Record<string, { rating: string; reason: string }> }
    expect(label.judgements['support']).toMatchObject({ rating: 'does_not_meet', reason: 'Recorded by hand.' })
    expect(label.judgements['command']).toMatchObject({ rating: 'meets', reason: 'Meets command.' })
  })
})
