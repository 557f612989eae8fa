import { appendFile, cp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import type { Reporter, TestModule } from 'vitest/node'
import { startVitest } from 'vitest/node'
import { bindFixture } from '../../src/core/engine/bind.js'
import { rubric, type RubricPluginOptions } from '../../src/plugin/index.js'
import { editableFixture } from '../helpers/fixture-copy.js'
import { makeProject } from '../helpers/scratch.js'
import { sink, summarize, type VitestRun } from '../helpers/run-vitest.js'

/** Hands out each watch run's result as it ends. */
class RunQueue implements Reporter {
  private readonly waiting: ((run: VitestRun) => void)[] = []
  private readonly done: VitestRun[] = []

  onTestRunEnd(modules: readonly TestModule[]) {
    const run = summarize(modules, '', '', 0)
    const next = this.waiting.shift()
    if (next === undefined) this.done.push(run)
    else next(run)
  }

  next(): Promise<VitestRun> {
    const ready = this.done.shift()
    if (ready !== undefined) return Promise.resolve(ready)
    return new Promise((resolve, reject) => {
      // Generous: a loaded CI machine runs the rest of the suite beside this watch run.
      const timer = setTimeout(() => reject(new Error('no rerun within 45 s')), 45_000)
      this.waiting.push((run) => {
        clearTimeout(timer)
        resolve(run)
      })
    })
  }
}

const stateOf = (run: VitestRun, module: string, name: string) =>
  run.tests.find((item) => item.module === module && item.name.startsWith(name))?.state

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
    const first = await runs.next()
    expect(stateOf(first, 'fixtures/a/rubric.json', 'missing-verification')).toBe('failed')

    // A review revised and acknowledged: the module is decided again from the new files.
    const fixture = editableFixture(join(root, 'fixtures/a'))
    await fixture.editAnnotations((annotations) => {
      annotations.reviews[4]!.judgements['verification']!.rating = 'meets'
    })
    await fixture.acknowledgeReview('missing-verification')
    let rerun = await runs.next()
    // Two edits may give two reruns: wait for the one that saw both.
    while (stateOf(rerun, 'fixtures/a/rubric.json', 'missing-verification') === 'failed') rerun = await runs.next()
    expect(stateOf(rerun, 'fixtures/a/rubric.json', 'missing-verification')).toBe('passed')

    // source.txt is watched too: editing it refuses every case bound to the old source.
    await appendFile(join(root, 'fixtures/a/source.txt'), 'A new sentence.\n')
    rerun = await runs.next()
    expect(stateOf(rerun, 'fixtures/a/rubric.json', 'complete')).toBe('failed')
    expect(rerun.tests.find((item) => item.name === 'complete')?.meta?.status).toBe('refused')

    // bind renames new files over cases.json and annotations.json: the rerun sees the revision.
    await bindFixture(join(root, 'fixtures/a'), { cases: 'all', dryRun: false, cwd: root })
    rerun = await runs.next()
    while (stateOf(rerun, 'fixtures/a/rubric.json', 'complete') !== 'passed') rerun = await runs.next()
    expect(rerun.tests.find((item) => item.name === 'complete')?.meta?.status).toBe('accepted')

    // A fixture directory copied in is picked up.
    await cp(join(root, 'fixtures/a'), join(root, 'fixtures/b'), { recursive: true })
    let added = await runs.next()
    while (!added.modules.some((module) => module.id === 'fixtures/b/rubric.json')) added = await runs.next()
    expect(added.tests.filter((item) => item.module === 'fixtures/b/rubric.json')).toHaveLength(8)

    // A removed one disappears.
    await rm(join(root, 'fixtures/b'), { recursive: true })
    await expect.poll(() => vitest.state.getFilepaths().some((file) => file.includes('fixtures/b/')), { timeout: 20_000 }).toBe(false)
  } finally {
    await vitest.close()
    process.exitCode = exitCode
  }
})

test('watch mode warns when a fixture loses its rubric file, as a run started that way does', { timeout: 60_000 }, async () => {
  const root = await makeProject({ 'fixtures/a': null, 'fixtures/b': null })
  const runs = new RunQueue()
  const exitCode = process.exitCode
  let stderr = ''
  const vitest = await startWatching(root, runs, {}, (text) => (stderr += text))
  try {
    await runs.next()
    expect(stderr).not.toContain('so it is no fixture')
    await rm(join(root, 'fixtures/a/rubric.json'))
    await expect.poll(() => stderr, { timeout: 20_000 }).toContain(
      'vitest-rubric: fixtures/a holds cases.json and annotations.json but neither rubric.json nor evaluation_rubric.json, so it is no fixture and none of its cases runs.',
    )
    // The other fixture is not named.
    expect(stderr).not.toContain('fixtures/b holds')
  } finally {
    await vitest.close()
    process.exitCode = exitCode
  }
})

test('watch mode reruns every chunk of a split fixture with fresh data when any of its files changes, its rubric included', { timeout: 180_000 }, async () => {
  const root = await makeProject({ 'fixtures/a': null })
  const runs = new RunQueue()
  const exitCode = process.exitCode
  const vitest = await startWatching(root, runs, { chunks: { size: 3 } })
  const chunk = (index: number) => `.vitest-rubric/chunks/fixtures/a/rubric.json.${index}-of-3`
  try {
    const first = await runs.next()
    expect(first.modules.map((module) => module.id).sort()).toEqual([chunk(1), chunk(2), chunk(3)])
    expect(stateOf(first, chunk(2), 'missing-verification')).toBe('failed')

    const fixture = editableFixture(join(root, 'fixtures/a'))
    await fixture.editAnnotations((annotations) => {
      annotations.reviews[4]!.judgements['verification']!.rating = 'meets'
    })
    await fixture.acknowledgeReview('missing-verification')
    let rerun = await runs.next()
    while (stateOf(rerun, chunk(2), 'missing-verification') === 'failed') rerun = await runs.next()
    expect(stateOf(rerun, chunk(2), 'missing-verification')).toBe('passed')

    // The marker file of a split fixture is no test module: a change to it reruns the chunks, each refusing its cases.
    await appendFile(join(root, 'fixtures/a/rubric.json'), '\n')
    rerun = await runs.next()
    while (rerun.modules.length < 3) rerun = await runs.next()
    expect(rerun.tests.filter((item) => item.meta !== undefined).map((item) => item.meta?.status)).toEqual(Array(8).fill('refused'))
  } finally {
    await vitest.close()
    process.exitCode = exitCode
  }
})
