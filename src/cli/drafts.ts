import { join } from 'node:path'
import { RevisionError } from '../core/common/errors.js'
import { shellWord } from '../core/engine/bindings.js'
import { outputBoundary, writeOutputFile } from '../core/json/output-file.js'

/** Where a terminal keeps the answers a refused save would lose, relative to the project. */
export const DRAFTS_DIR = '.vitest-rubric/drafts'

/** What a terminal review or adjudication was saving, and the command that records it. */
export interface KeptDraft {
  /** The fixture directory as given on the command line. */
  readonly dir: string
  readonly caseId: string
  /** Parts of the draft's file name after the case id (a reviewer's name, a slot). */
  readonly names: readonly string[]
  /** The command that records the draft, without `--from <draft>`: `vitest-rubric review <dir> --case <id> … --replace`. */
  readonly command: readonly string[]
  /** The judgements as typed, in the shape the command's `--from` reads; none when nothing was typed (an adoption of one reviewer's review). */
  readonly draft: unknown
}

/**
 * A terminal save refused because the case changed meanwhile (`CASE_CHANGED_MEANWHILE`): the page
 * keeps its form, a terminal keeps nothing, so the answers typed are written as a draft inside the
 * project (`.vitest-rubric/drafts/`), a file the command's `--from` reads, and the refusal says
 * where and with which command to record it once the change is read.
 */
export async function keepDraft(error: RevisionError, kept: KeptDraft, cwd: string): Promise<RevisionError> {
  let command = kept.command.map(shellWord)
  let where = 'what you chose is kept in this command'
  if (kept.draft !== undefined) {
    const stamp = new Date()
      .toISOString()
      .replaceAll(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z')
    const name = [kept.caseId, ...kept.names, stamp].map(safeName).join('.')
    const display = `${DRAFTS_DIR}/${name}.json`
    const path = join(cwd, display)
    await writeOutputFile({ path, display, contents: `${JSON.stringify(kept.draft, null, 2)}\n` }, { boundary: outputBoundary(cwd, path), cwd })
    command = [...command, '--from', display]
    where = `what you typed is kept in ${display}`
  }
  return new RevisionError({
    code: error.code,
    file: error.file,
    path: error.path,
    caseId: error.caseId,
    summary: error.summary,
    hint: `${where}: read the case again (\`vitest-rubric show ${shellWord(kept.dir)} --case ${shellWord(kept.caseId)}\`), then, if it still holds${kept.draft === undefined ? '' : ' (edit the file where it does not)'}, record it with \`${command.join(' ')}\`.`,
  })
}

/** A part of a file name: what a case id or a name may hold that a file name should not, as `_`. */
function safeName(part: string): string {
  return part.replaceAll(/[^\p{L}\p{N}_-]+/gu, '_')
}
