import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { RevisionError } from '../core/common/errors.js'
import { shellWord } from '../core/engine/bindings.js'
import { writeFilesAtomically } from '../core/json/atomic-write.js'

/** Where a terminal keeps the answers a refused save would lose, relative to the project. */
export const DRAFTS_DIR = '.vitest-rubric/drafts'

/** What a terminal review was saving, and the command that records it. */
export interface KeptDraft {
  /** The fixture directory as given on the command line. */
  readonly dir: string
  readonly caseId: string
  /** `--reviewer <name>`, `--system <slot>`, as the review was asked for; none for the adopted review. */
  readonly options: readonly string[]
  /** The judgements as typed, in the shape `review --from` reads. */
  readonly draft: unknown
}

/**
 * A terminal save refused because the case changed meanwhile (`CASE_CHANGED_MEANWHILE`): the page
 * keeps its form, a terminal keeps nothing, so the answers typed are written as a draft inside the
 * project (`.vitest-rubric/drafts/`), a file `review --from` reads, and the refusal says where and
 * with which command to record it once the change is read.
 */
export async function keepDraft(error: RevisionError, kept: KeptDraft, cwd: string): Promise<RevisionError> {
  const stamp = new Date()
    .toISOString()
    .replaceAll(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
  const name = [kept.caseId, ...kept.options.filter((option) => !option.startsWith('--')), stamp].map(safeName).join('.')
  const display = `${DRAFTS_DIR}/${name}.json`
  const path = join(cwd, display)
  await mkdir(join(cwd, DRAFTS_DIR), { recursive: true })
  await writeFilesAtomically([{ path, display, contents: `${JSON.stringify(kept.draft, null, 2)}\n`, basedOn: null }])
  const command = [
    'vitest-rubric review',
    shellWord(kept.dir),
    '--case',
    shellWord(kept.caseId),
    ...kept.options.map(shellWord),
    '--replace',
    '--from',
    display,
  ]
  return new RevisionError({
    code: error.code,
    file: error.file,
    path: error.path,
    caseId: error.caseId,
    summary: error.summary,
    hint: `what you typed is kept in ${display}: read the case again (\`vitest-rubric show ${shellWord(kept.dir)} --case ${shellWord(kept.caseId)}\`), then, if it still holds (edit the file where it does not), record it with \`${command.join(' ')}\`.`,
  })
}

/** A part of a file name: what a case id or a name may hold that a file name should not, as `_`. */
function safeName(part: string): string {
  return part.replaceAll(/[^\p{L}\p{N}_-]+/gu, '_')
}
