import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import { DOCUCTL, editableFixture, ROOT, type FixtureCopy } from './fixture-copy.js'

/** How long a temporary directory lives: until the test ends, or until every test of the file has run (a shared run). */
export type Lifetime = 'test' | 'file'

const fileScratch: string[] = []

/**
 * An empty temporary directory, removed when the test ends; with lifetime `file`, kept for the
 * other tests of the file until {@link removeFileScratch} (which such a file calls in `afterAll`).
 */
export async function scratchDir(name: string, lifetime: Lifetime = 'test'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `vitest-rubric-${name}-`))
  if (lifetime === 'test') onTestFinished(() => rm(dir, { recursive: true, force: true }))
  else fileScratch.push(dir)
  return dir
}

/** Removes the directories made with lifetime `file`. */
export async function removeFileScratch(): Promise<void> {
  await Promise.all(fileScratch.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
}

/** An edit of one fixture of a project. */
export type FixtureEdit = (fixture: FixtureCopy) => Promise<void>

/**
 * A throwaway project root holding copies of fixtures at the given paths (relative to the root):
 * each the bundled docuctl fixture, or the fixture directory named by `from`, optionally edited.
 * Decision records are left out: a scenario that wants one writes it. Scenarios are derived from
 * the bundled fixtures rather than stored, so that their revision hashes cannot go stale.
 */
export async function makeProject(
  fixtures: Readonly<Record<string, FixtureEdit | null | { readonly from: string; readonly edit?: FixtureEdit }>>,
  lifetime: Lifetime = 'test',
): Promise<string> {
  const root = await scratchDir('project', lifetime)
  for (const [path, spec] of Object.entries(fixtures)) {
    const dir = join(root, path)
    const { from, edit } = spec === null || typeof spec === 'function' ? { from: DOCUCTL, edit: spec ?? undefined } : spec
    await cp(from, dir, { recursive: true, filter: (source) => !source.endsWith('decisions.record.json') })
    await edit?.(editableFixture(dir))
  }
  return root
}

/** A project holding copies of the bundled fixtures under `fixtures/`, each unedited. */
export function bundledProject(names: readonly string[] = ['debate-benchmark', 'docuctl-rollback'], lifetime: Lifetime = 'test'): Promise<string> {
  return makeProject(Object.fromEntries(names.map((name) => [`fixtures/${name}`, { from: join(ROOT, 'fixtures', name) }])), lifetime)
}
