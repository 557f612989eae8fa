import { resolveFork } from '../../core/engine/resolve-fork.js'
import { kinds } from '../../core/registry.js'
import { stringOption, usage, type Command } from '../command.js'

/** `vitest-rubric resolve <dir> <case> --keep <save>`: settles records revised apart. */
export const resolve: Command = {
  name: 'resolve',
  summary: 'keep one revision of a case (or document) whose records were revised apart and merged',
  help: `Usage: vitest-rubric resolve <dir> <case> --keep <save>
       vitest-rubric resolve <dir> --document <name> --keep <save>

In the records layout, two revisions of one record made apart (alice revising her review of a case
on two machines, two branches editing one case) are both kept by a git merge. The case is then
pending, and \`status\` names each revision with the save that made it, who made it and when. This
command keeps, of every forked record of the case, the revision the save --keep made: a new line
that replaces both, under the fixture's lock. --document settles a document's members instead
(a judge's origin, the cases' name), which refuse the fixture until settled.

Options:
  --keep <save>        the save whose revisions are kept (as status names it)
  --document <name>    a seed document (annotations.json, judges/<name>.json, …) instead of a case

Exit codes: 0 when resolved; 1 when refused (no such save, or no fork); 2 on a usage error.`,
  options: { keep: { type: 'string' }, document: { type: 'string' } },
  async run({ values, positionals }, io) {
    const keep = stringOption(values, 'keep')
    const document = stringOption(values, 'document')
    const [dir, caseId, ...rest] = positionals
    if (dir === undefined || rest.length > 0 || (caseId === undefined) === (document === undefined))
      throw usage('resolve', 'resolve takes a fixture directory and either a case id or --document <name>.')
    if (keep === undefined || !/^[0-9a-f]{12}$/.test(keep))
      throw usage(
        'resolve',
        `--keep takes the save to keep, 12 hexadecimal digits as status shows it${keep === undefined ? '' : `, not ${JSON.stringify(keep)}`}.`,
      )
    const result = await resolveFork(dir, document === undefined ? { caseId: caseId! } : { document }, keep, { cwd: io.cwd, kinds })
    io.stdout(`${document ?? `case "${caseId}"`}: kept the revision of save ${keep}\n  wrote ${result.written.join(', ')}`)
    return 0
  },
}
