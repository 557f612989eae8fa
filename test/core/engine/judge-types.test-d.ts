import { expectTypeOf, test } from 'vitest'
import type {
  CaseJudge,
  CriterionJudge,
  JudgeCaseInput,
  JudgeCriterionInput,
  JudgeItemInput,
  JudgeItemsInput,
  JudgeModule,
  JudgeVerdict,
} from '../../../src/index.js'
import { runJudge } from '../../../src/index.js'

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

test("the judge types are a kind's: the criteria kind's by default, another kind's when given its input and verdict", () => {
  type CriteriaCaseInput = Omit<JudgeCriterionInput, 'criterion'>
  expectTypeOf<JudgeItemInput<CriteriaCaseInput, JudgeCriterionInput['criterion']>>().toEqualTypeOf<
    CriteriaCaseInput & Pick<JudgeCriterionInput, 'criterion'>
  >()
  expectTypeOf<JudgeCriterionInput>().toExtend<JudgeItemInput<CriteriaCaseInput, JudgeCriterionInput['criterion']>>()
  expectTypeOf<JudgeCaseInput>().toExtend<JudgeItemsInput<CriteriaCaseInput, JudgeCriterionInput['criterion']>>()

  // A third kind's judge: what its `KindJudging.input` shows of a case, its items and its verdict.
  type PairInput = { readonly prompt: string; readonly responses: readonly [string, string] }
  type Dimension = { readonly id: string; readonly scale: readonly [number, number] }
  type Score = { readonly score: number; readonly reason: string }
  const perItem: CriterionJudge<JudgeItemInput<PairInput, Dimension>, Score> = ({ prompt, criterion }) => ({ score: criterion.scale[0], reason: prompt })
  const perCase: CaseJudge<JudgeItemsInput<PairInput, Dimension>, Score> = async ({ criteria }) =>
    Object.fromEntries(criteria.map((dimension) => [dimension.id, { score: dimension.scale[1], reason: 'Both.' }]))
  // @ts-expect-error the kind's verdict, not the criteria kind's
  const wrongVerdict: CriterionJudge<JudgeItemInput<PairInput, Dimension>, Score> = () => ({ rating: 'meets', reason: 'Yes.' })
  const module: JudgeModule<JudgeItemInput<PairInput, Dimension>, JudgeItemsInput<PairInput, Dimension>, Score> = { judgeCase: perCase }
  void [perItem, wrongVerdict, module]

  // runJudge takes a judge of the kind it is told, and checks one as the criteria kind's otherwise (the calls are compiled, not run).
  const typed = () =>
    runJudge<JudgeItemInput<PairInput, Dimension>, JudgeItemsInput<PairInput, Dimension>, Score>('fixtures/pairs', {
      cwd: '.',
      judge: 'pair-judge',
      run: { perCriterion: perItem },
    })
  // @ts-expect-error a judge of another kind, the kind not said
  const untold = () => runJudge('fixtures/pairs', { cwd: '.', judge: 'pair-judge', run: { perCriterion: perItem } })
  const inline = () =>
    runJudge('fixtures/lab', {
      cwd: '.',
      judge: 'inline',
      run: {
        perCriterion: ({ criterion }) => {
          expectTypeOf(criterion).toEqualTypeOf<JudgeCriterionInput['criterion']>()
          return { rating: 'uncertain', reason: criterion.rule }
        },
      },
    })
  // @ts-expect-error an inline judge of the criteria kind gives its verdict
  const wrongInline = () => runJudge('fixtures/lab', { cwd: '.', judge: 'inline', run: { perCriterion: () => ({ rating: 'fine', reason: 'Yes.' }) } })
  void [typed, untold, inline, wrongInline]
})
