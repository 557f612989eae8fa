import { copyFile, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { judgeAssistedLines } from '../../src/core/compare/compare-judge-text.js'
import { QUEUE_REASONS } from '../../src/core/engine/review-queue.js'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import type { SampleFile } from '../../src/core/sample/sample-file.js'
import type { NextAnswer, OverviewAnswer, PageComparison, PageFixture } from '../../src/web/protocol.js'
import type { SaveAnswer } from '../../src/web/save-protocol.js'
import type { RunningServer } from '../../src/web/server.js'
import { generateFixture } from '../bench/generate.mjs'
import { runCli } from '../helpers/cli.js'
import { ROOT } from '../helpers/fixture-copy.js'
import { fixtureRoot, serve } from '../helpers/page-browser.js'
import { queueFixture, reviewAs } from '../helpers/queue-fixture.js'
import { scratchDir } from '../helpers/scratch.js'
import { postSave, raw } from '../helpers/served-fixture.js'

async function get<T>(server: RunningServer, path: string): Promise<T> {
  const answer = await raw(server.port, path, { headers: { 'x-rubric-token': server.token } })
  expect(answer.status, answer.body).toBe(200)
  return JSON.parse(answer.body) as T
}

/** Every case the page's `n` opens in turn, from none shown, until it comes back to the first. */
async function walk(server: RunningServer, viewer = 'reader'): Promise<{ id: string; reason: string; detail: string }[]> {
  const seen: { id: string; reason: string; detail: string }[] = []
  let after = ''
  for (;;) {
    const { next } = await get<NextAnswer>(server, `/api/next?fixture=0&viewer=${viewer}${after === '' ? '' : `&after=${after}`}`)
    if (next === null || seen.some((each) => each.id === next.id)) return seen
    expect(next.expires).toBeNull()
    seen.push({ id: next.id, reason: next.reason, detail: next.detail })
    after = encodeURIComponent(next.id)
  }
}

const fixtureOf = async (server: RunningServer, viewer = 'reader') =>
  (await get<OverviewAnswer>(server, `/api/overview?viewer=${viewer}`)).fixtures[0] as PageFixture

describe('the review queue on the page of one person', () => {
  test('n follows `next`: the same cases in the same order with the same reasons, for everyone and for one blind reviewer', async () => {
    const fixture = await queueFixture()
    expect((await runCli(['sample', '.', '--size', '2', '--seed', 'queue'], fixture.dir)).code).toBe(0)
    const server = await serve(fixture.dir, ['.'])
    for (const [viewer, option] of [
      ['reader', []],
      ['reviewer:alice', ['--reviewer', 'alice']],
    ] as const) {
      const listed = JSON.parse((await runCli(['next', '.', '--limit', '0', '--json', ...option], fixture.dir)).stdout)
      const walked = await walk(server, viewer)
      expect(walked).toEqual(
        listed.entries.map((entry: { caseId: string; reason: string; detail: string }) => ({ id: entry.caseId, reason: entry.reason, detail: entry.detail })),
      )
      expect(walked.length).toBeGreaterThan(1)
      const { next } = await get<NextAnswer>(server, `/api/next?fixture=0&viewer=${viewer}`)
      expect(next?.queued).toBe(listed.total)
    }
    // In the queue's order of reasons, sampled first.
    const ranks = (await walk(server)).map((entry) => QUEUE_REASONS.indexOf(entry.reason as (typeof QUEUE_REASONS)[number]))
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b))
    expect(ranks.every((rank) => rank >= 0)).toBe(true)
  })

  test('the overview counts the sample’s progress for every viewer; a blind reviewer gets counts only, and their own', async () => {
    const fixture = await queueFixture()
    const drawn = await runCli(['sample', '.', '--size', '4', '--seed', 'progress', '--json'], fixture.dir)
    const ids: string[] = JSON.parse(drawn.stdout).cases.map((entry: { id: string }) => entry.id)
    const server = await serve(fixture.dir, ['.'])
    const before = await fixtureOf(server)
    expect(before.sample).toEqual({
      file: './sample.json',
      sampled: 4,
      reviewed: before.sample!.reviewed,
      decided: before.sample!.decided,
      pending: 4 - before.sample!.decided,
      yours: null,
    })
    // carol reviews a sampled case no one has reviewed yet: one more reviewed, and hers.
    const fresh = ids.find((id) => !['not-reviewed', 'complete', 'paraphrase'].includes(id))!
    await reviewAs(fixture.dir, fresh, 'carol')
    const carol = await fixtureOf(server, 'reviewer:carol')
    expect(carol.sample).toMatchObject({ sampled: 4, yours: 1 })
    expect(carol.estimate).toBeNull()
    const reader = await fixtureOf(server)
    expect(reader.sample).toMatchObject({ sampled: 4, yours: null })
    expect(carol.sample!.reviewed).toBe(reader.sample!.reviewed)
    expect(carol.sample!.decided).toBe(reader.sample!.decided)
  })

  test('with no queue left, n says so: the answer is null', async () => {
    const root = await scratchDir('queue-empty')
    await generateFixture(join(root, 'fixtures/done'), 5, { fingerprint, outcomeOf: () => 'accepted' })
    const server = await serve(root, ['fixtures/done'])
    expect(await get<NextAnswer>(server, '/api/next?fixture=0')).toEqual({ next: null })
  })
})

/** 400 generated cases (a quarter rejected, one in twenty pending), judged by `ix` and `aa`, with a sample of 160. */
async function judgedProject(): Promise<string> {
  const root = await scratchDir('serve-judge')
  const outcomeOf = (index: number) => (index % 20 === 6 ? 'pending' : index % 4 === 1 ? 'rejected' : 'accepted')
  await generateFixture(join(root, 'fixtures/lab'), 400, { fingerprint, outcomeOf })
  await writeFile(
    join(root, 'judge.mjs'),
    `export default async function judge({ answer, criterion }) {
  const index = Number(/^Answer (\\d+):/.exec(answer.text)[1])
  const rejected = index % 20 !== 6 && index % 4 === 1
  if (criterion.id === 'verification' && rejected !== (index % 10 === 3)) return { rating: 'does_not_meet', reason: 'No health check.', span: '' }
  return { rating: 'meets', reason: 'Met.', span: 'check service health' }
}
`,
  )
  expect((await runCli(['judge', 'fixtures/lab', '--judge', 'ix', '--run', 'judge.mjs'], root)).code).toBe(0)
  // A second judge, first by name, whose labels say every case is accepted.
  await copyFile(join(root, 'fixtures/lab/judges/ix.json'), join(root, 'fixtures/lab/judges/aa.json'))
  expect((await runCli(['sample', 'fixtures/lab', '--size', '160', '--seed', '7'], root)).code).toBe(0)
  return root
}

describe('serve --judge', { timeout: 120_000 }, () => {
  test('the overview’s estimate is the named judge’s; a save that asks answers the new progress, estimate and calibration, one that does not the progress', async () => {
    const root = await judgedProject()
    const unnamed = await serve(root, ['fixtures/lab'])
    const first = await fixtureOf(unnamed)
    expect(first.estimate !== null && 'judge' in first.estimate ? [first.estimate.judge, first.estimate.judgeChosen] : null).toEqual(['aa', 'first'])

    const server = await serve(root, ['fixtures/lab'], { judge: 'ix' })
    const shown = await fixtureOf(server)
    const estimate = shown.estimate
    expect(estimate !== null && 'judge' in estimate ? [estimate.judge, estimate.judgeChosen] : null).toEqual(['ix', 'named'])
    const evaluated = JSON.parse((await runCli(['evaluate', 'fixtures/lab', '--judge', 'ix', '--json'], root)).stdout)
    expect(estimate !== null && 'splits' in estimate ? estimate.splits.map((split) => split.result) : null).toEqual(
      evaluated.estimate.splits.map((split: { result: unknown }) => split.result),
    )

    // A pending sampled case (its review uncertain), decided through the page: the answer carries the progress and the estimate as they are now.
    const sample = JSON.parse(await readFile(join(root, 'fixtures/lab/sample.json'), 'utf8')) as SampleFile
    const id = sample.cases.map((entry) => entry.id).find((each) => Number(each.slice('case-'.length)) % 20 === 6)!
    const shownCase = await get<{ versions: Record<string, string | null>; existing: boolean }>(server, `/api/case?fixture=0&id=${id}`)
    const draft = Object.fromEntries(
      ['command', 'preconditions', 'database_scope', 'verification', 'support'].map((criterion) => [
        criterion,
        { rating: 'meets', reason: 'Met.', answer_span: '' },
      ]),
    )
    const saved = await postSave(server, {
      fixture: 0,
      id,
      draft,
      versions: shownCase.versions,
      replace: shownCase.existing,
      estimate: true,
      calibration: true,
    })
    expect(saved.status, saved.body).toBe(200)
    const answer = JSON.parse(saved.body) as SaveAnswer
    expect(answer.fixture.sample).toEqual({
      ...shown.sample,
      decided: shown.sample!.decided + 1,
      pending: shown.sample!.pending - 1,
      reviewed: answer.fixture.sample!.reviewed,
    })
    const after = JSON.parse((await runCli(['evaluate', 'fixtures/lab', '--judge', 'ix', '--json'], root)).stdout)
    const estimateOf = (shown: PageFixture['estimate'] | undefined) => (shown != null && 'splits' in shown ? shown.splits.map((split) => split.result) : null)
    expect(estimateOf(answer.fixture.estimate)).toEqual(after.estimate.splits.map((split: { result: unknown }) => split.result))
    const overview = await fixtureOf(server)
    expect(answer.fixture.estimate).toEqual(overview.estimate)
    // The calibration asked for is the judge's over the reviews as they are after the save, as the overview has it.
    expect(answer.fixture.calibration).not.toBeNull()
    expect(answer.fixture.calibration).toEqual(overview.calibration)
    // A save that does not ask for the estimate answers the progress alone.
    const other = sample.cases.map((entry) => entry.id).filter((each) => Number(each.slice('case-'.length)) % 20 === 6)[1]!
    const otherCase = await get<{ versions: Record<string, string | null>; existing: boolean }>(server, `/api/case?fixture=0&id=${other}`)
    const plain = JSON.parse(
      (await postSave(server, { fixture: 0, id: other, draft, versions: otherCase.versions, replace: otherCase.existing })).body,
    ) as SaveAnswer
    expect(plain.fixture.sample?.decided).toBe(answer.fixture.sample!.decided + 1)
    expect('estimate' in plain.fixture).toBe(false)
    expect('calibration' in plain.fixture).toBe(false)
  })

  test('a --judge that is not a judge’s name is a usage error', async () => {
    const refused = await runCli(['serve', '.', '--judge', '../ix', '--port', '0'], ROOT)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('--judge takes a judge\'s name (judges/<name>.json): letters, digits, ".", "_" and "-", not "../ix".')
  })

  test('a fixture with a sample but without the named judge’s labels says so, rather than show another judge', async () => {
    const root = await judgedProject()
    const server = await serve(root, ['fixtures/lab'], { judge: 'kw' })
    expect((await fixtureOf(server)).estimate).toEqual({
      error:
        'fixtures/lab: judge kw has no labels here (its judges are aa, ix): run `vitest-rubric judge fixtures/lab --judge kw --run <module>`, or serve with another --judge.',
    })
  })

  test('the comparison view gives the named judge’s B − A over every paired task, in the words of compare --judge', async () => {
    const root = await scratchDir('compare-judge-view')
    const outcomes = {
      a: (index: number) => (index % 4 === 1 ? 'rejected' : 'accepted'),
      b: (index: number) => (index % 5 === 1 ? 'rejected' : 'accepted'),
    } as const
    for (const side of ['a', 'b'] as const) {
      await generateFixture(join(root, side), 200, { fingerprint, outcomeOf: outcomes[side], splitOf: () => 'held_out' })
      await writeFile(
        join(root, `judge-${side}.mjs`),
        `const outcomeOf = ${outcomes[side].toString()}
export default async function judge({ answer, criterion }) {
  const index = Number(/^Answer (\\d+):/.exec(answer.text)[1])
  if (criterion.id === 'verification' && (outcomeOf(index) === 'rejected') !== (index % 10 === 3)) return { rating: 'does_not_meet', reason: 'No health check.', span: '' }
  return { rating: 'meets', reason: 'Met.', span: 'check service health' }
}
`,
      )
      expect((await runCli(['judge', side, '--judge', 'ix', '--run', `judge-${side}.mjs`], root)).code).toBe(0)
      expect((await runCli(['sample', side, '--size', '100', '--seed', '7'], root)).code).toBe(0)
    }
    const compared = JSON.parse((await runCli(['compare', 'a', 'b', '--judge', 'ix', '--json'], root)).stdout)
    const expected = compared.judge_assisted.splits.find((split: { split: string }) => split.split === 'held_out')
    const view = await get<PageComparison>(await serve(root, ['a', 'b'], { judge: 'ix' }), '/api/compare?a=0&b=1')
    const section = view.sections.find((each) => each.split === 'held_out')!
    expect(section.judgeAssisted).toEqual(judgeAssistedLines(expected, 'ix'))
    expect(section.judgeAssisted![1]).toMatch(/^judge-assisted: B − A = /)
  })

  test('the comparison view names why it has no judge-assisted figures when the fixtures have no sample', async () => {
    const root = await fixtureRoot('compare-judge-view', {
      'compare/answers-v1': join(ROOT, 'examples/compare/answers-v1'),
      'compare/answers-v2': join(ROOT, 'examples/compare/answers-v2'),
    })
    const plain = await get<PageComparison>(await serve(root, ['compare/answers-v1', 'compare/answers-v2']), '/api/compare?a=0&b=1')
    expect(plain.sections.every((section) => section.judgeAssisted === null)).toBe(true)
    const judged = await get<PageComparison>(await serve(root, ['compare/answers-v1', 'compare/answers-v2'], { judge: 'ix' }), '/api/compare?a=0&b=1')
    expect(judged.notes.at(-1)).toMatch(/^no judge-assisted figures \(judge ix\): compare\/answers-v1\/judges\/ix\.json: there are no labels by the judge "ix"/)
    expect(judged.sections.map((section) => section.difference)).toEqual(plain.sections.map((section) => section.difference))
  })
})
