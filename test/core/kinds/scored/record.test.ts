import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { fingerprint, sha256Hex } from '../../../../src/core/json/canonical-json.js'
import { evaluateFixture } from '../../../../src/core/engine/evaluate.js'
import type { EvaluationOfKind } from '../../../../src/core/registry.js'
import { evaluationJson } from '../../../../src/core/engine/evaluation-json.js'
import { planFixtureTests } from '../../../../src/core/engine/plan.js'
import { baselineCheckName, type ScoredDecisionJson } from '../../../../src/core/kinds/scored/present.js'
import { loadFixtureOfKind } from '../../../helpers/load-kind.js'
import { copyDebate, type CasesJson, type ScoredCopy } from '../../../helpers/scored-copy.js'

async function evaluate(copy: ScoredCopy) {
  return evaluateFixture(await loadFixtureOfKind('scored', copy.dir, copy.dir))
}

/** Each case as `evaluate --json` prints it. */
function decisionsJson(evaluation: EvaluationOfKind<'scored'>): Readonly<Record<string, ScoredDecisionJson>> {
  return evaluationJson(evaluation).decisions as Readonly<Record<string, ScoredDecisionJson>>
}

async function withdraw(copy: ScoredCopy, caseId: string, system: 'debate' | 'baseline'): Promise<void> {
  await copy.editAnnotations((annotations) => {
    annotations.reviews = annotations.reviews.filter((review) => !(review.case_id === caseId && review.system === system))
  })
  await copy.acknowledge(caseId, system)
}

describe('the record of a scored evaluation', () => {
  test('a case without a debate review has no card; a baseline without a review is not_reviewed', async () => {
    const copy = await copyDebate()
    await withdraw(copy, 'partial-recall', 'debate')
    await withdraw(copy, 'partial-recall', 'baseline')
    expect(decisionsJson(await evaluate(copy))['partial-recall']).toEqual({
      status: 'pending',
      split: 'development',
      reason: 'no review',
      verdict: null,
      scores: null,
      mean: null,
      applicable: null,
      details: null,
      failures: [],
      baseline: { status: 'not_reviewed' },
    })
  })

  test('a refused case carries its error; its baseline the reason and the error', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases[0]!.expected.rubric_sha256 = '0'.repeat(64)
    })
    const decision = decisionsJson(await evaluate(copy))['partial-recall']!
    expect(decision).toMatchObject({ status: 'refused', verdict: null, scores: null, details: null, failures: [], error: { code: 'CASE_RUBRIC_STALE' } })
    expect(decision.reason).toBe('the rubric changed since the case was written; it is fixed once execution begins.')
    expect(decision.baseline).toEqual({ status: 'refused', reason: decision.reason, error: decision.error })
  })

  test('a scored card: verdict, scores, mean, applicable, how each score was reached and the failures', async () => {
    const copy = await copyDebate()
    const decision = decisionsJson(await evaluate(copy))['concession-without-update']!
    expect(decision).toMatchObject({
      status: 'rejected',
      verdict: 'fail',
      mean: 0.875,
      applicable: 5,
      failures: ['defense_calibration 0.375 is below per_dimension_pass 0.50'],
    })
    expect(decision.details).toEqual({
      issue_discovery_recall: '2 of 2 planted issues found: P1 full (C1), P2 full (C2)',
      issue_discovery_precision: '2 of 2 claims valid',
      defense_calibration: 'mean of 4 instances: (A) C1 concede 1, (C) C1 not updated 0, (A) C2 hedged_concession 0.5, (C) C2 not updated 0',
      debate_resolution_quality: 'both agents state critique_wins as ideal, in 2 of at most 4 rounds',
      empirical_test_diagnosticity: 'N/A: no test proposed and the ideal resolution is critique_wins',
      final_verdict_correctness: '"request changes" matches "request changes" (trimmed, case-insensitive)',
    })
    expect(decision.baseline).toMatchObject({ status: 'scored', verdict: 'fail', mean: 0.4, applicable: 5 })
  })
})

describe('the identities of a scored evaluation', () => {
  test('the full case set without $schema, and the graded subset: the accepted and rejected cases', async () => {
    const copy = await copyDebate()
    const cases = await copy.readJson<CasesJson & { $schema?: string }>('cases.json')
    const { $schema: _, ...document } = cases
    const evaluation = await evaluate(copy)
    expect(evaluation.identities.caseSetSha256).toBe(fingerprint(document))
    const graded = cases.cases.filter((each) => each.id !== 'unscoreable-silent-critique')
    expect(evaluation.identities.gradedSetSha256).toBe(fingerprint(graded))
    expect(evaluation.identities.files['cases.json']).toBe(sha256Hex(await readFile(join(copy.dir, 'cases.json'))))
  })

  test('a held-out benchmark gives every case its split', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.split = 'held_out'
    })
    const evaluation = await evaluate(copy)
    expect(new Set(evaluation.decisions.map((decision) => decision.split))).toEqual(new Set(['held_out']))
    expect(new Set(Object.values(decisionsJson(evaluation)).map((decision) => decision.split))).toEqual(new Set(['held_out']))
  })
})

describe('the tests of a scored fixture', () => {
  test('the baseline check is named with the margin of the rubric file', async () => {
    const copy = await copyDebate()
    const path = join(copy.dir, 'evaluation_rubric.json')
    await writeFile(path, (await readFile(path, 'utf8')).replace('by >= 0.10', 'by >= 0.125'))
    await copy.editCases((cases) => {
      for (const each of cases.cases) each.expected.rubric_sha256 = '0'.repeat(64)
    })
    const evaluation = await evaluate(copy)
    expect(baselineCheckName(evaluation.fixture.rubric.rules)).toBe('beats the trivial baseline by ≥ 0.125')
    expect(planFixtureTests(evaluation).checks.map((check) => check.name)).toEqual(['benchmark passes', 'beats the trivial baseline by ≥ 0.125'])
  })
})
