import { confirm, intro, isCancel, log, note, outro, select, text } from '@clack/prompts'
import { RATINGS, type Case } from '../../core/kinds/criteria/schemas.js'
import type { CriteriaRubric } from '../../core/kinds/criteria/rubric.js'
import type { InteractiveAdjudication, Terminal } from './prompt.js'

const WRITE = '\u0000write'
const LEAVE_OUT = '\u0000leave out'

interface Judgement {
  readonly rating: string
  readonly reason: string
  readonly answer_span: string
}

/**
 * Asks an adjudicator, criterion by criterion, which reviewer's judgement to adopt (shown side by
 * side) or to write one; shows the decision the adopted review would give, and adopts after
 * confirmation.
 */
export const promptCriteriaAdjudication: InteractiveAdjudication = async (view, terminal, adopt) => {
  const io = { input: terminal.input, output: terminal.output }
  // Cast: the CLI asks this prompt only of a criteria fixture (src/cli/kinds.ts), whose case and rubric these are.
  const theCase = view.target.parsedCase as Case
  // Cast: as above, the rubric.
  const rubric = view.target.context.rubric as CriteriaRubric
  const answer = theCase.input.answer.text
  const reviewers = view.views.map((each) => each.reviewer)
  intro(`vitest-rubric adjudicate: case ${theCase.id} of ${view.target.fixture.displayDir} (${reviewers.join(', ')})`, io)
  note(`${theCase.input.question}\n\nAnswer:\n${answer}`, 'The question and the answer', io)

  const picks: Record<string, string> = {}
  const written: Record<string, Judgement> = {}
  for (const [id, criterion] of rubric.criteria) {
    // Cast: a reviewer's draft of this kind holds judgements by criterion, as its schema parsed them.
    const judged = reviewers.map((reviewer) => [reviewer, view.drafts[reviewer]![id] as Judgement | undefined] as const)
    const lines = judged.map(([reviewer, judgement]) =>
      judgement === undefined
        ? `${reviewer}: not judged`
        : `${reviewer}: ${judgement.rating} — ${judgement.reason}${judgement.answer_span === '' ? '' : ` (span: "${judgement.answer_span}")`}`,
    )
    note(`${criterion.rule}\n\n${lines.join('\n')}`, `Criterion ${id}`, io)
    const ratings = new Set(judged.map(([, judgement]) => judgement?.rating ?? ''))
    const options = [
      ...judged
        .filter(([, judgement]) => judgement !== undefined)
        .map(([reviewer, judgement]) => ({ value: reviewer, label: `${reviewer}'s: ${judgement!.rating}` })),
      { value: WRITE, label: 'write my own' },
      { value: LEAVE_OUT, label: 'leave out', hint: 'not judged: the case stays pending' },
    ]
    const agreed = ratings.size === 1 && !ratings.has('') ? reviewers[0]! : undefined
    const choice = await select({ ...io, message: `Adopt for ${id}`, options, ...(agreed === undefined ? {} : { initialValue: agreed }) })
    if (isCancel(choice)) return cancelled(io)
    if (choice === LEAVE_OUT) continue
    if (choice !== WRITE) {
      picks[id] = choice
      continue
    }
    const rating = await select({ ...io, message: `Rating of ${id}`, options: RATINGS.map((value) => ({ value, label: value })) })
    if (isCancel(rating)) return cancelled(io)
    const reason = await text({ ...io, message: `Why?`, validate: (value) => ((value ?? '').trim() === '' ? 'A reason is needed: say why.' : undefined) })
    if (isCancel(reason)) return cancelled(io)
    const span = await text({
      ...io,
      message: 'The span of the answer it rests on (an exact excerpt; empty for an omission)',
      validate: (value) => (answer.includes(value ?? '') ? undefined : 'That text does not occur in the answer: copy it exactly, or leave it empty.'),
    })
    if (isCancel(span)) return cancelled(io)
    written[id] = { rating, reason, answer_span: span ?? '' }
  }
  const choice = { picks, written }
  const preview = await adopt(choice, true)
  log.info(`With this adoption the case is ${preview.adopted[0]?.decision ?? 'unchanged'}.`, io)
  const write = await confirm({ ...io, message: 'Adopt this review?' })
  if (isCancel(write) || !write) return cancelled(io)
  const result = await adopt(choice, false)
  outro(`Adopted: ${result.written.join(', ') || 'nothing to write'}`, io)
  return result
}

function cancelled(io: Terminal): 'cancelled' {
  log.warn('Cancelled: nothing was written.', io)
  return 'cancelled'
}
