import { readFile as realReadFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterEach, expect, test, vi } from 'vitest'
import { cachedPlan, planCacheEnvironment } from '../../src/run/plan-cache.js'
import { copyFixture } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

// Every read of a fixture file goes through this hook, so a test can save a file between two reads, as an editor may.
const hook = vi.hoisted(() => ({ afterRead: undefined as ((path: string) => Promise<void>) | undefined }))
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>()
  const readFile = (async (...args: Parameters<typeof fs.readFile>) => {
    const result = await fs.readFile(...args)
    if (typeof args[0] === 'string') await hook.afterRead?.(args[0])
    return result
  }) as typeof fs.readFile
  // A fixture file is opened without blocking (so that a named pipe is refused, not waited on), then read through its handle.
  const open = (async (...args: Parameters<typeof fs.open>) => {
    const handle = await fs.open(...args)
    const [path, flags] = args
    if (typeof path === 'string' && typeof flags === 'number' && (flags & fs.constants.O_NONBLOCK) !== 0) {
      const read = handle.readFile.bind(handle)
      handle.readFile = (async (...options: Parameters<typeof handle.readFile>) => {
        const result = await read(...options)
        await hook.afterRead?.(path)
        return result
      }) as typeof handle.readFile
    }
    return handle
  }) as typeof fs.open
  return { ...fs, default: { ...fs, readFile, open }, readFile, open }
})

afterEach(() => {
  hook.afterRead = undefined
})

const statuses = (result: Awaited<ReturnType<typeof cachedPlan>>) => ('plan' in result ? result.plan.cases.map((planned) => planned.status) : result.error.code)

test('a file saved while the plan is made: the plan is of the bytes that were hashed, so reverting the file never serves another revision', async () => {
  const fixture = await copyFixture()
  const cache = await scratchDir('cache')
  const root = dirname(fixture.dir)
  const sourcePath = join(fixture.dir, 'source.txt')
  const original = await realReadFile(sourcePath)
  const edited = Buffer.concat([original, Buffer.from('A sentence saved mid-run.\n')])

  // The first read of source.txt sees the original; the editor saves right after it.
  hook.afterRead = async (path) => {
    if (path !== sourcePath) return
    hook.afterRead = undefined
    await writeFile(sourcePath, edited)
  }
  const during = await cachedPlan(fixture.dir, root, cache)
  // Decided from the original bytes: nothing is refused for a source that changed.
  expect(statuses(during)).not.toContain('refused')

  // The saved file is another revision: every reviewed case is refused.
  const after = await cachedPlan(fixture.dir, root, cache)
  expect(statuses(after)).toContain('refused')

  // Reverted: the plan served is the original's, decided afresh or from the cache alike.
  await writeFile(sourcePath, original)
  const reverted = await cachedPlan(fixture.dir, root, cache)
  expect(statuses(reverted)).toEqual(statuses(during))
})

test("the cache key covers what words and normalizes a plan beside the code: the zod version and Node's ICU and Unicode versions", async () => {
  const zod = JSON.parse(await realReadFile(join(import.meta.dirname, '../../node_modules/zod/package.json'), 'utf8')) as { version: string }
  expect(planCacheEnvironment()).toEqual([`zod@${zod.version}`, `icu@${process.versions.icu}`, `unicode@${process.versions.unicode}`])
})
