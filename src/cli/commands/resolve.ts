import { resolveFork } from '../../core/engine/resolve-fork.js'
import { kinds } from '../../core/registry.js'
import { stringOption, stringsOption, usage, type Command } from '../command.js'

/** `vitest-rubric resolve <dir> <case> --keep <save> [--keep <save> …]`: settles records revised apart. */
export const resolve: Command = {
  name: 'resolve',
  summary: 'keep one revision of a case (or document) whose records were revised apart and merged',
  help: `Usage: vitest-rubric resolve <dir> <case> --keep <save> [--keep <save> …]
       vitest-rubric resolve <dir> --document <name> --keep <save>

In the records layout, two revisions of one record made apart (alice revising her review of a case
on two machines, two branches editing one case) are both kept by a git merge. The case is then
pending, and \`status\` names each revision with the save that made it, who made it and when. This
command keeps, of every forked record of the case, the revision the save --keep made: a new line
that replaces both, under the fixture's lock. When no one save revised every forked record (alice's
and bob's reviews each revised on two machines), give --keep once for each save whose revisions are
kept: together they settle each forked record once. --document settles a document's members instead
(a judge's origin, the cases' name), which refuse the fixture until settled.

Options:
  --keep <save>        a save whose revisions are kept (as status names it); repeatable
  --document <name>    a seed document (annotations.json, judges/<name>.json, …) instead of a case

Exit codes: 0 when resolved; 1 when refused (no such save, or no fork); 2 on a usage error.`,
  options: { keep: { type: 'string', multiple: true }, document: { type: 'string' } },
  async run({ values, positionals }, io) {
    const keep = stringsOption(values, 'keep') ?? []
    const document = stringOption(values, 'document')
    const [dir, caseId, ...rest] = positionals
    if (dir === undefined || rest.length > 0 || (caseId === undefined) === (document === undefined))
      throw usage('resolve', 'resolve takes a fixture directory and either a case id or --document <name>.')
    const wrong = keep.length === 0 ? '' : keep.find((save) => !/^[0-9a-f]{12}$/.test(save))
    if (wrong !== undefined)
      throw usage('resolve', `--keep takes the save to keep, 12 hexadecimal digits as status shows it${wrong === '' ? '' : `, not ${JSON.stringify(wrong)}`}.`)
    const twice = keep.find((save, index) => keep.indexOf(save) !== index)
    if (twice !== undefined) throw usage('resolve', `--keep ${twice} is given twice; name each save once.`)
    if (document !== undefined && keep.length > 1)
      throw usage('resolve', `--document keeps one revision of the document: give --keep once, not ${keep.length} times.`)
    const result = await resolveFork(dir, document === undefined ? { caseId: caseId! } : { document }, keep, { cwd: io.cwd, kinds })
    const kept = keep.length === 1 ? `the revision of save ${keep[0]}` : `the revisions of saves ${keep.join(', ')}`
    io.stdout(`${document ?? `case "${caseId}"`}: kept ${kept}\n  wrote ${result.written.join(', ')}`)
    return 0
  },
}
