import type { BindResult } from '../../core/engine/bind.js'
import { bindFixture } from '../../core/registry.js'
import { oneDir, usage, stringsOption, type Command } from '../command.js'

/** `vitest-rubric bind <dir> --case <id>… | --all [--dry-run]`: the explicit revision, hash by hash. */
export const bind: Command = {
  name: 'bind',
  summary: 'record that a re-read review applies to the current answer, source and rubric',
  help: `Usage: vitest-rubric bind <dir> (--case <id>... | --all) [--reviewer <name>]... [--dry-run]

The explicit revision, after a reviewer has re-read a case: sets the review's answer, source and
rubric hashes (scored fixtures: rubric, spec and output) and the case's expected hashes to the
files as they are now, and acknowledges the review's new revision. Prints every old → new hash.
A case nobody reviewed carries no judgement, so its own hashes are simply re-stamped; a removed
review's withdrawal is acknowledged only for a case named with --case. Only cases.json and
annotations.json change, and only in those hashes; the rubric and the source are never written.
Nothing is written when a case would still be refused once bound (revise its judgements first).

A case with independent reviews is bound with every reviewer's review of it (reviews/<name>.json),
or, with --reviewer, only with those reviewers' reviews, once each has re-read the case. An
adoption (adjudications.json) of reviews that are only re-bound carries over to them: the
judgements it adopted still hold. An adoption reopened by a later review is not carried over.

Options:
  --case <id>        a case to bind (repeatable)
  --all              every case (a withdrawn review is listed and left alone)
  --reviewer <name>  bind only this reviewer's independent reviews of the cases (repeatable)
  --dry-run          print what would change, write nothing

Exit codes: 0 when bound (or nothing to change); 1 when refused, with nothing written.`,
  options: {
    case: { type: 'string', multiple: true },
    all: { type: 'boolean', default: false },
    reviewer: { type: 'string', multiple: true },
    'dry-run': { type: 'boolean', default: false },
  },
  async run({ values, positionals }, io) {
    const dir = oneDir('bind', positionals)
    const ids = stringsOption(values, 'case') ?? []
    if (values['all'] === true && ids.length > 0) throw usage('bind', 'give either --case or --all, not both.')
    if (values['all'] !== true && ids.length === 0) throw usage('bind', 'name the cases to bind with --case <id>, or pass --all.')
    const dryRun = values['dry-run'] === true
    const reviewers = stringsOption(values, 'reviewer') ?? []
    io.stdout(formatBind(await bindFixture(dir, { cases: values['all'] === true ? 'all' : ids, reviewers, dryRun, cwd: io.cwd }), dryRun))
    return 0
  },
}

/** What binding does to a case of each kind, as done and as it would be done by a dry run. */
const BIND_WORDS = {
  reviewed: ['bound', 'would bind'],
  unreviewed: ['re-stamped (no review: nothing was judged)', 'would be re-stamped (no review: nothing was judged)'],
  withdrawn: ['review withdrawal acknowledged', 'would acknowledge the review withdrawal'],
} as const satisfies Record<BindResult['cases'][number]['kind'], readonly [string, string]>

/** What binding changed, hash by hash, and what each case is decided once bound. */
export function formatBind(result: BindResult, dryRun: boolean): string {
  const lines: string[] = []
  const changed = result.cases.filter((each) => each.changes.length > 0)
  for (const each of result.cases) {
    if (each.changes.length === 0) {
      lines.push(`${each.id}: already bound to the current files (${each.decision})`)
      continue
    }
    lines.push(`${each.id}: ${BIND_WORDS[each.kind][dryRun ? 1 : 0]}, ${dryRun ? 'then the case would be decided' : 'then decided'} ${each.decision}`)
    for (const change of each.changes) lines.push(`  ${change.location}`, `    ${change.from}`, `  → ${change.to}`)
  }
  for (const skipped of result.skipped) lines.push(`skipped ${skipped.id}: ${skipped.reason}`)
  if (result.cases.length === 0 && result.skipped.length === 0) lines.push('no cases to bind')
  if (dryRun)
    lines.push(
      changed.length === 0
        ? 'dry run: nothing to change'
        : `dry run: nothing was written (${changed.length} ${changed.length === 1 ? 'case' : 'cases'} would change)`,
    )
  else lines.push(result.written.length === 0 ? 'nothing to change: no file was written' : `wrote ${result.written.join(' and ')}`)
  return `${result.dir}\n${lines.map((line) => `  ${line}`).join('\n')}`
}
