import { ANSI, PLAIN } from '../../core/common/colors.js'
import { loadFixture } from '../../core/registry.js'
import { caseView, type CaseView } from '../../core/engine/show.js'
import { oneDir, requiredOption, type Command } from '../command.js'
import { shellWord } from '../../core/engine/bindings.js'

/** `vitest-rubric show <dir> --case <id> [--json]`: one case for a reader. */
export const show: Command = {
  name: 'show',
  summary: "print one case: the answer with each judgement's span marked, the judgements, bindings and decision",
  help: `Usage: vitest-rubric show <dir> --case <id> [--json]

Prints one case for a reader: for a criteria case, the question, the answer with each judgement's
span marked ([n›…‹n], numbered as the criteria), the citation, and each criterion's rule, rating,
reason and reference quote; for a scored case, its spec and each system's claims. Then every
recorded hash of the case and its reviews, current or stale, and the decision with its reason.

Options:
  --case <id>   the case to show
  --json        print the same as data

Exit codes: 0 when shown; 1 when the fixture is refused or there is no such case.`,
  options: { case: { type: 'string' }, json: { type: 'boolean', default: false } },
  async run({ values, positionals }, io) {
    const dir = oneDir('show', positionals)
    const id = requiredOption('show', values, 'case', 'name the case to show with --case <id>.')
    const json = values['json'] === true
    const colors = !json && io.terminal !== undefined && process.env['NO_COLOR'] === undefined ? ANSI : PLAIN
    const fixture = await loadFixture(dir, { cwd: io.cwd })
    const view = caseView(fixture, id, colors)
    // A case revised apart is shown as its records read meanwhile (its review left out): said, with the command that settles it.
    const forked = fixture.records?.forks.some((fork) => fork.caseId === view.id) === true
    const fork = `its records were revised apart, and it shows no review until \`vitest-rubric resolve ${shellWord(fixture.displayDir)} ${shellWord(view.id)} --keep <save>\` keeps one revision (\`vitest-rubric status ${shellWord(fixture.displayDir)}\` names the saves)`
    if (json) {
      const { lines: _lines, ...data } = view
      io.stdout(JSON.stringify(forked ? { ...data, forked: fork } : data, null, 2))
    } else io.stdout(`${formatShow(view)}${forked ? `\n  forked: ${fork}` : ''}`)
    return 0
  },
}

/** A case view as text: the kind's lines, then the bindings, then the decision. */
export function formatShow(view: CaseView): string {
  const { status, reason } = view.decision
  const stale = view.bindings.filter((binding) => binding.stale)
  const lines = [
    `${view.id} (${view.dir}, ${view.split})`,
    ...view.lines,
    `  bindings: ${stale.length === 0 ? 'every hash is current' : `${stale.length} of ${view.bindings.length} stale`}`,
    ...view.bindings.map(
      (binding) =>
        `    ${binding.stale ? '✗' : '✓'} ${binding.location}${binding.stale ? ` — ${binding.meaning} (${binding.recorded === null ? 'nothing recorded' : `${binding.recorded.slice(0, 12)}…`} → ${binding.current.slice(0, 12)}…)` : ''}`,
    ),
    `  decision: ${status}${reason === '' ? '' : ` (${reason.split('\n')[0]})`}`,
  ]
  return lines.join('\n')
}
