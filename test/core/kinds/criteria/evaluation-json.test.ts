import { describe, expect, test } from 'vitest'
import { evaluateFixture } from '../../../../src/core/engine/evaluate.js'
import { fileNamesOf } from '../../../../src/core/registry.js'

const CRITERIA_FILES = fileNamesOf('criteria')
import { evaluationJson } from '../../../../src/core/engine/evaluation-json.js'
import { DOCUCTL } from '../../../helpers/fixture-copy.js'
import { editCriteriaFiles, loadCriteriaFromMemory, readFixtureFiles, type CriteriaEdits } from '../../../helpers/in-memory-fixture.js'

// What `vitest-rubric evaluate --json` prints for a criteria fixture, from the bundled one edited in memory.
const bundled = await readFixtureFiles(DOCUCTL, CRITERIA_FILES)
const recordOf = async (edits: CriteriaEdits = {}) => evaluationJson(evaluateFixture(await loadCriteriaFromMemory(editCriteriaFiles(bundled, edits))))

describe('the record of a criteria fixture', () => {
  test('each status records its own fields and no others', async () => {
    const { decisions } = await recordOf({ cases: (cases) => void (cases.cases[1]!.expected.source_sha256 = '0'.repeat(64)) })
    expect(
      Object.fromEntries(Object.entries(decisions).map(([id, decision]) => [id, `${decision.status}: ${Object.keys(decision).join(', ')}`])),
    ).toMatchInlineSnapshot(`
        {
          "complete": "accepted: status, split, reason, ratings",
          "missing-verification": "rejected: status, split, reason, ratings, failed",
          "negation": "accepted: status, split, reason, ratings",
          "not-reviewed": "pending: status, split, reason, ratings, missing, uncertain, failed",
          "paraphrase": "refused: status, split, reason, ratings, error",
          "uncertain-wording": "pending: status, split, reason, ratings, missing, uncertain, failed",
          "unsupported-guarantee": "rejected: status, split, reason, ratings, failed",
          "wrong-command": "rejected: status, split, reason, ratings, failed",
        }
      `)
    expect(decisions['uncertain-wording']).toStrictEqual({
      status: 'pending',
      split: 'development',
      reason: 'uncertain on support',
      ratings: { command: 'meets', preconditions: 'meets', database_scope: 'meets', verification: 'meets', support: 'uncertain' },
      missing: [],
      uncertain: [expect.objectContaining({ criterion: 'support' })],
      failed: [],
    })
  })

  test("a case uncertain on several criteria names them all, in the rubric's order", async () => {
    const { decisions } = await recordOf({
      annotations: (annotations) => void (annotations.reviews[6]!.judgements['command']!.rating = 'uncertain'),
      acknowledge: 'uncertain-wording',
    })
    expect(decisions['uncertain-wording']).toMatchObject({ status: 'pending', reason: 'uncertain on command, support' })
  })

  test('a case set whose name has no canonical form has no fingerprint; its graded subset still has one', async () => {
    const { identities } = await recordOf({ cases: (cases) => void (cases.name = 'docuctl \ud83d rollback') })
    expect(identities.caseSetSha256).toBeNull()
    expect(identities.gradedSetSha256).toBe((await recordOf()).identities.gradedSetSha256)
    expect(identities.gradedSetSha256).toMatch(/^[0-9a-f]{64}$/)
  })
})
