import { AsyncLocalStorage } from 'node:async_hooks'
import { join, resolve } from 'node:path'
import lockfile from 'proper-lockfile'
import { RevisionError } from '../common/errors.js'
import { errnoCode } from '../common/primitives.js'

/**
 * The lock of a fixture directory: a directory of this name inside it, made with `mkdir` (atomic on
 * every local file system) by the process that writes the fixture, and removed when it is done.
 */
export const LOCK_NAME = '.rubric.lock'

/**
 * A lock whose holder has not refreshed it for this long is taken to belong to a dead process and
 * is taken over. The holder refreshes it every few seconds; a holder that is busy longer than this
 * in one synchronous step (deciding a very large fixture) could lose it, so it is generous.
 */
export const STALE_LOCK_MS = 30_000

/** How long a writer waits for the lock before it gives up: longer than a dead holder's lock lasts. */
const WAIT_MS = 45_000

/** The directories the current asynchronous context holds the lock of: taking one again is free. */
const held = new AsyncLocalStorage<ReadonlySet<string>>()

/** Writers of this process waiting for a directory, in arrival order: the lock file is taken once per turn. */
const queues = new Map<string, Promise<void>>()

/**
 * Runs `work` holding the lock of the fixture directory `dir`, across processes (the page server, a
 * `review` in a terminal, CI) and within this one (two requests at once). While one writer holds it,
 * the others wait their turn. Taking the lock again inside `work` (a command that writes through a
 * lower-level writer) does not wait for itself.
 *
 * A holder that died leaves the lock directory behind: once it has not been refreshed for
 * {@link STALE_LOCK_MS}, the next writer takes it over. Removing `.rubric.lock` by hand, when no
 * vitest-rubric process runs, has the same effect at once.
 */
export async function withFixtureLock<T>(dir: string, work: () => Promise<T>, display: string = dir): Promise<T> {
  const key = resolve(dir)
  const mine = held.getStore()
  if (mine?.has(key)) return work()

  const before = queues.get(key) ?? Promise.resolve()
  let done!: () => void
  const turn = new Promise<void>((resolveTurn) => (done = resolveTurn))
  const queue = before.then(() => turn)
  queues.set(key, queue)
  try {
    await before
    const release = await acquire(key, display)
    try {
      return await held.run(new Set([...(mine ?? []), key]), work)
    } finally {
      await release()
    }
  } finally {
    done()
    if (queues.get(key) === queue) queues.delete(key)
  }
}

/** Whether the current asynchronous context holds the lock of `dir`. */
export function holdsFixtureLock(dir: string): boolean {
  return held.getStore()?.has(resolve(dir)) ?? false
}

async function acquire(dir: string, display: string): Promise<() => Promise<void>> {
  const started = Date.now()
  for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
    try {
      const release = await lockfile.lock(dir, {
        lockfilePath: join(dir, LOCK_NAME),
        realpath: false,
        stale: STALE_LOCK_MS,
        update: 5_000,
        retries: 0,
        // A lost lock (its directory removed or taken over while held) is noticed when it is released.
        onCompromised: () => undefined,
      })
      return () => release().catch(() => undefined)
    } catch (cause) {
      const code = errnoCode(cause)
      if (code !== 'ELOCKED') {
        throw new RevisionError({
          code: 'WRITE_FAILED',
          file: join(display, LOCK_NAME),
          summary: `the fixture's lock cannot be taken (${code ?? String(cause)}); nothing was changed.`,
          hint: 'check that the fixture directory exists and is writable.',
        })
      }
      if (Date.now() - started > WAIT_MS) {
        throw new RevisionError({
          code: 'FIXTURE_LOCKED',
          file: join(display, LOCK_NAME),
          summary: `another process has been writing the fixture for more than ${WAIT_MS / 1000} s; nothing was changed.`,
          hint: `run the command again. If no vitest-rubric process is running, the lock is left from one that was killed: it is taken over ${STALE_LOCK_MS / 1000} s after its last refresh, or remove ${LOCK_NAME} by hand.`,
        })
      }
      await new Promise((resolveWait) => setTimeout(resolveWait, wait * (0.5 + Math.random())))
    }
  }
}
