import { readFileSync } from 'node:fs'
import { lstat, readFile, stat } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { errnoCode, isObject } from '../common/primitives.js'

// Who holds a fixture's lock, and whether that holder is alive: the part of the lock that reads processes.

/** The file inside the lock directory that names its holder. */
export const OWNER_FILE = 'owner.json'

/**
 * A lock whose holder has not refreshed it for this long is taken over even when its process still
 * runs (stopped with Ctrl-Z or SIGSTOP, a paused machine, a holder on another host). Such a holder
 * is fenced: everything it stages lives in the lock directory, which the takeover moves away, so it
 * can write nothing more. A holder on this machine whose process has ended is taken over at once.
 */
export const STALE_LOCK_MS = 30_000

/** Who holds a lock: enough to tell, on this machine, whether that process still runs. */
export interface LockOwner {
  readonly pid: number
  readonly host: string
  /** The process's start time as the kernel counts it (`/proc/<pid>/stat`), so that a reused pid is not taken for the holder; `null` where there is no `/proc`. */
  readonly started: string | null
  /** Random, one per lock taken: names the files this holder stages and its journal. */
  readonly token: string
  /** When the lock was taken (ms since the epoch). */
  readonly since: number
  /** The command that holds it, for the messages of those who wait. */
  readonly command: string
}

export interface Holder {
  readonly owner: LockOwner | undefined
  /** When the holder last refreshed its lock: the time of `owner.json`, or of the directory when that cannot be read. */
  readonly refreshedAt: number
}

/** The owner this process writes when it takes a lock. */
export function newOwner(): LockOwner {
  return {
    pid: process.pid,
    host: hostname(),
    started: processStart(process.pid),
    token: randomBytes(12).toString('hex'),
    since: Date.now(),
    command: commandLine(),
  }
}

export type Verdict = 'alive' | 'dead' | 'stale'

export function verdictOn(holder: Holder): Verdict {
  const owner = holder.owner
  if (owner !== undefined && owner.host === hostname()) {
    if (!processRuns(owner.pid)) return 'dead'
    if (owner.started !== null && processStart(owner.pid) !== owner.started) return 'dead'
  }
  return Date.now() - holder.refreshedAt > STALE_LOCK_MS ? 'stale' : 'alive'
}

export async function readHolder(lockPath: string): Promise<Holder | undefined> {
  const owner = await readOwner(lockPath)
  try {
    const stamp = await (owner === undefined ? lstat(lockPath) : stat(join(lockPath, OWNER_FILE)))
    return { owner, refreshedAt: stamp.mtimeMs }
  } catch {
    return owner === undefined ? undefined : { owner, refreshedAt: owner.since }
  }
}

export async function readOwner(lockPath: string): Promise<LockOwner | undefined> {
  try {
    // Only a real directory: a link planted under a lock's name is never read through.
    if (!(await lstat(lockPath)).isDirectory()) return undefined
    const owner: unknown = JSON.parse(await readFile(join(lockPath, OWNER_FILE), 'utf8'))
    if (!isObject(owner)) return undefined
    const { pid, host, started, token, since, command } = owner
    if (typeof pid !== 'number' || typeof host !== 'string' || typeof token !== 'string') return undefined
    return {
      pid,
      host,
      started: typeof started === 'string' ? started : null,
      token,
      since: typeof since === 'number' ? since : 0,
      command: typeof command === 'string' ? command : 'a vitest-rubric command',
    }
  } catch {
    return undefined
  }
}

/** Whether a process of this id runs on this machine (one of another user counts). */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (cause) {
    return errnoCode(cause) === 'EPERM'
  }
}

/** Field 22 of `/proc/<pid>/stat`: when the process started, in clock ticks since boot. */
function processStart(pid: number): string | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {
    return null
  }
}

function commandLine(): string {
  const args = process.argv.slice(2).join(' ')
  return args.length > 80 ? `${args.slice(0, 79)}…` : args
}

/** "pid 123 on host h (vitest-rubric review …)". */
export function describeOwner(owner: LockOwner | undefined): string {
  if (owner === undefined) return 'a writer that did not say who it is'
  const where = owner.host === hostname() ? '' : ` on ${owner.host}`
  return `process ${owner.pid}${where}${owner.command === '' ? '' : ` (${owner.command})`}`
}

export function seconds(ms: number): string {
  return `${Math.max(0, Math.round(ms / 100) / 10)} s`
}
