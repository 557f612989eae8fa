import { confirm, intro, isCancel, log, note, outro, select, text } from '@clack/prompts'
import { isOriginPlaceholder } from '../../../common/origin.js'
import { listWords, plural } from '../../../common/primitives.js'
import { disputeOf, type Dispute } from '../../../engine/adjudicate.js'
import { RATINGS, type Case } from '../schemas.js'
import type { CriteriaRubric } from '../rubric.js'
import type { InteractiveAdjudication, Terminal, TerminalAdjudicationView } from '../../../contract/terminal.js'
import { numberedAnswer, resolveSpan, sentencesOf, type Sentence } from '../../../common/sentences.js'

type View = TerminalAdjudicationView<CriteriaRubric, Case>

// Option values no reviewer name can take: a reviewer is named by letters, digits, ".", "_" and "-".
const WRITE = '\u0000write'
const LEAVE_OUT = '\u0000leave out'
const BACK = '\u0000back'
const ADOPT_AGREED = '\u0000adopt agreed'
const ONE_BY_ONE = '\u0000one by one'

interface Judgement {
  readonly rating: string
  readonly reason: string
  readonly answer_span: string
}

/** What the adjudicator chose for a criterion: a reviewer's judgement, their own, or none. */
type Choice = { readonly pick: string } | { readonly written: Judgement } | 'leave out'

/** A criterion as the adjudicator meets it: agreed (every reviewer gave the same settled rating) or not, and why. */
interface Item {
  readonly id: string
  readonly rule: string
  readonly judged: readonly (readonly [string, Judgement | undefined])[]
  /** `undefined` when the reviewers agree; otherwise what keeps them from it. */
  readonly dispute: Dispute | undefined
}

/** One step of the prompt: a criterion, or the agreed criteria at once. */
type Step = { readonly item: Item } | { readonly agreed: readonly Item[] }

/**
 * Asks an adjudicator what to adopt, showing what matters first: the criteria the reviewers dispute
 * (or leave uncertain, or leave unjudged), marked, one by one with each reviewer's rating, reason and
 * span, to take one reviewer's judgement or to write one (a span by sentence number, as in the
 * review); then the criteria they agree on, pre-filled, adopted with one key (or gone through one by
 * one). An automated judge's label is shown beside the reviews as a prediction, never adopted. Each
 * step can go back to the one before. It shows the decision the adopted review would give, and
 * adopts after confirmation.
 */
export const promptCriteriaAdjudication: InteractiveAdjudication<CriteriaRubric, Case> = async (view, terminal, adopt) => {
  const io = { input: terminal.input, output: terminal.output }
  const theCase = view.target.parsedCase
  const rubric = view.target.context.rubric
  const answer = theCase.input.answer.text
  const sentences = sentencesOf(answer)
  const reviewers = view.views.map((each) => each.reviewer)
  const items = [...rubric.criteria].map(([id, criterion]) => itemOf(view, reviewers, id, criterion.rule))
  const disputed = items.filter((item) => item.dispute !== undefined)
  const agreed = items.filter((item) => item.dispute === undefined)

  intro(`vitest-rubric adjudicate: case ${theCase.id} of ${view.target.fixture.displayDir} (${reviewers.join(', ')})`, io)
  note(`${theCase.input.question}\n\nAnswer, by sentence:\n${numberedAnswer(sentences)}`, 'The question and the answer', io)
  note(
    [
      disputed.length === 0
        ? 'The reviewers agree on every criterion.'
        : `To adjudicate first: ${disputed.map((item) => `${item.id} (${item.dispute})`).join(', ')}.`,
      agreed.length === 0 ? 'No criterion is agreed.' : `Agreed, pre-filled: ${listWords(agreed.map((item) => item.id))}.`,
      ...predictionNotes(view),
    ].join('\n'),
    'What needs you',
    io,
  )

  const choices = new Map<string, Choice>()
  const steps: Step[] = [...disputed.map((item) => ({ item })), ...(agreed.length === 0 ? [] : [{ agreed }])]
  let index = 0
  while (index < steps.length) {
    const step = steps[index]!
    const back = index > 0 ? stepName(steps[index - 1]!) : undefined
    if ('agreed' in step) {
      note(step.agreed.map((item) => agreedLine(item, view)).join('\n'), `Agreed by ${listWords(reviewers)}`, io)
      const choice = await select({
        ...io,
        message: `Adopt the ${step.agreed.length === 1 ? 'agreed judgement' : plural(step.agreed.length, 'agreed judgement')} as they are?`,
        options: [
          { value: ADOPT_AGREED, label: 'adopt them as they are', hint: `${reviewers[0]}'s reason and span for each` },
          { value: ONE_BY_ONE, label: 'go through them one by one', hint: 'each pre-filled: Enter keeps it' },
          ...(back === undefined ? [] : [{ value: BACK, label: `back to ${back}` }]),
        ],
      })
      if (isCancel(choice)) return cancelled(io)
      if (choice === BACK) {
        index--
        continue
      }
      if (choice === ONE_BY_ONE) {
        steps.splice(index, 1, ...step.agreed.map((item) => ({ item })))
        continue
      }
      for (const item of step.agreed) choices.set(item.id, { pick: reviewers[0]! })
      index++
      continue
    }
    const { item } = step
    const position = disputed.indexOf(item)
    const title = item.dispute === undefined ? `Agreed: ${item.id}` : `⚠ ${item.dispute} (${position + 1} of ${disputed.length}): ${item.id}`
    note(`${item.rule}\n\n${[...reviewLines(item), ...predictionLines(view, item.id)].join('\n')}`, title, io)
    const earlier = choices.get(item.id)
    const initial = initialOf(item, earlier, reviewers[0]!)
    const choice = await select({
      ...io,
      message: `Adopt for ${item.id}`,
      options: [
        ...item.judged.flatMap(([reviewer, judgement]) =>
          judgement === undefined ? [] : [{ value: reviewer, label: `take ${reviewer}'s: ${judgement.rating}` }],
        ),
        { value: WRITE, label: 'write my own' },
        { value: LEAVE_OUT, label: 'leave out', hint: 'not judged: the case stays pending' },
        ...(back === undefined ? [] : [{ value: BACK, label: `back to ${back}` }]),
      ],
      ...(initial === undefined ? {} : { initialValue: initial }),
    })
    if (isCancel(choice)) return cancelled(io)
    if (choice === BACK) {
      index--
      continue
    }
    if (choice === LEAVE_OUT) choices.set(item.id, 'leave out')
    else if (choice === WRITE) {
      const written = await writeJudgement(
        io,
        item.id,
        answer,
        sentences,
        earlier !== undefined && earlier !== 'leave out' && 'written' in earlier ? earlier.written : undefined,
      )
      if (written === 'cancelled') return cancelled(io)
      choices.set(item.id, { written })
    } else choices.set(item.id, { pick: choice })
    index++
  }

  const picks: Record<string, string> = {}
  const written: Record<string, Judgement> = {}
  for (const [id, choice] of choices) {
    if (choice === 'leave out') continue
    if ('pick' in choice) picks[id] = choice.pick
    else written[id] = choice.written
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

function itemOf(view: View, reviewers: readonly string[], id: string, rule: string): Item {
  // Cast: a reviewer's draft of this kind holds judgements by criterion, as its schema parsed them.
  const judged = reviewers.map((reviewer) => [reviewer, view.drafts[reviewer]![id] as Judgement | undefined] as const)
  return {
    id,
    rule,
    judged,
    dispute: disputeOf(
      judged.map(([, judgement]) => judgement?.rating),
      'uncertain',
    ),
  }
}

/** Where the choice of a criterion starts: what was chosen before a step back, else the first reviewer's judgement of an agreed one. */
function initialOf(item: Item, earlier: Choice | undefined, first: string): string | undefined {
  if (earlier === undefined) return item.dispute === undefined ? first : undefined
  if (earlier === 'leave out') return LEAVE_OUT
  return 'pick' in earlier ? earlier.pick : WRITE
}

function stepName(step: Step): string {
  return 'agreed' in step ? 'the agreed criteria' : step.item.id
}

/** Each reviewer's judgement, inline: rating, reason and span. */
function reviewLines(item: Item): string[] {
  return item.judged.map(([reviewer, judgement]) =>
    judgement === undefined ? `${reviewer}: not judged` : `${reviewer}: ${judgement.rating} — ${judgement.reason}${spanText(judgement)}`,
  )
}

function agreedLine(item: Item, view: View): string {
  const [reviewer, judgement] = item.judged[0]!
  const predicted = predictionLines(view, item.id).map((line) => `\n    ${line}`)
  return `${item.id}: ${judgement?.rating ?? ''} — ${reviewer}: ${judgement?.reason ?? ''}${judgement === undefined ? '' : spanText(judgement)}${predicted.join('')}`
}

function spanText(judgement: Judgement): string {
  return judgement.answer_span === '' ? ' (no span: an omission)' : ` (span: "${judgement.answer_span}")`
}

/** The judges' labels of a criterion, each labelled as a prediction. */
function predictionLines(view: View, id: string): string[] {
  return view.predictions.flatMap((prediction) => {
    if (prediction.draft === undefined) return []
    // Cast: a judge's label is a draft of the kind, as a review is.
    const label = prediction.draft[id] as Judgement | undefined
    return label === undefined ? [] : [`judge ${prediction.judge}, a prediction, not a review: ${label.rating} — ${label.reason}${spanText(label)}`]
  })
}

/** What the judges' files say about the case as a whole: whose labels are shown, and which are not current. */
function predictionNotes(view: View): string[] {
  return view.predictions.map((prediction) => {
    const origin = isOriginPlaceholder(prediction.origin) ? 'origin not given' : prediction.origin
    return prediction.draft === undefined
      ? `The label of judge ${prediction.judge} (${origin}) is not shown: ${(prediction.refused ?? 'it is not current').replace(/\.$/u, '')}.`
      : `Judge ${prediction.judge} (${origin}) labelled the case: its labels are shown as predictions, to weigh, never adopted.`
  })
}

/** The adjudicator's own judgement: a rating, a reason, and a span by sentence number or as text. */
async function writeJudgement(
  io: Terminal,
  id: string,
  answer: string,
  sentences: readonly Sentence[],
  before: Judgement | undefined,
): Promise<Judgement | 'cancelled'> {
  note(numberedAnswer(sentences), 'Answer, by sentence', io)
  const rating = await select({
    ...io,
    message: `Rating of ${id}`,
    options: RATINGS.map((value) => ({ value, label: value })),
    ...(before === undefined ? {} : { initialValue: before.rating }),
  })
  if (isCancel(rating)) return 'cancelled'
  const reason = await text({
    ...io,
    message: 'Why?',
    ...(before === undefined ? {} : { initialValue: before.reason }),
    validate: (value) => ((value ?? '').trim() === '' ? 'A reason is needed: say why.' : undefined),
  })
  if (isCancel(reason)) return 'cancelled'
  const typed = await text({
    ...io,
    message: 'The span of the answer it rests on: a sentence (2), a range (2-3) or an exact excerpt; empty for an omission',
    ...(before === undefined ? {} : { initialValue: before.answer_span }),
    validate: (value) => {
      const resolved = resolveSpan(value ?? '', answer, sentences)
      return 'problem' in resolved ? resolved.problem : undefined
    },
  })
  if (isCancel(typed)) return 'cancelled'
  const resolved = resolveSpan(typed ?? '', answer, sentences)
  return { rating, reason, answer_span: 'span' in resolved ? resolved.span : '' }
}

function cancelled(io: Terminal): 'cancelled' {
  log.warn('Cancelled: nothing was written.', io)
  return 'cancelled'
}
