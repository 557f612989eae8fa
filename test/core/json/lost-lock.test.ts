import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { heldFixtureLock, LOCK_NAME, withFixtureLock } from '../../../src/core/json/fixture-lock.js'

// A writer that lost its lock (paused past the stale time, taken over) says who took it over: the
// writer that holds it now, or, once that writer has finished and let the lock go, that it has.

async function lostLock(takeOver: (lockPath: string) => Promise<void>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vitest-rubric-lost-lock-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  const refused = withFixtureLock(
    dir,
    async () => {
      await takeOver(join(dir, LOCK_NAME))
      await heldFixtureLock(dir)!.check('before committing its save')
    },
    '.',
  )
  // Cast: a refusal of the package is an Error with its code.
  const error = (await refused.then(
    () => expect.unreachable('the lost lock was not noticed'),
    (caught: unknown) => caught,
  )) as Error & { code: string }
  expect(error.code).toBe('LOCK_LOST')
  return error.message.split('\n')[0]!
}

test('a lock taken over by a writer that has since finished and let it go: the message says so, and names no unknown writer', async () => {
  const said = await lostLock((lockPath) => rm(lockPath, { recursive: true }))
  expect(said).toBe(
    `${LOCK_NAME}: this command lost the fixture's lock before committing its save: it was paused for more than 30 s and another writer took the lock over (it has since finished). This command wrote nothing after that, so the other writer's save is kept.`,
  )
})

test('a lock another writer holds now: the message names it', async () => {
  const said = await lostLock(async (lockPath) => {
    const owner = { pid: 4242, host: 'elsewhere', started: null, token: 'another', since: Date.now(), command: 'review . --case x' }
    await writeFile(join(lockPath, 'owner.json'), JSON.stringify(owner))
  })
  expect(said).toContain('and process 4242 on elsewhere (review . --case x) took the lock over.')
})
