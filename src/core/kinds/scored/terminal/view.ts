import { plural } from '../../../common/primitives.js'
import { preview } from '../../../common/errors.js'
import type { ScoredReviewDraftSchemas } from '../authoring.js'
import type { BaselineClaim, DebateClaim, ScoredCase, System } from '../schemas.js'
import type { z } from 'zod'
import { numberTexts, numberedAnswer, type NumberedText } from '../../../common/sentences.js'

/** A scored review as a reviewer gives it: everything but its case, system and hashes. */
export type DebateDraft = z.infer<(typeof ScoredReviewDraftSchemas)['debate']>
export type BaselineDraft = z.infer<(typeof ScoredReviewDraftSchemas)['baseline']>

/** What a review of the case is judged against: the input, the ideal resolution and the ground truth. */
export function specNote(theCase: ScoredCase): string {
  const { spec } = theCase
  const issues = spec.ground_truth.planted_issues
  const verdict = spec.ground_truth.final_verdict
  return [
    spec.input,
    '',
    `Ideal resolution: ${spec.ideal_debate_resolution}, within ${plural(spec.max_rounds, 'round')}`,
    issues.length === 0
      ? 'Planted issues: none'
      : `Planted issues:\n${issues.map((issue) => `  ${issue.id} (${issue.location}): ${issue.description}`).join('\n')}`,
    `Correct verdict: ${verdict === null || verdict === undefined ? 'none (final_verdict_correctness is not scored)' : JSON.stringify(verdict)}`,
  ].join('\n')
}

/** The texts of the output under review, in the order they are shown: the debate's turns, or the baseline's answer and self-critique. */
export function outputTexts(theCase: ScoredCase, system: System): string[] {
  if (system === 'debate') return theCase.outputs.debate.transcript.map((turn) => turn.text)
  return [theCase.outputs.baseline.answer, theCase.outputs.baseline.self_critique]
}

/** The output's texts with their sentences numbered in one sequence, as {@link outputNote} shows them. */
export function numberedOutput(theCase: ScoredCase, system: System): NumberedText[] {
  return numberTexts(outputTexts(theCase, system))
}

/** The output under review, its sentences numbered: the debate's transcript turn by turn, or the baseline's answer and self-critique. */
export function outputNote(theCase: ScoredCase, system: System): { readonly title: string; readonly text: string } {
  const numbered = numberedOutput(theCase, system)
  const lines = (piece: NumberedText | undefined) => (piece === undefined ? '' : numberedAnswer(piece.sentences))
  if (system === 'debate') {
    return {
      title: 'The debate transcript, by sentence',
      text: theCase.outputs.debate.transcript.map((turn, index) => `round ${turn.round} · ${turn.agent}:\n${lines(numbered[index])}`).join('\n'),
    }
  }
  return { title: "The baseline's answer and self-critique, by sentence", text: `Answer:\n${lines(numbered[0])}\n\nSelf-critique:\n${lines(numbered[1])}` }
}

/** One claim on one line: its validity, the issue it finds, the other side's handling, its excerpt. */
export function claimLine(claim: DebateClaim | BaselineClaim): string {
  const planted = claim.validity === 'planted' ? ` ${claim.planted_issue ?? '?'} (${claim.credit ?? '?'})` : ''
  const handled =
    'defense' in claim
      ? `, defense ${claim.defense.response}${claim.defense.position_updated === undefined ? '' : claim.defense.position_updated ? ', position updated' : ', position not updated'}`
      : claim.answer_handling === undefined
        ? ''
        : `, answer ${claim.answer_handling}`
  return `${claim.id} ${claim.validity}${planted}${handled}: ${preview(claim.span, 60)}`
}

/** A whole scored review in a few lines: claims, resolution, empirical test, final verdict. */
export function draftLines(draft: DebateDraft | BaselineDraft): string[] {
  const resolution =
    'critique_final' in draft.resolution
      ? `critique ${draft.resolution.critique_final ?? 'none'}, defense ${draft.resolution.defense_final ?? 'none'}${draft.resolution.more_rounds_than_necessary ? ', more rounds than necessary' : ''}`
      : `reached ${draft.resolution.reached ?? 'none'}`
  const test = draft.empirical_test
  return [
    ...(draft.claims.length === 0 ? ['no claim'] : draft.claims.map(claimLine)),
    `resolution: ${resolution}`,
    `empirical test: ${test === null ? 'none' : `${'proposed_by' in test ? `by ${test.proposed_by}, ` : ''}${test.quality}`}`,
    `final verdict: ${draft.final_verdict === null ? 'none' : JSON.stringify(draft.final_verdict)}`,
  ]
}
