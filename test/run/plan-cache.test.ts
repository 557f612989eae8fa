import { appendFile, readdir, readFile, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { expect, test } from 'vitest'
import { cachedPlan } from '../../src/run/plan-cache.js'
import { planFixture } from '../../src/run/plan-fixture.js'
import { copyFixture } from '../helpers/fixture-copy.js'
import { runCli } from '../helpers/cli.js'
import { scratchDir } from '../helpers/scratch.js'

function cacheDir() {
  return scratchDir('cache')
}

const entriesIn = async (dir: string) => readdir(join(dir, 'vitest-rubric/plans')).catch(() => [])
const plansIn = async (dir: string) => (await entriesIn(dir)).filter((entry) => !entry.endsWith('.tests.json'))

test('a cached plan is the plan, and is reused while nothing changed', async () => {
  const fixture = await copyFixture()
  const cache = await cacheDir()
  const root = dirname(fixture.dir)
  const fresh = await planFixture(fixture.dir, root)
  const first = await cachedPlan(fixture.dir, root, cache)
  expect('plan' in first && first.plan).toEqual('plan' in fresh && fresh.plan)
  expect(await plansIn(cache)).toHaveLength(1)
  const second = await cachedPlan(fixture.dir, root, cache)
  expect('plan' in second && second.plan).toEqual('plan' in fresh && fresh.plan)
  expect('file' in second && second.file).toBe('file' in first && first.file)
  expect(await plansIn(cache)).toHaveLength(1)
})

test('any change to a fixture file gives a new plan, never the cached one', async () => {
  const fixture = await copyFixture()
  const cache = await cacheDir()
  const root = dirname(fixture.dir)
  const before = await cachedPlan(fixture.dir, root, cache)
  await appendFile(join(fixture.dir, 'source.txt'), ' ')
  const after = await cachedPlan(fixture.dir, root, cache)
  expect('plan' in before && before.plan.cases.every((planned) => planned.status !== 'refused')).toBe(true)
  expect('plan' in after && after.plan.cases.every((planned) => planned.status === 'refused')).toBe(true)
  expect(await plansIn(cache)).toHaveLength(1) // the stale entry is removed
})

test('a refused fixture is never cached', async () => {
  const fixture = await copyFixture()
  const cache = await cacheDir()
  await fixture.editCases((cases) => {
    cases.cases[1]!.id = 'complete'
  })
  const result = await cachedPlan(fixture.dir, dirname(fixture.dir), cache)
  expect('error' in result && result.error.code).toBe('DUPLICATE_CASE')
  expect(await plansIn(cache)).toEqual([])
})

test("beside each plan the cache keeps its module's tests: the plan less each case's figures, named for the worker", async () => {
  const fixture = await copyFixture()
  const cache = await cacheDir()
  const root = dirname(fixture.dir)
  const first = await cachedPlan(fixture.dir, root, cache)
  if (!('plan' in first) || first.file === undefined) throw new Error('expected a cached plan and its payload')
  const { plan } = first
  const tests = JSON.parse(await readFile(first.file, 'utf8')) as typeof plan
  expect(tests.cases.map((planned) => Object.hasOwn(planned, 'detail'))).toEqual(plan.cases.map(() => false))
  expect(tests).toEqual({ ...plan, cases: plan.cases.map(({ detail: _, ...test }) => test) })
  expect(plan.cases.some((planned) => Object.keys(planned.detail).length > 0)).toBe(true)
  expect(await entriesIn(cache)).toHaveLength(2)
  // A payload removed by hand is written again from the cached plan; the stale entries of an edit are removed with it.
  await rm(first.file)
  const again = await cachedPlan(fixture.dir, root, cache)
  expect('file' in again && (await readFile(again.file!, 'utf8'))).toBe(JSON.stringify(tests))
  await appendFile(join(fixture.dir, 'source.txt'), ' ')
  const edited = await cachedPlan(fixture.dir, root, cache)
  expect(await entriesIn(cache)).toHaveLength(2)
  expect('file' in edited && edited.file).not.toBe(first.file)
})

test('a fixture in the records layout is cached by its record files: reused while they are unchanged, planned again after a save', async () => {
  const fixture = await copyFixture()
  const root = dirname(fixture.dir)
  const name = fixture.dir.slice(root.length + 1)
  expect((await runCli(['convert', name, '--to', 'records'], root)).code).toBe(0)
  const cache = await cacheDir()
  const fresh = await planFixture(fixture.dir, root)
  const first = await cachedPlan(fixture.dir, root, cache)
  expect('plan' in first && first.plan).toEqual('plan' in fresh && fresh.plan)
  expect(await plansIn(cache)).toHaveLength(1)
  const second = await cachedPlan(fixture.dir, root, cache)
  expect('file' in second && second.file).toBe('file' in first && first.file)
  const ratings = ['command', 'preconditions', 'database_scope', 'verification', 'support'].flatMap((id) => [
    '--rating',
    `${id}=uncertain`,
    '--reason',
    `${id}=Unsure.`,
  ])
  const pendingBefore = 'plan' in first ? first.plan.cases.filter((planned) => planned.status === 'pending').length : -1
  const reviewed = await runCli(['review', name, '--case', 'complete', '--replace', ...ratings], root)
  expect(reviewed.code, reviewed.stderr).toBe(0)
  const after = await cachedPlan(fixture.dir, root, cache)
  expect('file' in after && after.file).not.toBe('file' in first && first.file)
  expect('plan' in after && after.plan.cases.filter((planned) => planned.status === 'pending').length).toBe(pendingBefore + 1)
  expect(await plansIn(cache)).toHaveLength(1)
})
