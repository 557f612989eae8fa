// What this process knows of the bytes of files it read or wrote, by each file's stat stamp: a
// reader of the same process that finds a file with the stamp it had then knows its bytes without
// reading or hashing them. A bucket file of a large fixture is megabytes; a save through the page's
// server appends a few lines to one, and its readers (the save's own, then the page's) would
// otherwise hash it whole again, each of them.
//
// A stamp is trusted as the page's reader trusts it to tell that a file did not change: a write to
// the file, or a file put in its place, moves it. A save never relies on it alone: every write
// checks the bytes of the file it replaces before it commits, and forgets what was known of it.
import type { BigIntStats } from 'node:fs'
import { stat } from 'node:fs/promises'

/** A file's bytes as known: their SHA-256 and length and, for a file this process appended to, the bytes it held before and those appended. */
export interface KnownContents {
  readonly sha256: string
  readonly length: number
  readonly grownFrom?: { readonly length: number; readonly sha256: string }
  readonly tail?: Uint8Array
}

/** A file this process appended to: the bytes it held before (`grownFrom`), followed by `tail`. */
export type WrittenContents = KnownContents & Required<Pick<KnownContents, 'grownFrom' | 'tail'>>

/** A file's stat stamp: its size, times and inode. */
export function statStamp(stats: BigIntStats): string {
  return `${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}:${stats.ino}`
}

/** Notes the bytes of the file at `path` as read while it had the stamp `stamp` (taken before the read). */
export function noteRead(path: string, stamp: string, contents: Pick<KnownContents, 'sha256' | 'length'>): void {
  remember(path, stamp, { sha256: contents.sha256, length: contents.length })
}

/**
 * Notes what the file at `path` holds now that this process wrote it, holding the fixture's lock
 * (so no writer that takes the lock wrote after it). Its stamp is taken now.
 */
export async function noteWritten(path: string, contents: WrittenContents): Promise<void> {
  known.delete(path)
  const stats = await stat(path, { bigint: true }).catch(() => undefined)
  if (stats !== undefined && stats.size === BigInt(contents.length)) remember(path, statStamp(stats), contents)
}

/** Forgets what was known of `path`: it is being written. */
export function forgetKnown(path: string): void {
  known.delete(path)
}

/** What is known of the bytes of `path`, when the file still has the stamp `stamp` it had then. */
export function knownAs(path: string, stamp: string): KnownContents | undefined {
  const note = known.get(path)
  return note !== undefined && note.stamp === stamp ? note.contents : undefined
}

/** What `known` holds when this process appended to the bytes `before` (their length and SHA-256) to make it. */
export function appendedTo(
  known: KnownContents | undefined,
  before: { readonly length: number; readonly sha256: string | undefined },
): WrittenContents | undefined {
  const { grownFrom, tail } = known ?? {}
  if (known === undefined || grownFrom === undefined || tail === undefined) return undefined
  return grownFrom.length === before.length && grownFrom.sha256 === before.sha256 ? { ...known, grownFrom, tail } : undefined
}

/** {@link knownAs} the file's stamp now. */
export async function knownNow(path: string): Promise<KnownContents | undefined> {
  if (!known.has(path)) return undefined
  const stats = await stat(path, { bigint: true }).catch(() => undefined)
  return stats === undefined ? undefined : knownAs(path, statStamp(stats))
}

function remember(path: string, stamp: string, contents: KnownContents): void {
  known.delete(path)
  known.set(path, { stamp, contents })
  // The oldest note goes first: a server of many fixtures reads thousands of bucket files over its life.
  if (known.size > MAX_NOTES) known.delete(known.keys().next().value!)
}

const known = new Map<string, { readonly stamp: string; readonly contents: KnownContents }>()

/** How many files' notes are kept at most. */
const MAX_NOTES = 4096
