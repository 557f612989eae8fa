// What taking a fixture's lock found and did, as a front end tells its user.
import { describeOwner, type LockOwner, seconds } from './lock-owner.js'

/** What taking a lock found and did, for a front end to tell its user. */
export type LockNotice =
  | { readonly kind: 'waiting'; readonly dir: string; readonly owner: LockOwner | undefined; readonly heldMs: number }
  | { readonly kind: 'finished'; readonly dir: string; readonly owner: LockOwner | undefined; readonly files: readonly string[] }
  | { readonly kind: 'discarded'; readonly dir: string; readonly owner: LockOwner | undefined }

/** A notice as one line of text, as the CLI prints it. */
export function lockNoticeText(notice: LockNotice): string {
  switch (notice.kind) {
    case 'waiting':
      return `note: waiting for the lock of ${notice.dir}: ${describeOwner(notice.owner)} has held it for ${seconds(notice.heldMs)}.`
    case 'finished':
      return `note: ${notice.dir}: finished the save that ${describeOwner(notice.owner)} had committed when it stopped (${notice.files.length === 0 ? 'nothing left to write' : notice.files.join(', ')}).`
    case 'discarded':
      return `note: ${notice.dir}: discarded the unfinished save of ${describeOwner(notice.owner)}, which stopped before committing it; the fixture is as before that save.`
  }
}
