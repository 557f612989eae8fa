import { expectTypeOf, test } from 'vitest'
import type { InteractiveReview, KindTerminal, RecordedDraft } from '../../../src/core/contract/terminal.js'
import type { SomeKindDefinition } from '../../../src/core/contract/kind.js'
import { criteriaKind } from '../../../src/core/kinds/criteria/index.js'

type Rubric = { readonly question: string }
type Case = { readonly id: string; readonly answer: { readonly text: string } }

test("a kind's prompt reads its own case and rubric, typed, and gives back what it recorded", () => {
  const prompt: InteractiveReview<Rubric, Case> = async (target, _terminal, record) => {
    expectTypeOf(target.parsedCase.answer.text).toEqualTypeOf<string>()
    expectTypeOf(target.context.rubric.question).toEqualTypeOf<string>()
    return record({ verdict: 'yes', reason: target.parsedCase.id }, false)
  }
  // @ts-expect-error a prompt gives back the review its record function recorded, not a summary it makes up
  const madeUp: InteractiveReview<Rubric, Case> = async () => ({ decision: 'accepted', written: [] }) satisfies RecordedDraft
  const terminal: KindTerminal<Rubric, Case> = {
    // @ts-expect-error the case is the kind's: it has no field the kind does not give it
    review: async (target) => (target.parsedCase.spec === undefined ? 'cancelled' : 'cancelled'),
  }
  void [prompt, madeUp, terminal]
})

test('a definition with a terminal part is still a definition of some kind, as a registry and a command hold it', () => {
  expectTypeOf(criteriaKind).toExtend<SomeKindDefinition>()
})
