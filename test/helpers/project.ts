import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import { DOCUCTL, editableFixture, type FixtureCopy } from './fixture-copy.js'

export type FixtureEdit = (fixture: FixtureCopy) => Promise<void>

/**
 * A throwaway project root holding copies of the bundled docuctl fixture at the given paths, each
 * optionally edited. Scenarios are derived from the bundled fixture rather than stored, so that
 * their revision hashes cannot go stale.
 */
export async function makeProject(fixtures: Record<string, FixtureEdit | null>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'vitest-rubric-project-'))
  onTestFinished(() => rm(root, { recursive: true, force: true }))
  for (const [path, edit] of Object.entries(fixtures)) {
    const dir = join(root, path)
    // Without the bundled decision record: a scenario that wants one writes it.
    await cp(DOCUCTL, dir, { recursive: true, filter: (source) => !source.endsWith('decisions.record.json') })
    await edit?.(editableFixture(dir))
  }
  return root
}
