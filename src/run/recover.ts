import { recoverInFixture } from '../core/engine/fixture.js'
import { lockNoticeText, setLockNoticeListener } from '../core/json/fixture-lock.js'

let told = false

/**
 * Finishes or discards a save that a killed or fenced writer left in a fixture, before a run reads
 * its files (for the plan cache's key, or to plan it), and says which on stderr, as the CLI does:
 * a run decides the fixture exactly as before that save or exactly as after it, as `evaluate` does.
 */
export async function recoverForRun(dir: string, root: string): Promise<void> {
  if (!told) {
    told = true
    // A listener set before (a program that runs Vitest and set its own) is kept.
    const before = setLockNoticeListener(undefined)
    setLockNoticeListener(before ?? ((notice) => process.stderr.write(`${lockNoticeText(notice)}\n`)))
  }
  await recoverInFixture(dir, root)
}
