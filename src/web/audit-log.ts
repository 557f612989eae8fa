import { createHash } from 'node:crypto'
import { join, relative } from 'node:path'
import { displayPath } from '../core/common/display-path.js'
import { RevisionError } from '../core/common/errors.js'
import { appendToLog } from '../core/json/append-file.js'
import { crashPoint } from '../core/json/crash-points.js'
import type { SaveTrail } from './save-change.js'

// The audit log of `serve` without `--commit`: one JSON line per accepted save, appended under the
// fixture's lock before the save is acknowledged. With `--commit`, the commits are the trail.

/** Where the audit logs are kept, under the project root. */
export const AUDIT_DIR = '.vitest-rubric/audit'

/** The audit log of a fixture: named by a hash of its path from the project root, as the team's token files are. */
export function auditLogPath(root: string, dir: string): string {
  const name = createHash('sha256').update(relative(root, dir).split('\\').join('/')).digest('hex').slice(0, 16)
  return join(root, AUDIT_DIR, `${name}.jsonl`)
}

/** One line of the audit log. */
export interface AuditLine {
  /** ISO 8601, UTC. */
  readonly at: string
  readonly person: string | null
  readonly role: string | null
  readonly fixture: string
  readonly case: string
  readonly action: 'review' | 'adjudicate'
  readonly change: 'new' | 'replaced' | 'adopted'
  readonly decision: string
  /** The files written, from the project root. */
  readonly files: readonly string[]
}

/**
 * The trail of `serve` without `--commit`. The folders on the way are checked as every output's are
 * (a link leading out of the project is refused), and the log is opened with `O_NOFOLLOW`: a symbolic
 * link planted in its place is refused, never written through.
 */
export function auditTrail(root: string): SaveTrail {
  return {
    async record(change) {
      const path = auditLogPath(root, change.dir)
      const line: AuditLine = {
        at: new Date().toISOString(),
        person: change.person ?? null,
        role: change.role ?? null,
        fixture: change.fixture,
        case: change.caseId,
        action: change.action,
        change: change.change,
        decision: change.decision,
        files: change.files.map((file) => displayPath(root, file)),
      }
      try {
        // One append, not the fixture's atomic writer: a whole line or none, and it costs the line, not the log.
        await appendToLog(path, `${JSON.stringify(line)}\n`, { boundary: root, cwd: root })
        crashPoint('audit appended')
      } catch (cause) {
        throw new RevisionError({
          code: 'AUDIT_FAILED',
          file: displayPath(root, path),
          summary: `the save of case "${change.caseId}" could not be added to the audit log (${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)}); it was not kept: the files are as they were.`,
          hint: `make ${AUDIT_DIR}/ a writable folder of the project (not a link elsewhere), then save again.`,
        })
      }
    },
  }
}
