import { expectTypeOf, test } from 'vitest'
import type { CaseJudge, CriterionJudge, JudgeVerdict } from '../../../src/index.js'

test('a criterion judge is given the case, its answer and the criterion, and returns a verdict, at once or later', () => {
  const judge: CriterionJudge = async ({ answer, criterion, case: theCase, rubric, source, question }) => {
    expectTypeOf(answer.text).toEqualTypeOf<string>()
    expectTypeOf(criterion.reference_quote).toEqualTypeOf<string>()
    expectTypeOf(theCase.id).toEqualTypeOf<string>()
    expectTypeOf(rubric.criteria).toBeArray()
    expectTypeOf(source).toEqualTypeOf<string>()
    expectTypeOf(question).toEqualTypeOf<string>()
    return { rating: 'meets', reason: 'Yes.', span: answer.text.slice(0, 4) }
  }
  const synchronous: CriterionJudge = () => ({ rating: 'uncertain', reason: 'Unsure.' })
  // @ts-expect-error a rating the rubric does not have
  const wrongRating: CriterionJudge = async () => ({ rating: 'fine', reason: 'Yes.' })
  // @ts-expect-error a verdict needs a reason
  const noReason: CriterionJudge = async () => ({ rating: 'meets' })
  void [judge, synchronous, wrongRating, noReason]
})

test('a case judge is given the criteria still to judge and returns a verdict by criterion id', () => {
  const judge: CaseJudge = async ({ criteria }) =>
    Object.fromEntries(criteria.map((criterion) => [criterion.id, { rating: 'does_not_meet', reason: criterion.rule } satisfies JudgeVerdict]))
  // @ts-expect-error a case judge's verdicts are keyed by criterion, not a list
  const list: CaseJudge = async ({ criteria }) => criteria.map(() => ({ rating: 'meets', reason: 'Yes.' }))
  void [judge, list]
})
