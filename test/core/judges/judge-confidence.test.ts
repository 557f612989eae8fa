import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { convertFixture } from '../../../src/core/engine/convert-layout.js'
import { runJudge } from '../../../src/core/judges/judge-run.js'
import type { CriterionJudge } from '../../../src/core/judges/judge-types.js'
import { kinds, loadFixture } from '../../../src/core/registry.js'
import { DOCUCTL } from '../../helpers/fixture-copy.js'
import { scratchDir } from '../../helpers/scratch.js'
import { runCli } from '../../helpers/cli.js'

/** A judge that meets every criterion, with a confidence that depends on the criterion (or the value given). */
const judgeWith =
  (confidence: (criterion: string) => unknown): CriterionJudge =>
  ({ criterion }) =>
    ({ rating: 'meets', reason: `Meets ${criterion.id}.`, confidence: confidence(criterion.id) }) as never

async function lab(layout: 'seed' | 'records'): Promise<string> {
  const root = await scratchDir('judge-confidence')
  await cp(DOCUCTL, join(root, 'lab'), { recursive: true })
  if (layout === 'records') await convertFixture('lab', 'records', { cwd: root, kinds })
  return root
}

/** The confidence of each criterion of each case in the judge's labels, as the fixture reads them. */
async function recorded(root: string): Promise<Record<string, Record<string, unknown>>> {
  const fixture = await loadFixture('lab', { cwd: root })
  const out: Record<string, Record<string, unknown>> = {}
  for (const [caseId, byJudge] of fixture.judges.reviews) {
    const label = byJudge.get('kw')!['review']!.value as { judgements: Record<string, { confidence?: number }> }
    const judgements = label.judgements
    out[caseId] = Object.fromEntries(Object.entries(judgements).map(([id, judgement]) => [id, judgement.confidence]))
  }
  return out
}

describe('a judge module’s confidence', () => {
  test.each(['seed', 'records'] as const)('is recorded with each label in the %s layout, and read back', async (layout) => {
    const root = await lab(layout)
    const confidences: Record<string, number> = { command: 0.9, preconditions: 0.55, database_scope: 1, verification: 0, support: 0.7 }
    const result = await runJudge('lab', { cwd: root, kinds, judge: 'kw', run: { perCriterion: judgeWith((id) => confidences[id]) }, backoffMs: 1 })
    expect(result.failures).toEqual([])
    const labels = await recorded(root)
    expect(Object.keys(labels)).toHaveLength(8)
    for (const judged of Object.values(labels)) expect(judged).toEqual(confidences)
    if (layout === 'seed') {
      const file = JSON.parse(await readFile(join(root, 'lab/judges/kw.json'), 'utf8'))
      expect(file.reviews[0].judgements.preconditions).toMatchObject({ rating: 'meets', confidence: 0.55 })
    }
  })

  test('is left out of a label when the judge gives none, and such labels stay valid', async () => {
    const root = await lab('seed')
    await runJudge('lab', { cwd: root, kinds, judge: 'kw', run: { perCriterion: judgeWith(() => undefined) } })
    const labels = await recorded(root)
    expect(Object.values(labels).every((judged) => Object.values(judged).every((value) => value === undefined))).toBe(true)
    const file = await readFile(join(root, 'lab/judges/kw.json'), 'utf8')
    expect(file).not.toContain('confidence')
  })

  test.each([
    [1.5, '1.5'],
    [-0.1, '-0.1'],
    ['0.9', '"0.9"'],
    [Number.NaN, 'NaN'],
  ])('%s fails the call with JUDGE_CONFIDENCE_INVALID naming the judge, case, criterion and value, and writes nothing for it', async (value, shown) => {
    const root = await lab('seed')
    const result = await runJudge('lab', {
      cwd: root,
      kinds,
      judge: 'kw',
      run: { perCriterion: judgeWith((id) => (id === 'support' ? value : 0.8)) },
      retries: 0,
    })
    expect(result.failures).toHaveLength(8)
    expect(result.failures[0]).toMatchObject({ criterion: 'support', attempts: 1 })
    expect(result.failures[0]!.error).toBe(
      `JUDGE_CONFIDENCE_INVALID: judge "kw" gave case "${result.failures[0]!.caseId}", criterion "support" the confidence ${shown}; ` +
        "expected a number from 0 to 1 (the judge's probability that its rating is right), or no confidence",
    )
    const labels = await recorded(root)
    expect(Object.values(labels).every((judged) => !('support' in judged) && judged['command'] === 0.8)).toBe(true)
  })
})

describe('a confidence kept and imported', () => {
  test('a second run that completes a label keeps the confidences the first recorded', async () => {
    const root = await lab('seed')
    // The first run's support verdicts are refused, so its labels lack support.
    await runJudge('lab', { cwd: root, kinds, judge: 'kw', run: { perCriterion: judgeWith((id) => (id === 'support' ? 2 : 0.8)) }, retries: 0 })
    await runJudge('lab', { cwd: root, kinds, judge: 'kw', run: { perCriterion: judgeWith(() => 0.3) } })
    for (const judged of Object.values(await recorded(root)))
      expect(judged).toEqual({ command: 0.8, preconditions: 0.8, database_scope: 0.8, verification: 0.8, support: 0.3 })
  })

  test('review --judge --from records a confidence, and refuses one outside 0 to 1 naming its path, writing nothing', async () => {
    const root = await lab('seed')
    const valid = join(root, 'labels.json')
    await writeFile(valid, JSON.stringify({ complete: { support: { rating: 'meets', reason: 'Met.', confidence: 0.25 } } }))
    expect((await runCli(['review', 'lab', '--judge', 'kw', '--from', valid], root)).code).toBe(0)
    expect((await recorded(root))['complete']).toEqual({ support: 0.25 })
    const invalid = join(root, 'bad.json')
    await writeFile(invalid, JSON.stringify({ paraphrase: { support: { rating: 'meets', reason: 'Met.', confidence: 2 } } }))
    const refused = await runCli(['review', 'lab', '--judge', 'kw', '--from', invalid], root)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('bad.json › paraphrase › support › confidence: the confidence is 2, outside 0 to 1; nothing was written.')
    expect(Object.keys(await recorded(root))).toEqual(['complete'])
  })
})
