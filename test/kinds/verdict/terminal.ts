import { confirm, intro, isCancel, log, note, outro, select, text } from '@clack/prompts'
import type { InteractiveReview, Terminal } from '../../../src/core/contract/terminal.js'

// A verdict asked on a terminal: the question and the answer, then the verdict and its reason; the
// decision it gives is shown before anything is written.

const VERDICTS = [
  { value: 'yes', hint: 'the case is accepted' },
  { value: 'no', hint: 'the case is rejected' },
  { value: 'unsure', hint: 'the case stays pending' },
] as const

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}

// It reads only the rubric's question and the case's id and answer: the kind's own types stay in index.ts.
export const promptVerdictReview: InteractiveReview<
  { readonly question: string },
  { readonly id: string; readonly answer: { readonly text: string } }
> = async (target, terminal, recordDraft) => {
  const io = { input: terminal.input, output: terminal.output }
  const previous = record(target.existing?.value)
  intro(`vitest-rubric review: case ${target.parsedCase.id} of ${target.fixture.displayDir}`, io)
  note(`${target.context.rubric.question}\n\nAnswer: ${target.parsedCase.answer.text}`, 'The question and the answer', io)
  const verdict = await select({
    ...io,
    message: 'Verdict',
    options: VERDICTS.map(({ value, hint }) => ({ value, label: value, hint })),
    ...(typeof previous['verdict'] === 'string' ? { initialValue: previous['verdict'] } : {}),
  })
  if (isCancel(verdict)) return cancelled(io)
  const reason = await text({ ...io, message: 'Why?', validate: (value) => ((value ?? '').trim() === '' ? 'A reason is needed: say why.' : undefined) })
  if (isCancel(reason)) return cancelled(io)
  const draft = { verdict, reason }
  const preview = await recordDraft(draft, true)
  log.info(`With this review the case is ${preview.decision}.`, io)
  const write = await confirm({ ...io, message: `Write the review to ${target.file}?` })
  if (isCancel(write) || !write) return cancelled(io)
  const result = await recordDraft(draft, false)
  outro(`Recorded: ${result.written.join(' and ') || 'nothing to write'}`, io)
  return result
}

function cancelled(io: Terminal): 'cancelled' {
  log.warn('Cancelled: nothing was written.', io)
  return 'cancelled'
}
