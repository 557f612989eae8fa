import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import { lstat, mkdir, readdir, readFile, rename, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { FixtureError, RevisionError } from '../common/errors.js'
import { errnoCode, isObject } from '../common/primitives.js'
import { crashPoint } from './crash-points.js'
import type { LockNotice } from './lock-notice.js'
import { describeOwner, type Holder, newOwner, OWNER_FILE, processRuns, readHolder, readOwner, seconds, STALE_LOCK_MS, verdictOn } from './lock-owner.js'

export { describeOwner, type LockOwner, STALE_LOCK_MS } from './lock-owner.js'
export { type LockNotice, lockNoticeText } from './lock-notice.js'

/**
 * The lock of a fixture directory: a directory of this name inside it, holding `owner.json` (who
 * holds it) and the files its holder stages before it writes them into the fixture. It appears
 * whole, with its owner inside, by one `rename` of a directory made beside it, so there is never a
 * lock without an owner.
 */
export const LOCK_NAME = '.rubric.lock'

/** How often a holder refreshes the time of its `owner.json`. */
const REFRESH_MS = 5_000

/** How long a writer waits for a live holder before it gives up. */
const WAIT_MS = 45_000

/** After this long waiting, a writer says who it waits for. */
const TELL_AFTER_MS = 1_000

let noticeListener: ((notice: LockNotice) => void) | undefined

/** Where the notices of every lock taken in this process go (the CLI prints them); returns the listener before. */
export function setLockNoticeListener(listener: ((notice: LockNotice) => void) | undefined): ((notice: LockNotice) => void) | undefined {
  const before = noticeListener
  noticeListener = listener
  return before
}

/** A lock this process holds. */
export interface HeldLock {
  /** The fixture directory (absolute). */
  readonly dir: string
  /** Its lock directory (absolute). */
  readonly path: string
  readonly token: string
  /** A new path inside the lock directory for a file to stage: after a takeover it no longer exists there. */
  readonly stage: (suffix: string) => string
  /** The path of this holder's journal inside the lock directory. */
  readonly journal: string
  /** Refuses (`LOCK_LOST`) when the lock is no longer this holder's. */
  readonly check: (during: string) => Promise<void>
}

/** The locks the current asynchronous context holds: taking one again is free. */
const held = new AsyncLocalStorage<ReadonlyMap<string, HeldLock>>()

/** Writers of this process waiting for a directory, in arrival order: the lock is taken once per turn. */
const queues = new Map<string, Promise<void>>()

/** Directories whose lock a context of this process holds, from its taking to the end of its release. */
const holding = new Set<string>()

/**
 * Runs `work` holding the lock of the fixture directory `dir`, across processes (the page server, a
 * `review` in a terminal, CI) and within this one (two requests at once). While one writer holds it,
 * the others wait their turn. Taking the lock again inside `work` (a command that writes through a
 * lower-level writer) does not wait for itself.
 *
 * Taking the lock first finishes or discards what a writer that lost its lock left in the fixture
 * (see {@link recoverLeftovers}).
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
    const lock = await acquire(key, display)
    holding.add(key)
    try {
      return await held.run(new Map([...(mine ?? []), [key, lock.held]]), work)
    } finally {
      await lock.release().finally(() => holding.delete(key))
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

/** The lock of `dir` that the current asynchronous context holds, if it does. */
export function heldFixtureLock(dir: string): HeldLock | undefined {
  return held.getStore()?.get(resolve(dir))
}

/**
 * Finishes or discards what writers that lost their lock left in `dir`, when there is anything: a
 * command that only reads calls this first, so that it never reads a half-written save and no
 * temporary file outlives the next command. A lock held by a live writer, this process included,
 * is left alone (nothing waits for it). One `readdir` of the fixture directory when there is nothing to do.
 * `display` is the directory as the notice of what was done names it.
 */
export async function recoverFixture(dir: string, display: string = dir): Promise<void> {
  const key = resolve(dir)
  // A context of this process holds the lock, or releases it (the review server reads while it
  // saves): the lock-named folders are its own, and it recovered what others left when it took it.
  if (holdsFixtureLock(key) || holding.has(key)) return
  let names: string[]
  try {
    names = await readdir(key)
  } catch {
    return
  }
  // The folder of a lock this process is taking is not a leftover: its process runs.
  const taking = `.${process.pid}.new`
  if (!names.some((name) => name === LOCK_NAME || (name.startsWith(`${LOCK_NAME}-`) && !name.endsWith(taking)))) return
  if (names.includes(LOCK_NAME)) {
    const holder = await readHolder(join(key, LOCK_NAME))
    if (holder !== undefined && verdictOn(holder) === 'alive') return
  }
  await withFixtureLock(key, async () => undefined, display)
}

interface Acquired {
  readonly held: HeldLock
  readonly release: () => Promise<void>
}

async function acquire(key: string, display: string): Promise<Acquired> {
  const lockPath = join(key, LOCK_NAME)
  const owner = newOwner()
  // The process id in the name: a writer killed before its owner file is whole is still known by it.
  const staging = join(key, `${LOCK_NAME}-${owner.token}.${process.pid}.new`)
  try {
    await mkdir(staging)
    await writeFile(join(staging, OWNER_FILE), `${JSON.stringify(owner)}\n`)
  } catch (cause) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined)
    // The fixture's own folder missing: said as a read of it says it, not as a lock that failed.
    if (errnoCode(cause) === 'ENOENT' && (await stat(key).catch(() => undefined)) === undefined) {
      throw new FixtureError({
        code: 'FIXTURE_NOT_FOUND',
        file: display,
        summary: 'no such fixture directory; nothing was changed.',
        hint: 'pass the path of a directory that holds a fixture (for example fixtures/docuctl-rollback).',
      })
    }
    throw cannotLock(display, cause)
  }

  const started = Date.now()
  let told = false
  for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
    try {
      // A directory renamed onto a missing (or empty) one: atomic, and only one of several can win.
      await rename(staging, lockPath)
      break
    } catch (cause) {
      const code = errnoCode(cause)
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') {
        await rm(staging, { recursive: true, force: true }).catch(() => undefined)
        throw cannotLock(display, cause)
      }
    }
    const holder = await readHolder(lockPath)
    if (holder === undefined) continue // released meanwhile
    if (verdictOn(holder) !== 'alive') {
      await takeOver(key, lockPath, holder)
      continue
    }
    const waited = Date.now() - started
    if (waited > WAIT_MS) {
      await rm(staging, { recursive: true, force: true }).catch(() => undefined)
      throw new RevisionError({
        code: 'FIXTURE_LOCKED',
        file: join(display, LOCK_NAME),
        summary: `${describeOwner(holder.owner)} has held the fixture's lock for ${seconds(Date.now() - (holder.owner?.since ?? holder.refreshedAt))}, and this command waited ${seconds(waited)}; nothing was changed.`,
        hint: `run the command again once that process is done. A holder that stops refreshing the lock for ${STALE_LOCK_MS / 1000} s is taken over, and one on this machine that has ended at once.`,
      })
    }
    if (!told && waited > TELL_AFTER_MS) {
      told = true
      noticeListener?.({ kind: 'waiting', dir: display, owner: holder.owner, heldMs: Date.now() - (holder.owner?.since ?? holder.refreshedAt) })
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, wait * (0.5 + Math.random())))
  }

  let counter = 0
  const ownerPath = join(lockPath, OWNER_FILE)
  const check = async (during: string): Promise<void> => {
    const now = await readOwner(lockPath)
    if (now?.token === owner.token) return
    // No lock at all: the writer that took it over has finished and let it go, so there is no one left to name.
    const taker =
      now === undefined && (await isGone(lockPath)) ? 'another writer took the lock over (it has since finished)' : `${describeOwner(now)} took the lock over`
    throw new RevisionError({
      code: 'LOCK_LOST',
      file: join(display, LOCK_NAME),
      summary: `this command lost the fixture's lock ${during}: it was paused for more than ${STALE_LOCK_MS / 1000} s and ${taker}. This command wrote nothing after that, so the other writer's save is kept.`,
      hint: 'run the command again: it starts from the fixture as it is now.',
    })
  }
  const refresh = setInterval(() => {
    // Refreshes only its own lock: a lost lock's path may now hold another holder's.
    void check('')
      .then(() => utimes(ownerPath, new Date(), new Date()))
      .catch(() => undefined)
  }, REFRESH_MS)
  refresh.unref()

  const lock: HeldLock = {
    dir: key,
    path: lockPath,
    token: owner.token,
    stage: (suffix) => join(lockPath, `${owner.token}.${++counter}.${suffix}`),
    journal: join(lockPath, `${owner.token}.journal.json`),
    check,
  }
  try {
    await recoverLeftovers(key, display, owner.token)
  } catch (error) {
    clearInterval(refresh)
    await releaseLock(key, lockPath, owner.token)
    throw error
  }
  return {
    held: lock,
    release: async () => {
      clearInterval(refresh)
      await releaseLock(key, lockPath, owner.token)
    },
  }
}

/** Removes the lock, only if it is still this holder's: it is moved aside first, then looked at. */
async function releaseLock(key: string, lockPath: string, token: string): Promise<void> {
  const aside = join(key, `${LOCK_NAME}-${token}.released`)
  try {
    await rename(lockPath, aside)
  } catch {
    return // taken over, or removed by hand
  }
  const owner = await readOwner(aside)
  if (owner?.token !== token) {
    // Another holder's lock, which replaced ours meanwhile: give it back.
    await rename(aside, lockPath).catch(() => undefined)
    return
  }
  await rm(aside, { recursive: true, force: true }).catch(() => undefined)
}

/** Whether nothing is at `path` now. */
async function isGone(path: string): Promise<boolean> {
  try {
    await lstat(path)
    return false
  } catch (cause) {
    return errnoCode(cause) === 'ENOENT'
  }
}

/**
 * Moves a dead or stale holder's lock aside, as `.rubric.lock-<random>.dead`, to be finished or
 * discarded by whoever holds the lock next. The move is what fences that holder: the files it
 * staged, and its journal, are no longer where it will look for them.
 */
async function takeOver(key: string, lockPath: string, holder: Holder): Promise<void> {
  const aside = join(key, `${LOCK_NAME}-${randomBytes(6).toString('hex')}.dead`)
  try {
    await rename(lockPath, aside)
  } catch {
    return // another writer moved it first, or it was released
  }
  const moved = await readOwner(aside)
  if (moved?.token !== holder.owner?.token) {
    // A live holder's lock took the dead one's place between the look and the move: give it back.
    await rename(aside, lockPath).catch(() => undefined)
  }
}

/**
 * Under the lock: finishes the save of every holder that lost its lock after its journal was
 * written (the journal is its commit: every file it names was checked, staged and flushed), and
 * discards the staged files of one that lost it before. Either way the fixture is as after that
 * save or as before it, never between, and no temporary file is left.
 */
async function recoverLeftovers(key: string, display: string, token: string): Promise<void> {
  let names: string[]
  try {
    names = await readdir(key)
  } catch {
    return
  }
  for (const name of names.sort()) {
    if (!name.startsWith(`${LOCK_NAME}-`)) continue
    const path = join(key, name)
    const entry = await lstat(path).catch(() => undefined)
    if (entry === undefined) continue
    if (!entry.isDirectory()) {
      // Never one of ours: a link or a file planted under a lock's name is removed, not followed.
      await rm(path, { force: true })
      continue
    }
    if (name.endsWith('.dead')) {
      const owner = await readOwner(path)
      const files = owner === undefined ? undefined : await rollForward(key, path, owner.token)
      // Staged files without a journal: a save stopped before its commit. Neither: a lock left after its last write.
      const staged = files === undefined && (await readdir(path).catch(() => [])).some((entry) => entry.endsWith('.tmp'))
      crashPoint('recovered')
      await rm(path, { recursive: true, force: true })
      if (files !== undefined) noticeListener?.({ kind: 'finished', dir: display, owner, files })
      else if (staged) noticeListener?.({ kind: 'discarded', dir: display, owner })
    } else if (name.endsWith('.released')) {
      await rm(path, { recursive: true, force: true })
    } else if (name.endsWith('.new') && !name.includes(token)) {
      // A lock being taken: left alone while its writer may still be about to rename it in. One whose owner file is not
      // whole yet (its writer killed while writing it) is its writer's by the process id in its name.
      const holder = await readHolder(path)
      const pid = /\.([0-9]+)\.new$/.exec(name)?.[1]
      const abandoned =
        holder === undefined ? true : holder.owner === undefined && pid !== undefined ? !processRuns(Number(pid)) : verdictOn(holder) !== 'alive'
      if (abandoned) await rm(path, { recursive: true, force: true })
    }
  }
}

/** The journal a holder wrote before its first rename: which staged file goes where. */
export interface Journal {
  /** `staged: null` removes the target. */
  readonly writes: readonly { readonly staged: string | null; readonly target: string }[]
}

function isJournal(value: unknown): value is Journal {
  return (
    isObject(value) &&
    Array.isArray(value['writes']) &&
    value['writes'].every(
      (write: unknown) => isObject(write) && typeof write['target'] === 'string' && (write['staged'] === null || typeof write['staged'] === 'string'),
    )
  )
}

/** Renames every staged file the journal names that is still there; `undefined` without a journal. */
async function rollForward(key: string, lockDir: string, token: string): Promise<string[] | undefined> {
  let journal: unknown
  try {
    journal = JSON.parse(await readFile(join(lockDir, `${token}.journal.json`), 'utf8'))
  } catch {
    return undefined
  }
  // A journal is data found on disk: one that is not a list of writes is read as no journal.
  if (!isJournal(journal)) return undefined
  const done: string[] = []
  for (const write of journal.writes) {
    const to = resolve(key, write.target)
    // Only into this fixture: a journal is data found on disk.
    if (!to.startsWith(`${key}/`) || write.staged?.includes('/') === true) continue
    try {
      if (write.staged === null) await unlink(to)
      else await rename(join(lockDir, write.staged), to)
      crashPoint('rolled forward')
    } catch (cause) {
      if (errnoCode(cause) !== 'ENOENT') throw cause
    }
    done.push(write.target)
  }
  return done
}

function cannotLock(display: string, cause: unknown): RevisionError {
  return new RevisionError({
    code: 'WRITE_FAILED',
    file: join(display, LOCK_NAME),
    summary: `the fixture's lock cannot be taken (${errnoCode(cause) ?? String(cause)}); nothing was changed.`,
    hint: 'check that the fixture directory exists and is writable, and that .rubric.lock, if there, is a directory.',
  })
}
