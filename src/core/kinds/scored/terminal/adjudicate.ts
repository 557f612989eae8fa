import { confirm, intro, isCancel, log, note, outro, select } from '@clack/prompts'
import { fingerprint } from '../../../json/canonical-json.js'
import { ScoredReviewDraftSchemas } from '../authoring.js'
import type { ScoredCase, System } from '../schemas.js'
import type { InteractiveAdjudication, Terminal, TerminalAdjudicationView } from '../../../contract/terminal.js'
import type { ScoredRubric } from '../rubric.js'
import { draftLines, outputNote, specNote } from './view.js'

/**
 * Shows an adjudicator each reviewer's scored review side by side (their dimension scores, then
 * their claims, resolution, empirical test and verdict) and asks whose review to adopt: a scored
 * review is adopted whole, as `--take` does. Each choice shows the decision it would give; it
 * adopts after confirmation.
 */
export const promptScoredAdjudication: InteractiveAdjudication<ScoredRubric, ScoredCase> = async (view, terminal, adopt) => {
  const io = { input: terminal.input, output: terminal.output }
  const theCase = view.target.parsedCase
  // Cast: the slot of a scored review is one of its systems.
  const system = view.target.slot as System
  const reviewers = view.views.map((each) => each.reviewer)
  intro(`vitest-rubric adjudicate: case ${theCase.id} (${system}) of ${view.target.fixture.displayDir} (${reviewers.join(', ')})`, io)
  note(specNote(theCase), 'The case', io)
  const output = outputNote(theCase, system)
  note(output.text, output.title, io)

  // The panel compares the debate system's scores, which decide the case; a baseline review is shown as it is.
  const scores = system === 'debate' ? scoreTable(view.views) : undefined
  if (scores !== undefined) note(scores, 'Scores by reviewer', io)
  for (const reviewer of reviewers) note(reviewLines(system, view.drafts[reviewer]!).join('\n'), `${reviewer}'s review`, io)

  // A dry run per reviewer: what adopting each review would decide.
  const decisions = new Map<string, string>()
  for (const reviewer of reviewers) decisions.set(reviewer, (await adopt({ take: reviewer }, true)).adopted[0]?.decision ?? 'unchanged')
  const agreed = new Set(reviewers.map((reviewer) => fingerprint(view.drafts[reviewer]))).size === 1
  const take = await select({
    ...io,
    message: 'Adopt whose review? (a scored review is adopted whole)',
    options: reviewers.map((reviewer) => ({ value: reviewer, label: `${reviewer}'s`, hint: `the case would be ${decisions.get(reviewer)!}` })),
    ...(agreed ? { initialValue: reviewers[0]! } : {}),
  })
  if (isCancel(take)) return cancelled(io)
  log.info(`With ${take}'s review the case is ${decisions.get(take)!}.`, io)
  const write = await confirm({ ...io, message: `Adopt ${take}'s review?` })
  if (isCancel(write) || !write) return cancelled(io)
  const result = await adopt({ take }, false)
  outro(`Adopted: ${result.written.join(', ') || 'nothing to write'}`, io)
  return result
}

/** One row per dimension, one column per reviewer: the scores each review gives the debate system. */
function scoreTable(views: TerminalAdjudicationView<ScoredRubric, ScoredCase>['views']): string | undefined {
  const dimensions = [...new Set(views.flatMap((each) => Object.keys(each.items)))]
  if (dimensions.length === 0) return undefined
  const first = Math.max(...dimensions.map((dimension) => dimension.length))
  const widths = views.map((each) => Math.max(each.reviewer.length, ...dimensions.map((dimension) => (each.items[dimension]?.shown ?? '—').length)))
  const row = (label: string, cells: readonly string[]) =>
    [label.padEnd(first), ...cells.map((cell, index) => cell.padStart(widths[index]!))].join('  ').trimEnd()
  return [
    row(
      '',
      views.map((each) => each.reviewer),
    ),
    ...dimensions.map((dimension) =>
      row(
        dimension,
        views.map((each) => each.items[dimension]?.shown ?? '—'),
      ),
    ),
  ].join('\n')
}

function reviewLines(system: System, draft: Readonly<Record<string, unknown>>): string[] {
  // The reviews reach an adjudication only once checked as reviews of the kind: this parse is for the types.
  const parsed = ScoredReviewDraftSchemas[system].safeParse(draft)
  return parsed.success ? draftLines(parsed.data) : [JSON.stringify(draft, null, 2)]
}

function cancelled(io: Terminal): 'cancelled' {
  log.warn('Cancelled: nothing was written.', io)
  return 'cancelled'
}
