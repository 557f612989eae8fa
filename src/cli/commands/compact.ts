import { plural } from '../../core/common/primitives.js'
import { compactFixture, type CompactResult } from '../../core/engine/compact-fixture.js'
import { kinds } from '../../core/registry.js'
import { oneDir, type Command } from '../command.js'

/** `vitest-rubric compact <dir> [--json]`: rewrites the record files without their superseded lines. */
export const compact: Command = {
  name: 'compact',
  summary: 'rewrite the record files of a records-layout fixture without their superseded lines',
  help: `Usage: vitest-rubric compact <dir> [--json]

In the records layout a save adds lines and never removes one, so a case revised often leaves its
earlier revisions behind. This command rewrites each record file without the lines no longer
current: every revision replaced by a later one, and a line held twice. The current lines stay
byte for byte, forks included (both revisions of a record revised apart stay until \`resolve\`
keeps one), so the fixture decides exactly as before, \`status\` names the same forks, and a
later revision names the line it replaces as before. In place of the lines it removes, each file
keeps one line naming their fingerprints: a branch made before the compaction still merges with
git and decides as if nothing had been compacted. Under the fixture's lock, all or nothing: the
compacted records are read back first and must give every document byte for byte.

A fixture in the seed layout has no superseded lines: nothing is done there (exit 0).

Options:
  --json    print what was done as JSON: { dir, layout, files, before, after, compacted:
            [{ file, before, after }] }, lines counted per file

Exit codes: 0 when compacted (or nothing to do); 1 when the fixture is refused; 2 on a usage error.`,
  options: { json: { type: 'boolean', default: false } },
  async run({ values, positionals }, io) {
    const dir = oneDir('compact', positionals)
    const result = await compactFixture(dir, { cwd: io.cwd, kinds })
    io.stdout(values['json'] === true ? JSON.stringify(result, null, 2) : formatCompact(result))
    return 0
  },
}

/** What a compaction did, in words: each file rewritten with its lines before and after. */
export function formatCompact(result: CompactResult): string {
  if (result.layout === 'seed')
    return `${result.dir}: in the seed layout, which has no superseded lines: nothing to compact (compact applies to the records layout: \`vitest-rubric convert ${result.dir} --to records\`)`
  if (result.compacted.length === 0)
    return `${result.dir}: nothing to compact: none of its ${plural(result.files, 'record file')} (${plural(result.before, 'line')}) holds a superseded line`
  const lines = [
    `${result.dir}: compacted ${result.compacted.length} of ${plural(result.files, 'record file')}, ${plural(result.before, 'line')} to ${result.after}`,
  ]
  for (const file of result.compacted) lines.push(`  ${file.file}: ${file.before} → ${file.after} lines`)
  return lines.join('\n')
}
