import { describe, expect, test } from 'vitest'
import { evaluateFixture } from '../../../../src/core/engine/evaluate.js'
import type { ScoredDecision } from '../../../../src/core/kinds/scored/decision.js'
import { loadFixtureOfKind } from '../../../helpers/load-kind.js'
import { copyDebate } from '../../../helpers/scored-copy.js'

async function decisionOf(dir: string, id: string): Promise<ScoredDecision> {
  const decision = evaluateFixture(await loadFixtureOfKind('scored', dir)).decisions.find((item) => item.id === id)
  if (decision === undefined || !('baseline' in decision)) throw new Error(`no scored decision for ${id}`)
  return decision
}

describe('what provenance accepts', () => {
  test('a defense that never speaks: no_engagement quotes nothing, so there is no defense turn to find', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      const transcript = cases.cases[0]!.outputs.debate.transcript
      cases.cases[0]!.outputs.debate.transcript = transcript.filter((turn) => turn.agent !== 'defense')
    })
    await copy.editReview('partial-recall', 'debate', (review) => {
      for (const claim of review.claims) claim.defense = { response: 'no_engagement', span: '' }
      review.resolution.defense_final = null
    })
    await copy.rebind('partial-recall', 'debate')
    const decision = await decisionOf(copy.dir, 'partial-recall')
    expect(decision.status).toBe('rejected')
    expect(decision.status === 'rejected' && decision.card.dimensions['defense_calibration']).toEqual({
      score: 0,
      detail: 'mean of 2 instances: (A) C1 no_engagement 0, (A) C2 no_engagement 0',
    })
  })
})
