import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sha256Hex } from '../core/canonical-json.js'
import { FIXTURE_KINDS, fixtureKindsIn } from '../core/fixture.js'
import type { TestPlan } from '../core/plan.js'
import { planFixture, type PlanResult } from './plan-fixture.js'

// Bump when the shape of a cached plan changes.
const CACHE_FORMAT = 1

/**
 * Plans a fixture, reusing the plan of an earlier run when nothing it depends on has changed.
 *
 * The key is the SHA-256 of every fixture file's bytes, the directory as shown, and the text of
 * the code that decides (every file of `core/`): a cached decision can never outlive a change to
 * a fixture file or to the rules, which is the one thing this package must not get wrong.
 * Modification times are not trusted for this. Fixture-level defects are never cached.
 */
export async function cachedPlan(dir: string, root: string, cacheDir: string): Promise<PlanResult> {
  const key = await planKey(dir, root)
  if (key === undefined) return planFixture(dir, root)
  const folder = join(cacheDir, 'vitest-rubric', 'plans')
  const prefix = sha256Hex(relative(root, dir)).slice(0, 16)
  const path = join(folder, `${prefix}-${key}.json`)
  try {
    return { plan: JSON.parse(await readFile(path, 'utf8')) as TestPlan, file: path }
  } catch {
    // not cached yet, or unreadable: decide afresh
  }
  const result = await planFixture(dir, root)
  if (!('plan' in result)) return result
  return (await store(folder, prefix, path, JSON.stringify(result.plan))) ? { plan: result.plan, file: path } : result
}

async function planKey(dir: string, root: string): Promise<string | undefined> {
  const kinds = await fixtureKindsIn(dir)
  const kind = kinds[0]
  if (kind === undefined || kinds.length > 1) return undefined // refused when loaded, and a refusal is never cached
  const files: readonly string[] = FIXTURE_KINDS[kind].files
  try {
    const hashes = await Promise.all(files.map(async (file) => sha256Hex(await readFile(join(dir, file)))))
    return sha256Hex(JSON.stringify([CACHE_FORMAT, await codeFingerprint(), kind, relative(root, dir), files, hashes]))
  } catch {
    return undefined // a missing file: the fixture is refused, which is never cached
  }
}

async function store(folder: string, prefix: string, path: string, text: string): Promise<boolean> {
  try {
    await mkdir(folder, { recursive: true })
    const temporary = `${path}.${process.pid}.tmp`
    await writeFile(temporary, text)
    await rename(temporary, path)
    const stale = (await readdir(folder)).filter((entry) => entry.startsWith(`${prefix}-`) && join(folder, entry) !== path)
    await Promise.all(stale.map((entry) => rm(join(folder, entry), { force: true })))
    return true
  } catch {
    return false // a cache that cannot be written costs time, never correctness
  }
}

let code: Promise<string> | undefined

/** A hash of the deciding code: every file below `core/`, built or in source. */
function codeFingerprint(): Promise<string> {
  code ??= (async () => {
    const core = join(dirname(fileURLToPath(import.meta.url)), '..', 'core')
    const entries = (await readdir(core, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort()
    const hash = createHash('sha256')
    for (const file of entries) hash.update(relative(core, file)).update('\0').update(await readFile(file)).update('\0')
    return hash.digest('hex')
  })()
  return code
}
