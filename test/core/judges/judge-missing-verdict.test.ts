import { cp } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runJudge } from '../../../src/core/judges/judge-run.js'
import type { CaseJudge, CriterionJudge } from '../../../src/core/judges/judge-types.js'
import { kinds } from '../../../src/core/registry.js'
import { DOCUCTL } from '../../helpers/fixture-copy.js'
import { scratchDir } from '../../helpers/scratch.js'

/*
 * A judge module that leaves a verdict out is told which one, and what it owes: a `judgeCase` one
 * verdict for every criterion it is given, by id; a per-criterion judge the verdict of its
 * criterion. Never the schema's "Invalid input: expected object, received undefined".
 */

async function lab(): Promise<string> {
  const root = await scratchDir('judge-missing-verdict')
  await cp(DOCUCTL, join(root, 'lab'), { recursive: true })
  return root
}

const verdict = { rating: 'meets', reason: 'Meets it.', span: '' }

describe('a judge module that leaves a verdict out', () => {
  test('judgeCase without a criterion it was given: the call names the criterion left out, and every criterion it owes', async () => {
    const root = await lab()
    const perCase: CaseJudge = async ({ criteria }) =>
      Object.fromEntries(criteria.filter((criterion) => criterion.id !== 'support').map((criterion) => [criterion.id, verdict])) as never
    const result = await runJudge('lab', { cwd: root, kinds, judge: 'jc', run: { perCase }, retries: 0 })
    expect(result.written).toBe(0)
    expect(result.failures).toHaveLength(40)
    expect(new Set(result.failures.map((failure) => failure.error))).toEqual(
      new Set([
        'the judge returned no verdict for "support" (judgeCase must return one for every criterion it is given, by id: command, preconditions, database_scope, verification, support)',
      ]),
    )
  })

  test('a per-criterion judge that returns nothing is told it returned undefined, not a verdict', async () => {
    const root = await lab()
    const perCriterion: CriterionJudge = async () => undefined as never
    const result = await runJudge('lab', { cwd: root, kinds, judge: 'pc', run: { perCriterion }, retries: 0 })
    expect(result.failures).toHaveLength(40)
    expect(new Set(result.failures.map((failure) => failure.error))).toEqual(
      new Set([
        'the judge returned undefined, not a verdict: its default export must return the verdict of the criterion it is given (it is called once for each of the criteria)',
      ]),
    )
  })
})
