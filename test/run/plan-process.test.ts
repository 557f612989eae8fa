import { existsSync } from 'node:fs'
import { readdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { RubricError } from '../../src/core/common/errors.js'
import { cachedPlan } from '../../src/run/plan-cache.js'
import { planFixture } from '../../src/run/plan-fixture.js'
import { startPlanning } from '../../src/run/plan-process.js'
import { copyFixture, ROOT } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

// A large fixture is planned in a process of its own, the built module (`npm test` builds first);
// these tests lower the size at which that happens, so that the bundled fixtures take that path.
const CHILD = join(ROOT, 'dist/run/plan-child.js')
const APART = { minBytes: 0, child: CHILD }

const plansIn = async (dir: string) => (await readdir(join(dir, 'vitest-rubric/plans')).catch(() => [])).filter((entry) => !entry.endsWith('.tests.json'))

beforeAll(() => {
  if (!existsSync(CHILD)) throw new Error(`${CHILD} is missing: run \`npm run build\` first`)
})

describe('a fixture planned in its own process', () => {
  test.each(['docuctl-rollback', 'debate-benchmark'])('%s: the plan is the one planned here, and is cached for the next run', async (name) => {
    const fixture = await copyFixture(join(ROOT, 'fixtures', name))
    const root = dirname(fixture.dir)
    const cache = await scratchDir('cache')
    const here = await planFixture(fixture.dir, root)
    const apart = await cachedPlan(fixture.dir, root, cache, {}, APART)
    expect('plan' in apart && apart.plan).toEqual('plan' in here && here.plan)
    expect(await plansIn(cache)).toHaveLength(1)
    // The next run finds it, planned apart or not.
    const again = await cachedPlan(fixture.dir, root, cache, {}, { child: null })
    expect('plan' in again && again.plan).toEqual('plan' in here && here.plan)
    expect('file' in again && again.file).toBe('file' in apart && apart.file)
  })

  test('a file changed since the cached plan: the plan is of the files as they are now, and the stale entry goes', async () => {
    const fixture = await copyFixture()
    const root = dirname(fixture.dir)
    const cache = await scratchDir('cache')
    await cachedPlan(fixture.dir, root, cache, {}, APART)
    const [before] = await plansIn(cache)
    await fixture.editAnnotations((annotations) => {
      annotations.reviews[0]!.judgements['command']!.reason += ' (edited)'
    })
    const apart = await cachedPlan(fixture.dir, root, cache, {}, APART)
    const here = await planFixture(fixture.dir, root)
    expect('plan' in apart && apart.plan).toEqual('plan' in here && here.plan)
    expect('plan' in apart && apart.plan.cases.some((planned) => planned.status === 'refused')).toBe(true)
    const after = await plansIn(cache)
    expect(after).toHaveLength(1)
    expect(after[0]).not.toBe(before)
  })

  test('a refused fixture gets the same error, and nothing is cached', async () => {
    const fixture = await copyFixture()
    await fixture.editCases((cases) => {
      cases.cases[1]!.id = 'complete'
    })
    const root = dirname(fixture.dir)
    const cache = await scratchDir('cache')
    const apart = await cachedPlan(fixture.dir, root, cache, {}, APART)
    const here = await planFixture(fixture.dir, root)
    expect('error' in apart && apart.error).toEqual('error' in here && here.error)
    expect('error' in apart && apart.error.code).toBe('DUPLICATE_CASE')
    expect(await plansIn(cache)).toEqual([])
  })

  test('a planning process that ends without a plan is an error naming the fixture, with what it printed', async () => {
    const child = await crashingChild()
    const planning = startPlanning(child, { dir: '/fixtures/large', root: '/', options: {} })
    await expect(planning.reply).rejects.toThrow(/the process planning \/fixtures\/large ended \(exit code 3\) without a plan\. .+\nout of memory, say/)
    await expect(planning.reply).rejects.toMatchObject({
      code: 'PLANNING_FAILED',
      file: '/fixtures/large',
      hint: expect.stringContaining('rubric({ cache: false })'),
    })
    await expect(planning.reply).rejects.toBeInstanceOf(RubricError)
    // Through the cache: nothing cached yet, so the plan is the process's, and its failure is the run's.
    const fixture = await copyFixture()
    await expect(cachedPlan(fixture.dir, dirname(fixture.dir), await scratchDir('cache'), {}, { minBytes: 0, child })).rejects.toThrow(/without a plan/)
  })

  test('a debugger flag in NODE_OPTIONS does not reach the planning process, which plans instead of waiting for a debugger', { timeout: 30_000 }, async () => {
    const fixture = await copyFixture()
    const root = dirname(fixture.dir)
    const before = process.env['NODE_OPTIONS']
    process.env['NODE_OPTIONS'] = '--inspect-brk=127.0.0.1:0 --max-old-space-size=512'
    try {
      const planning = startPlanning(CHILD, { dir: fixture.dir, root, options: {} }, { timeoutMs: 15_000 })
      const reply = await planning.reply
      expect('plan' in reply && (JSON.parse(reply.plan) as { name: string }).name).toBe('docuctl-rollback-contrasts')
    } finally {
      if (before === undefined) delete process.env['NODE_OPTIONS']
      else process.env['NODE_OPTIONS'] = before
    }
  })

  test('a planning process that gives no plan in time is stopped, with an error naming the fixture', async () => {
    const child = join(await scratchDir('stuck'), 'stuck.mjs')
    await writeFile(child, "process.stderr.write('waiting for something\\n'); setInterval(() => {}, 1000)\n")
    const planning = startPlanning(child, { dir: '/fixtures/large', root: '/', options: {} }, { timeoutMs: 500 })
    await expect(planning.reply).rejects.toMatchObject({ code: 'PLANNING_TIMED_OUT', file: '/fixtures/large' })
    await expect(planning.reply).rejects.toThrowErrorMatchingInlineSnapshot(`
      [PlanningError: vitest-rubric: the process planning /fixtures/large was silent for 0.5 s (no plan, and no sign that it was still working), so it was stopped. Look for what it waits on (a flag in NODE_OPTIONS, a file on a stalled network drive), or plan the fixture in Vitest's own process with rubric({ cache: false }).
      waiting for something]
    `)
  })

  test('a planning process that takes longer than the timeout but says it is working is waited for', async () => {
    // It sends a heartbeat every 100 ms and answers after 1.5 s, three times the 0.5 s of silence allowed.
    const child = join(await scratchDir('slow'), 'slow.mjs')
    await writeFile(
      child,
      [
        'const beat = setInterval(() => process.send({ alive: true }), 100)',
        "setTimeout(() => { clearInterval(beat); process.send({ error: { code: 'DUPLICATE_CASE', file: 'cases.json', summary: 'late', hint: 'none' } }, () => process.disconnect()) }, 1500)",
        '',
      ].join('\n'),
    )
    const planning = startPlanning(child, { dir: '/fixtures/large', root: '/', options: {} }, { timeoutMs: 500 })
    await expect(planning.reply).resolves.toMatchObject({ error: { code: 'DUPLICATE_CASE', summary: 'late' } })
  })

  test('a plan already cached is served without waiting for the planning process', async () => {
    const fixture = await copyFixture()
    const root = dirname(fixture.dir)
    const cache = await scratchDir('cache')
    const first = await cachedPlan(fixture.dir, root, cache, {}, { child: null })
    // The process would fail; the cached plan is found first, and the process stopped.
    const again = await cachedPlan(fixture.dir, root, cache, {}, { minBytes: 0, child: await crashingChild() })
    expect('plan' in again && again.plan).toEqual('plan' in first && first.plan)
  })
})

/** A planning process that fails: it prints a line and exits without answering. */
async function crashingChild(): Promise<string> {
  const child = join(await scratchDir('crash'), 'crash.mjs')
  await writeFile(child, "process.stderr.write('out of memory, say\\n'); process.exit(3)\n")
  return child
}
