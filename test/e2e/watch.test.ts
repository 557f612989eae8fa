import { appendFile, cp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import type { Reporter, TestModule } from 'vitest/node'
import { startVitest } from 'vitest/node'
import { convertFixture } from '../../src/core/engine/convert-layout.js'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import { bindFixture, kinds, recordReview } from '../../src/core/registry.js'
import { rubric, type RubricPluginOptions } from '../../src/plugin.js'
import { generateFixture } from '../bench/generate.mjs'
import { runBuiltCli } from '../helpers/cli.js'
import { editableFixture, ROOT } from '../helpers/fixture-copy.js'
import { makeProject } from '../helpers/scratch.js'
import { sink, summarize, type VitestRun } from '../helpers/run-vitest.js'

/** How long a step waits for the rerun it needs: a guard against a rerun that never comes, not a budget. */
const RERUN = 60_000

/** Each watch run's result as it ends, handed out in order. */
class RunQueue implements Reporter {
  private readonly ended: VitestRun[] = []
  private taken = 0
  private started = 0
  private wake: (() => void) | undefined

  onTestRunStart() {
    this.started++
  }

  /**
   * Waits until every run begun has ended and none began for `ms`, and skips the runs ended so far:
   * the files a first run writes (a split fixture's chunk modules) may start a run of their own.
   */
  async quiet(ms = 1500): Promise<void> {
    const deadline = Date.now() + RERUN
    for (;;) {
      const seen = this.started
      await new Promise((resolve) => setTimeout(resolve, ms))
      while (this.ended.length < this.started && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
      if (seen === this.started || Date.now() >= deadline) break
    }
    this.taken = this.ended.length
  }

  onTestRunEnd(modules: readonly TestModule[]) {
    this.ended.push(summarize(modules, '', '', 0))
    this.wake?.()
  }

  /**
   * The first run not yet handed out for which `seen` holds, skipping the others: an edit in
   * several writes, or one saved while a run reads, may give reruns that began before the edit.
   * Fails after RERUN ms with what was awaited and the last run seen.
   */
  async until(what: string, seen: (run: VitestRun) => boolean): Promise<VitestRun> {
    const deadline = Date.now() + RERUN
    let last: VitestRun | undefined
    for (;;) {
      while (this.taken < this.ended.length) {
        last = this.ended[this.taken++]!
        if (seen(last)) return last
      }
      const left = deadline - Date.now()
      if (left <= 0)
        throw new Error(`waited ${RERUN / 1000} s for a run ${what}; ${last === undefined ? 'no run ended' : `the last run seen:\n${describeRun(last)}`}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      this.wake = undefined
    }
  }
}

const describeRun = (run: VitestRun) =>
  run.tests.map((item) => `  ${item.module} > ${item.name}: ${item.state}${item.meta === undefined ? '' : ` (${item.meta.status})`}`).join('\n') || '  no test'

const stateOf = (run: VitestRun, module: string, name: string) => run.tests.find((item) => item.module === module && item.name.startsWith(name))?.state

const refusesAny =
  (...modules: string[]) =>
  (run: VitestRun) =>
    run.tests.some((item) => modules.includes(item.module) && item.meta?.status === 'refused')

/** Vitest in watch mode over `root` with the plugin, reporting each run to `runs`; `stderr` gets what it prints there. */
function startWatching(root: string, runs: RunQueue, options: RubricPluginOptions = {}, stderr: (text: string) => void = () => {}) {
  return startVitest(
    'test',
    [],
    { root, config: false, watch: true, reporters: [runs] },
    { plugins: [rubric({ reporter: false, ...options })], test: { include: [] } },
    { stdout: sink(() => {}), stderr: sink(stderr) },
  )
}

test('watch mode reruns a fixture with fresh data when its files change, and follows directories', { timeout: 180_000 }, async () => {
  const root = await makeProject({ 'fixtures/a': null })
  const runs = new RunQueue()
  const exitCode = process.exitCode
  const vitest = await startWatching(root, runs)
  try {
    const first = await runs.until('to end', () => true)
    expect(stateOf(first, 'fixtures/a/rubric.json', 'missing-verification')).toBe('failed')

    // A review revised and acknowledged: the module is decided again from the new files.
    const fixture = editableFixture(join(root, 'fixtures/a'))
    await fixture.editAnnotations((annotations) => {
      annotations.reviews[4]!.judgements['verification']!.rating = 'meets'
    })
    await fixture.acknowledgeReview('missing-verification')
    // Two edits may give two reruns: wait for the one that saw both.
    let rerun = await runs.until('that saw the revised review', (run) => stateOf(run, 'fixtures/a/rubric.json', 'missing-verification') !== 'failed')
    expect(stateOf(rerun, 'fixtures/a/rubric.json', 'missing-verification')).toBe('passed')
    expect(refusesAny('fixtures/a/rubric.json')(rerun)).toBe(false)

    // source.txt is watched too: editing it refuses every case bound to the old source.
    // Nothing is refused before: a run with a refused case is one that read the new source.
    await appendFile(join(root, 'fixtures/a/source.txt'), 'A new sentence.\n')
    rerun = await runs.until('that read the new source.txt', refusesAny('fixtures/a/rubric.json'))
    expect(stateOf(rerun, 'fixtures/a/rubric.json', 'complete')).toBe('failed')
    expect(rerun.tests.find((item) => item.name === 'complete')?.meta?.status).toBe('refused')

    // bind renames new files over cases.json and annotations.json: the rerun sees the revision.
    await bindFixture(join(root, 'fixtures/a'), { cases: 'all', dryRun: false, cwd: root })
    rerun = await runs.until('where complete passes again', (run) => stateOf(run, 'fixtures/a/rubric.json', 'complete') === 'passed')
    expect(rerun.tests.find((item) => item.name === 'complete')?.meta?.status).toBe('accepted')

    // A fixture directory copied in is picked up.
    await cp(join(root, 'fixtures/a'), join(root, 'fixtures/b'), { recursive: true })
    const added = await runs.until('of fixtures/b', (run) => run.modules.some((module) => module.id === 'fixtures/b/rubric.json'))
    expect(added.tests.filter((item) => item.module === 'fixtures/b/rubric.json')).toHaveLength(8)

    // A removed one disappears.
    await rm(join(root, 'fixtures/b'), { recursive: true })
    await expect
      .poll(() => vitest.state.getFilepaths().some((file) => file.includes('fixtures/b/')), {
        timeout: RERUN,
        message: `fixtures/b still among the test files ${RERUN / 1000} s after its removal`,
      })
      .toBe(false)
  } finally {
    await vitest.close()
    process.exitCode = exitCode
  }
})

test('watch mode reruns a fixture in the records layout when a save appends to its record files', { timeout: 180_000 }, async () => {
  const root = await makeProject({ 'fixtures/a': null })
  await convertFixture(join(root, 'fixtures/a'), 'records', { cwd: root, kinds })
  const runs = new RunQueue()
  const exitCode = process.exitCode
  const vitest = await startWatching(root, runs)
  try {
    const first = await runs.until('to end', () => true)
    expect(stateOf(first, 'fixtures/a/rubric.json', 'not-reviewed')).toBe('todo')
    // A review saved as records: the rerun decides the case from the new lines.
    const draft = Object.fromEntries(
      ['command', 'preconditions', 'database_scope', 'verification', 'support'].map((id) => [id, { rating: 'meets', reason: `Meets ${id}.`, answer_span: '' }]),
    )
    await recordReview(
      join(root, 'fixtures/a'),
      draft,
      { label: 'the test', locate: (path) => path.join(' › ') },
      { cwd: root, caseId: 'not-reviewed', replace: false },
    )
    const rerun = await runs.until('that read the saved review', (run) => stateOf(run, 'fixtures/a/rubric.json', 'not-reviewed') === 'passed')
    expect(rerun.tests.find((item) => item.name === 'not-reviewed')?.meta?.status).toBe('accepted')
  } finally {
    await vitest.close()
    process.exitCode = exitCode
  }
})

test('watch mode warns when a fixture loses its rubric file, as a run started that way does', { timeout: 180_000 }, async () => {
  const root = await makeProject({ 'fixtures/a': null, 'fixtures/b': null })
  const runs = new RunQueue()
  const exitCode = process.exitCode
  let stderr = ''
  const vitest = await startWatching(root, runs, {}, (text) => (stderr += text))
  try {
    await runs.until('to end', () => true)
    expect(stderr).not.toContain('so it is no fixture')
    await rm(join(root, 'fixtures/a/rubric.json'))
    await expect
      .poll(() => stderr, { timeout: RERUN, message: `no warning ${RERUN / 1000} s after the rubric's removal` })
      .toContain(
        'vitest-rubric: fixtures/a holds cases.json and annotations.json but neither rubric.json nor evaluation_rubric.json, so it is no fixture and none of its cases runs.',
      )
    // The other fixture is not named.
    expect(stderr).not.toContain('fixtures/b holds')
  } finally {
    await vitest.close()
    process.exitCode = exitCode
  }
})

test('watch mode reruns only the chunk of a split fixture whose case a review edit changed, and every chunk when its rubric changes', {
  timeout: 180_000,
}, async () => {
  const root = await makeProject({ 'fixtures/a': null })
  const runs = new RunQueue()
  const exitCode = process.exitCode
  const vitest = await startWatching(root, runs, { chunks: { size: 3 } })
  const chunk = (index: number) => `.vitest-rubric/chunks/fixtures/a/rubric.json.${index}-of-3`
  try {
    const first = await runs.until('to end', () => true)
    expect(first.modules.map((module) => module.id).sort()).toEqual([chunk(1), chunk(2), chunk(3)])
    expect(stateOf(first, chunk(2), 'missing-verification')).toBe('failed')
    await runs.quiet()

    const fixture = editableFixture(join(root, 'fixtures/a'))
    await fixture.editAnnotations((annotations) => {
      annotations.reviews[4]!.judgements['verification']!.rating = 'meets'
    })
    await fixture.acknowledgeReview('missing-verification')
    let rerun = await runs.until('that saw the revised review', (run) => stateOf(run, chunk(2), 'missing-verification') !== 'failed')
    expect(stateOf(rerun, chunk(2), 'missing-verification')).toBe('passed')
    expect(refusesAny(chunk(1), chunk(2), chunk(3))(rerun)).toBe(false)
    // The fixture was kept from the first run: only the case the edit touched was decided again, and only its chunk reran.
    expect(rerun.modules.map((module) => module.id)).toEqual([chunk(2)])

    // The marker file of a split fixture is no test module: a change to it reruns the chunks, each refusing its cases.
    // Nothing is refused before: a run of the three chunks with a refused case is one that read the new rubric.
    await appendFile(join(root, 'fixtures/a/rubric.json'), '\n')
    rerun = await runs.until('of the three chunks that read the new rubric', (run) => run.modules.length >= 3 && refusesAny(chunk(1), chunk(2), chunk(3))(run))
    expect(rerun.tests.filter((item) => item.meta !== undefined).map((item) => item.meta?.status)).toEqual(Array(8).fill('refused'))
  } finally {
    await vitest.close()
    process.exitCode = exitCode
  }
})

test('watch mode reruns the fixtures a compare gate compares when its against fixture changes', { timeout: 180_000 }, async () => {
  const root = await makeProject({
    'fixtures/answers-v1': { from: join(ROOT, 'examples/compare/answers-v1') },
    'fixtures/answers-v2': { from: join(ROOT, 'examples/compare/answers-v2') },
  })
  const runs = new RunQueue()
  const exitCode = process.exitCode
  // 30 points: the margin the bundled pair clears even with its pending held-unclear counted against B.
  const vitest = await startWatching(root, runs, { compare: { against: 'fixtures/answers-v1', margin: 0.3 } })
  const gate = 'answers-v2 is not worse than answers-v1 by more than 30 points on held-out cases'
  try {
    const first = await runs.until('to end', () => true)
    expect(stateOf(first, 'fixtures/answers-v2/rubric.json', gate)).toBe('passed')

    // A now accepts held-routine and held-approval too: B − A falls to +12.5 points, lower bound −30.3. Only A's files change.
    const a = editableFixture(join(root, 'fixtures/answers-v1'))
    await a.editAnnotations((annotations) => {
      for (const id of ['held-routine', 'held-approval'])
        annotations.reviews.find((review) => review.answer_id === id)!.judgements['verification']!.rating = 'meets'
    })
    await a.acknowledgeReview('held-routine')
    await a.acknowledgeReview('held-approval')
    const rerun = await runs.until('that compared B with the revised A', (run) => stateOf(run, 'fixtures/answers-v2/rubric.json', gate) === 'failed')
    expect(rerun.tests.find((item) => item.name === gate)?.errors[0]).toContain('the lower bound −30.3 is below −30.0')
  } finally {
    await vitest.close()
    process.exitCode = exitCode
  }
})

test('watch mode reruns the estimate gate when a sample is drawn, with no case changed', { timeout: 240_000 }, async () => {
  const root = await makeProject({})
  const outcomeOf = (index: number) => (index % 4 === 1 ? 'rejected' : 'accepted')
  await generateFixture(join(root, 'fixtures/lab'), 120, { fingerprint, outcomeOf, splitOf: (index) => (index < 20 ? undefined : 'held_out') })
  // A judge that fails verification where the review rejects the case, and errs on one case in ten.
  await writeFile(
    join(root, 'judge.mjs'),
    [
      'export default async function judge({ answer, criterion }) {',
      '  const index = Number(/^Answer (\\d+):/.exec(answer.text)[1])',
      "  if (criterion.id === 'verification' && (index % 4 === 1) !== (index % 10 === 3)) return { rating: 'does_not_meet', reason: 'No health check.', span: '' }",
      "  return { rating: 'meets', reason: 'Met.', span: 'check service health' }",
      '}',
      '',
    ].join('\n'),
  )
  expect((await runBuiltCli(root, 'judge', 'fixtures/lab', '--judge', 'ix', '--run', 'judge.mjs')).code).toBe(0)
  const runs = new RunQueue()
  const exitCode = process.exitCode
  const vitest = await startWatching(root, runs, { estimate: { judge: 'ix', min: 0.5 } })
  const gate = 'acceptance rate on held-out cases (PPI++ with judge ix) is at least 0.5'
  try {
    const first = await runs.until('to end', () => true)
    expect(stateOf(first, 'fixtures/lab/rubric.json', gate)).toBe('failed')

    expect((await runBuiltCli(root, 'sample', 'fixtures/lab', '--size', '80', '--seed', '1', '--by', 'split')).code).toBe(0)
    const rerun = await runs.until('with the sample drawn', (run) => stateOf(run, 'fixtures/lab/rubric.json', gate) === 'passed')
    expect(rerun.tests.filter((item) => item.module === 'fixtures/lab/rubric.json' && item.name.startsWith(gate))).toHaveLength(1)
  } finally {
    await vitest.close()
    process.exitCode = exitCode
  }
})
