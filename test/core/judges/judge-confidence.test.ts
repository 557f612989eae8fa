import { cp, readdir, readFile, writeFile } from 'node:fs/promises'
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

/** Edits the judge kw's label of `complete` as a hand or another tool might: its support confidence becomes `value`. */
async function editConfidence(root: string, layout: 'seed' | 'records', value: unknown): Promise<string> {
  if (layout === 'seed') {
    const file = join(root, 'lab/judges/kw.json')
    const document = JSON.parse(await readFile(file, 'utf8'))
    const index = document.reviews.findIndex((review: { answer_id: string }) => review.answer_id === 'complete')
    document.reviews[index].judgements.support.confidence = value
    await writeFile(file, `${JSON.stringify(document, null, 2)}\n`)
    return `lab/judges/kw.json › reviews[${index}] › judgements › support › confidence (case "complete")`
  }
  const records = join(root, 'lab/records')
  for (const name of await readdir(records)) {
    if (!/^[0-9a-f]+\.jsonl$/.test(name)) continue
    const lines = (await readFile(join(records, name), 'utf8')).split('\n')
    const at = lines.findIndex((line) => line.includes('"doc":"judges/kw.json"') && line.includes('"case":"complete"'))
    if (at === -1) continue
    const record = JSON.parse(lines[at]!)
    record.item.judgements.support.confidence = value
    lines[at] = JSON.stringify(record)
    await writeFile(join(records, name), lines.join('\n'))
    return `lab/records/judges/kw.json › reviews[${record.n}] › judgements › support › confidence (case "complete")`
  }
  throw new Error('no record of the label of complete')
}

describe('a confidence edited into a judge’s file', () => {
  test.each([
    ['seed', 2, 'the integer 2'],
    ['seed', -3, 'the integer -3'],
    ['seed', 'high', 'the string "high"'],
    ['records', 1.5, 'the number 1.5'],
    ['records', 'high', 'the string "high"'],
  ] as const)('refuses the fixture in the %s layout (%s), naming the file and the JSON path, and nothing is written', async (layout, value, found) => {
    const root = await lab(layout)
    await runJudge('lab', { cwd: root, kinds, judge: 'kw', run: { perCriterion: judgeWith(() => 0.8) } })
    const where = await editConfidence(root, layout, value)
    const before = await snapshotOf(join(root, 'lab'))
    const summary = `${where}: the judge's confidence is not a number from 0 to 1, so a draw by the judge's confidence (\`sample --method active\`) cannot use it.`
    for (const argv of [
      ['calibrate', 'lab'],
      ['evaluate', 'lab'],
      ['sample', 'lab', '--size', '4', '--seed', '1', '--method', 'active', '--judge', 'kw'],
      ['review', 'lab', '--case', 'complete', '--judge', 'kw', '--replace', '--rating', 'support=meets', '--reason', 'support=Met.'],
    ]) {
      const result = await runCli(argv, root)
      expect(result.code, argv.join(' ')).toBe(1)
      expect(result.stdout + result.stderr, argv.join(' ')).toContain(summary)
    }
    const status = await runCli(['status', 'lab'], root)
    expect(status.code).toBe(1)
    expect(status.stdout + status.stderr).toContain(
      `${summary}\n` +
        "    expected: a number from 0 to 1 (the judge's probability that its rating is right), or no confidence\n" +
        `    found:    ${found}\n` +
        "    fix:      give the judge's probability that its rating is right, from 0 to 1, or leave the confidence out (a label without one is as valid).\n",
    )
    expect(await snapshotOf(join(root, 'lab'))).toEqual(before)
  })
})

/** Every file under a directory, with its bytes: to show that nothing was written. */
async function snapshotOf(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {}
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) files[join(entry.parentPath, entry.name)] = await readFile(join(entry.parentPath, entry.name), 'utf8')
  return files
}
