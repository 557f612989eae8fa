import { readFile } from 'node:fs/promises'
import { relative, sep } from 'node:path'
import { displayPath } from '../core/common/display-path.js'
import { RevisionError, RubricError } from '../core/common/errors.js'
import { nodeWriteIo, type FileWrite, type WriteIo } from '../core/json/atomic-write.js'
import { writeProjectFiles } from '../core/json/project-write.js'
import { projectBoundary } from '../core/json/read.js'
import { sha256Hex } from '../core/json/canonical-json.js'
import { heldFixtureLock, LOCK_NAME, withFixtureLock } from '../core/json/fixture-lock.js'
import { keepFile, keptBytes, type KeptFile } from '../core/json/kept-file.js'
import { auditTrail } from './audit-log.js'
import { checkCommitable, commitTrail } from './save-commit.js'
import type { SavedChange, SaveTrail } from './save-change.js'

export type { SavedChange, SaveTrail } from './save-change.js'

// A save of the review page, and what records it: a git commit (`serve --commit`) or a line of the
// audit log. Both run under the fixture's lock, right after the write; a save that cannot be recorded
// is rolled back, so that the files and their record never disagree.

/** The trail of a server: with `commit`, git (refused unless each fixture is in a git work tree); else the audit log. */
export async function openSaveTrail(commit: boolean, dirs: readonly string[], displays: readonly string[], cwd: string): Promise<SaveTrail> {
  if (!commit) return auditTrail(cwd)
  await checkCommitable(dirs, displays, cwd)
  return commitTrail(cwd)
}

/** What a save says of itself once written; the rest of its record is known before. */
export type SaveOutcome = Pick<SavedChange, 'action' | 'person' | 'change' | 'decision'>

/**
 * Runs `work` (a save that writes through the `io` it is given) under the lock of the fixture
 * `base.dir`, then has the trail record it before the lock is released. When recording fails, every
 * file the save wrote is put back as it was, through the same atomic writer, and the trail's error
 * is thrown.
 */
export async function recordedSave(
  trail: SaveTrail,
  base: Omit<SavedChange, keyof SaveOutcome | 'files'>,
  cwd: string,
  work: (io: WriteIo) => Promise<SaveOutcome>,
): Promise<SaveOutcome> {
  const dir = base.dir
  return withFixtureLock(dir, async () => {
    const before = new Map<string, KeptFile>()
    const keep = async (path: string) => {
      // The writer's own staged files live in the lock directory: only fixture files are the save's.
      if (before.has(path) || relative(dir, path).split(sep).includes(LOCK_NAME)) return
      before.set(path, await keepFile(path, heldFixtureLock(dir)))
    }
    const io: WriteIo = {
      writeNew: nodeWriteIo.writeNew,
      rename: async (from, to) => {
        await keep(to)
        return nodeWriteIo.rename(from, to)
      },
      unlink: async (path) => {
        await keep(path)
        return nodeWriteIo.unlink(path)
      },
    }
    const outcome = await work(io)
    if (before.size === 0) return outcome
    try {
      await trail.record({ ...base, ...outcome, files: [...before.keys()] }, async (path) => {
        const kept = before.get(path)
        return kept === undefined ? readFile(path) : keptBytes(kept)
      })
    } catch (error) {
      await rollBack(dir, before, cwd, error)
      throw error
    }
    return outcome
  })
}

/** Puts each file back as it was before the save (a file the save made is removed). */
async function rollBack(dir: string, before: ReadonlyMap<string, KeptFile>, cwd: string, cause: unknown): Promise<void> {
  const writes: FileWrite[] = []
  try {
    for (const [path, kept] of before) {
      const now = await readFile(path).catch(() => null)
      if (now === null) continue
      // A link kept in a lock directory that was taken over meanwhile is gone: that failure is reported with the files.
      const bytes = await keptBytes(kept)
      writes.push({ path, display: displayPath(cwd, path), contents: bytes, basedOn: sha256Hex(now) })
    }
    await writeProjectFiles(writes, { boundary: projectBoundary(cwd, dir), lockDir: dir, cwd })
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error)
    throw new RevisionError({
      code: cause instanceof RubricError ? cause.code : 'WRITE_FAILED',
      file: displayPath(cwd, dir),
      summary: `the save was written but could not be recorded (${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)}), and putting the files back failed too (${reason}): ${[...before.keys()].map((path) => displayPath(cwd, path)).join(', ')} hold the unrecorded save.`,
      hint: 'restore those files from git (git checkout -- <file>) or record the save by hand, then fix the cause.',
    })
  }
}
