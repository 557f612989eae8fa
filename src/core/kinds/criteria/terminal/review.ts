import { confirm, intro, isCancel, log, note, outro, select, text } from '@clack/prompts'
import { isObject } from '../../../common/primitives.js'
import { RATINGS, type Case } from '../schemas.js'
import type { CriteriaRubric } from '../rubric.js'
import type { InteractiveReview, Terminal } from '../../../contract/terminal.js'
import { numberedAnswer, resolveSpan, sentencesOf } from '../../../common/sentences.js'

const LEAVE_OUT = 'leave out'
const BACK = '\u0000back'

const RATING_HINTS: Record<(typeof RATINGS)[number], string> = {
  meets: 'the answer meets the rule',
  does_not_meet: 'the answer does not meet it: the case is rejected',
  uncertain: 'cannot tell yet: the case stays pending',
}

/**
 * Asks a reviewer for a criteria review, criterion by criterion: the rating, the reason and the
 * span of the answer it rests on, given by sentence numbers (the answer is shown numbered beside
 * each criterion) or as an exact excerpt (checked to occur in the answer, asked again when it does
 * not). Each criterion after the first can step back to the one before it. A replaced review's
 * judgements are offered as the starting values. Of a review bound to an earlier rubric found in
 * git, a criterion whose rule and reference quote are unchanged is offered as carried over: its
 * judgement is kept only when the reviewer confirms it, one criterion at a time; declined, it is
 * asked as any other. It shows the decision the review would give and writes only after the
 * reviewer confirms.
 */
export const promptCriteriaReview: InteractiveReview<CriteriaRubric, Case> = async (target, terminal, record) => {
  const io = { input: terminal.input, output: terminal.output }
  const theCase = target.parsedCase
  const rubric = target.context.rubric
  const answer = theCase.input.answer.text
  const previous = isObject(target.existing?.value) && isObject(target.existing.value['judgements']) ? target.existing.value['judgements'] : {}

  const sentences = sentencesOf(answer)
  const numbered = numberedAnswer(sentences)
  intro(`vitest-rubric review: case ${theCase.id} of ${target.fixture.displayDir}`, io)
  note(`${theCase.input.question}\n\nAnswer, by sentence:\n${numbered}\n\nCitation: ${theCase.input.answer.citation}`, 'The question and the answer', io)

  const carried = new Set(target.carried?.items ?? [])
  if (target.carried !== undefined && target.carried.changes.length > 0) {
    const confirmEach = carried.size === 0 ? '' : '\n\nThe unchanged criteria are carried over only once you confirm each.'
    note(`${target.carried.changes.join('\n')}${confirmEach}`, 'Changed since this review', io)
  }

  const draft: Record<string, { rating: string; reason: string; answer_span: string }> = {}
  // What was answered for each criterion, kept when the reviewer steps back to it.
  const answered: Record<string, { rating: string; reason?: string; answer_span?: string }> = {}
  const criteria = [...rubric.criteria]
  let index = 0
  while (index < criteria.length) {
    const [id, criterion] = criteria[index]!
    // Cast: an earlier draft of this kind is an object of judgements by criterion.
    const before = answered[id] ?? (isObject(previous[id]) ? (previous[id] as Record<string, unknown>) : undefined)
    const title = `Criterion ${index + 1} of ${criteria.length}: ${id}`
    // Unchanged since the review: offered as it was, once, until the reviewer answers for it (a step back asks it again).
    const kept = carried.has(id) && answered[id] === undefined ? keptJudgement(before) : undefined
    if (kept !== undefined) {
      const span = kept.answer_span === '' ? 'none (an omission)' : `"${kept.answer_span}"`
      note(
        `${criterion.rule}\n\nReference quote: "${criterion.reference_quote}"\n\nThe review's judgement: ${kept.rating}\nReason: ${kept.reason}\nSpan: ${span}`,
        `${title} (unchanged since the review: carried over, confirm)`,
        io,
      )
      const keep = await confirm({ ...io, message: `Keep the judgement of ${id} as it is?`, active: 'yes, carry it over', inactive: 'no, judge it again' })
      if (isCancel(keep)) return cancelled(io)
      if (keep) {
        draft[id] = kept
        answered[id] = kept
        index++
        continue
      }
    }
    // The answer, numbered, stays beside each criterion: a span is given by its sentence numbers.
    note(`${criterion.rule}\n\nReference quote: "${criterion.reference_quote}"\n\nAnswer, by sentence:\n${numbered}`, title, io)
    const back = index > 0 ? criteria[index - 1]![0] : undefined
    const rating = await select({
      ...io,
      message: `Rating of ${id}`,
      options: [
        ...RATINGS.map((value) => ({ value, label: value, hint: RATING_HINTS[value] })),
        { value: LEAVE_OUT, label: LEAVE_OUT, hint: 'not judged: the case stays pending' },
        ...(back === undefined ? [] : [{ value: BACK, label: `back to ${back}`, hint: 'the previous criterion again, as answered' }]),
      ],
      ...(typeof before?.['rating'] === 'string' ? { initialValue: before['rating'] } : {}),
    })
    if (isCancel(rating)) return cancelled(io)
    if (rating === BACK) {
      index--
      continue
    }
    if (rating === LEAVE_OUT) {
      delete draft[id]
      answered[id] = { ...answered[id], rating: LEAVE_OUT }
      index++
      continue
    }
    const reason = await text({
      ...io,
      message: `Why does the answer ${rating === 'meets' ? 'meet' : rating === 'does_not_meet' ? 'not meet' : 'leave you uncertain on'} ${id}?`,
      // The earlier reason says why of the earlier rating: a changed rating starts with an empty reason, never one that contradicts it.
      ...(typeof before?.['reason'] === 'string' && before['rating'] === rating ? { initialValue: before['reason'] } : {}),
      validate: (value) => ((value ?? '').trim() === '' ? 'A reason is needed: say why.' : undefined),
    })
    if (isCancel(reason)) return cancelled(io)
    const typed = await text({
      ...io,
      message: 'The span of the answer it rests on: a sentence (2), a range (2-3) or an exact excerpt; empty for an omission',
      ...(typeof before?.['answer_span'] === 'string' ? { initialValue: before['answer_span'] } : {}),
      validate: (value) => {
        const resolved = resolveSpan(value ?? '', answer, sentences)
        return 'problem' in resolved ? resolved.problem : undefined
      },
    })
    if (isCancel(typed)) return cancelled(io)
    const resolved = resolveSpan(typed ?? '', answer, sentences)
    // Validated above: the typed text resolves.
    const span = 'span' in resolved ? resolved.span : ''
    if (span !== (typed ?? '')) log.info(`Span of ${id}: "${span}"`, io)
    draft[id] = { rating, reason, answer_span: span }
    answered[id] = draft[id]
    index++
  }

  const preview = await record(draft, true)
  log.info(`With this review the case is ${preview.decision}.`, io)
  const write = await confirm({ ...io, message: `Write the review to ${target.file}?` })
  if (isCancel(write) || !write) return cancelled(io)
  const result = await record(draft, false)
  outro(`Recorded: ${result.written.join(' and ') || 'nothing to write'}`, io)
  return result
}

function cancelled(io: Terminal): 'cancelled' {
  log.warn('Cancelled: nothing was written.', io)
  return 'cancelled'
}

/** A judgement of the replaced review as a draft takes it, when it has every field. */
function keptJudgement(before: Record<string, unknown> | undefined): { rating: string; reason: string; answer_span: string } | undefined {
  const rating = before?.['rating']
  const reason = before?.['reason']
  const span = before?.['answer_span']
  return typeof rating === 'string' && typeof reason === 'string' && typeof span === 'string' ? { rating, reason, answer_span: span } : undefined
}
