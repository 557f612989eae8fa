import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { NULL_FINGERPRINT, sha256Hex } from '../../../../src/core/json/canonical-json.js'
import { evaluateFixture } from '../../../../src/core/engine/evaluate.js'
import type { ScoredDecision } from '../../../../src/core/kinds/scored/decision.js'
import { loadFixtureOfKind } from '../../../helpers/load-kind.js'
import { copyDebate } from '../../../helpers/scored-copy.js'

async function evaluate(dir: string) {
  return evaluateFixture(await loadFixtureOfKind('scored', dir))
}

function byId(decisions: readonly ScoredDecision[], id: string): ScoredDecision {
  const decision = decisions.find((item) => item.id === id)
  if (decision === undefined) throw new Error(`no decision for ${id}`)
  return decision
}

/** `refused CASE_RUBRIC_STALE / baseline refused CASE_RUBRIC_STALE`, per case. */
function outcomes(decisions: readonly ScoredDecision[]): Set<string> {
  return new Set(
    decisions.map((decision) => {
      const system = decision.status === 'refused' ? `refused ${decision.error.code}` : decision.status
      const baseline = decision.baseline.status === 'refused' ? `refused ${decision.baseline.error.code}` : decision.baseline.status
      return `${system} / baseline ${baseline}`
    }),
  )
}

const STATUSES = {
  'partial-recall': 'accepted',
  'zero-planted-issues': 'accepted',
  'false-claim-conceded': 'accepted',
  'concession-without-update': 'rejected',
  'inefficient-resolution': 'accepted',
  'never-terminates': 'rejected',
  'empirical-test-agreed': 'accepted',
  'verdict-normalization': 'accepted',
  'unscoreable-silent-critique': 'pending',
  'required-test-missing': 'rejected',
}

const statuses = (decisions: readonly ScoredDecision[]) => Object.fromEntries(decisions.map((decision) => [decision.id, decision.status]))

describe('the rubric is fixed once execution begins', () => {
  test('editing one byte of evaluation_rubric.json refuses every case and every annotation', async () => {
    const copy = await copyDebate()
    const path = join(copy.dir, 'evaluation_rubric.json')
    const bytes = await readFile(path)
    const at = bytes.indexOf('0.0 (no planted issues found)')
    bytes[at + 2] = '5'.charCodeAt(0) // "0.0" → "0.5": still valid JSON, another revision
    await writeFile(path, bytes)

    const { decisions, coverage, summary: benchmark } = await evaluate(copy.dir)
    expect(outcomes(decisions)).toEqual(new Set(['refused CASE_RUBRIC_STALE / baseline refused CASE_RUBRIC_STALE']))
    expect(coverage).toMatchObject({ candidates: 10, graded: 0, pending: 0, refused: 10, outcomes: null })
    expect(benchmark.gates).toEqual({
      benchmark: {
        passed: false,
        message:
          'cannot pass: 10 cases refused (partial-recall, zero-planted-issues, false-claim-conceded and 7 more); the gate counts the whole benchmark, so every case must be decided',
      },
      baseline: {
        passed: false,
        message: 'cannot compare: the debate system has 10 cases refused (partial-recall, zero-planted-issues, false-claim-conceded and 7 more)',
      },
    })
    expect(byId(decisions, 'partial-recall')).toMatchObject({
      error: {
        message: expect.stringContaining(
          `cases.json › cases[0] › expected › rubric_sha256 (case "partial-recall"): the rubric changed since the case was written; it is fixed once execution begins.\n  expected: ${sha256Hex(bytes)} (SHA-256 of evaluation_rubric.json now)\n  found:    be89f77dd9c03442e7f5333d6dcf1b906512792f030048390e7a9bc66309c0e0`,
        ),
      },
    })
  })

  test('cases moved to the new revision still refuse every review made under the old one', async () => {
    const copy = await copyDebate()
    const path = join(copy.dir, 'evaluation_rubric.json')
    await writeFile(path, `${await readFile(path, 'utf8')}\n`) // one more byte: a final newline
    const rubricSha256 = sha256Hex(await readFile(path))
    await copy.editCases((cases) => {
      for (const entry of cases.cases) entry.expected.rubric_sha256 = rubricSha256
    })
    const { decisions } = await evaluate(copy.dir)
    expect(outcomes(decisions)).toEqual(new Set(['refused REVIEW_RUBRIC_STALE / baseline refused REVIEW_RUBRIC_STALE']))
  })

  test('re-reviewing under the new revision restores every decision', async () => {
    const copy = await copyDebate()
    const path = join(copy.dir, 'evaluation_rubric.json')
    await writeFile(path, `${await readFile(path, 'utf8')}\n`)
    const rubricSha256 = sha256Hex(await readFile(path))
    await copy.editCases((cases) => {
      for (const entry of cases.cases) entry.expected.rubric_sha256 = rubricSha256
    })
    for (const id of Object.keys(STATUSES)) {
      await copy.rebind(id, 'debate')
      await copy.rebind(id, 'baseline')
    }
    expect(statuses((await evaluate(copy.dir)).decisions)).toEqual(STATUSES)
  })
})

describe('reviews are bound to the case spec and the output they describe', () => {
  test('a changed case spec refuses both reviews of that case, and only those', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases[0]!.spec.ground_truth.planted_issues.pop()
    })
    const { decisions } = await evaluate(copy.dir)
    expect(statuses(decisions)).toEqual({ ...STATUSES, 'partial-recall': 'refused' })
    expect(byId(decisions, 'partial-recall')).toMatchObject({
      error: { code: 'REVIEW_SPEC_STALE', path: 'reviews[0] › spec_sha256' },
      baseline: { status: 'refused', error: { code: 'REVIEW_SPEC_STALE', path: 'reviews[1] › spec_sha256' } },
    })
  })

  test('a changed debate transcript refuses the debate review; the baseline is still scored', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases[3]!.outputs.debate.transcript[1]!.text += ' I will also rethrow the last error.'
    })
    const decision = byId((await evaluate(copy.dir)).decisions, 'concession-without-update')
    expect(decision).toMatchObject({ status: 'refused', error: { code: 'REVIEW_OUTPUT_STALE' }, baseline: { status: 'scored' } })
  })

  test('a changed baseline output refuses only the baseline: the case is still decided, the comparison is not', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases[0]!.outputs.baseline.answer = 'paginate() drops an item per page. Verdict: request changes.'
    })
    const { decisions, summary: benchmark } = await evaluate(copy.dir)
    expect(byId(decisions, 'partial-recall')).toMatchObject({
      status: 'accepted',
      baseline: { status: 'refused', error: { code: 'REVIEW_OUTPUT_STALE', path: 'reviews[1] › output_sha256' } },
    })
    expect(benchmark.gates.benchmark.passed).toBe(false) // as before: 6 of 9
    expect(benchmark.gates.baseline).toEqual({
      passed: false,
      message: 'cannot compare: the baseline has 1 case refused (partial-recall)',
    })
    expect(benchmark.baseline).toMatchObject({ scoreable: 7, refused: 1 })
  })

  test('re-reviewing the new output and binding it again restores the comparison', async () => {
    const copy = await copyDebate()
    await copy.editCases((cases) => {
      cases.cases[0]!.outputs.baseline.answer = 'paginate() slices one page of items and looks correct. Verdict: approve!'
    })
    await copy.rebind('partial-recall', 'baseline')
    const { summary: benchmark } = await evaluate(copy.dir)
    expect(benchmark.gates.baseline.passed).toBe(true)
  })
})

describe('each case records the revision of its reviews', () => {
  test('an edited review that the case has not acknowledged is refused', async () => {
    const copy = await copyDebate()
    await copy.editReview(
      'concession-without-update',
      'debate',
      (review) => {
        review.claims[0]!.defense.position_updated = true
      },
      false,
    )
    expect(byId((await evaluate(copy.dir)).decisions, 'concession-without-update')).toMatchObject({
      status: 'refused',
      error: { code: 'REVIEW_EDIT_UNACKNOWLEDGED', path: 'cases[3] › expected › debate_review_sha256' },
    })
  })

  test('the same edit, acknowledged, is a new judgement: here it lifts calibration to 0.625 and the case passes', async () => {
    const copy = await copyDebate()
    await copy.editReview('concession-without-update', 'debate', (review) => {
      review.claims[0]!.defense.position_updated = true
    })
    const decision = byId((await evaluate(copy.dir)).decisions, 'concession-without-update')
    expect(decision.status).toBe('accepted')
    expect(decision.status === 'accepted' && decision.card.dimensions['defense_calibration']?.score).toBe(0.625)
  })

  test('a review removed without acknowledgement is refused, not silently missing', async () => {
    const copy = await copyDebate()
    await copy.editAnnotations((annotations) => {
      annotations.reviews = annotations.reviews.filter((review) => review.case_id !== 'never-terminates')
    })
    const decision = byId((await evaluate(copy.dir)).decisions, 'never-terminates')
    expect(decision).toMatchObject({
      status: 'refused',
      error: { code: 'REVIEW_EDIT_UNACKNOWLEDGED' },
      baseline: { status: 'refused', error: { code: 'REVIEW_EDIT_UNACKNOWLEDGED' } },
    })
  })

  test('a debate review withdrawn on purpose leaves the case pending and the benchmark undecided', async () => {
    const copy = await copyDebate()
    await copy.editAnnotations((annotations) => {
      annotations.reviews = annotations.reviews.filter((review) => !(review.case_id === 'never-terminates' && review.system === 'debate'))
    })
    await copy.acknowledge('never-terminates', 'debate')
    const { decisions, coverage, summary: benchmark } = await evaluate(copy.dir)
    expect((await copy.readJson<{ cases: { expected: { debate_review_sha256: string } }[] }>('cases.json')).cases[5]!.expected.debate_review_sha256).toBe(
      NULL_FINGERPRINT,
    )
    expect(byId(decisions, 'never-terminates')).toMatchObject({ status: 'pending', reason: 'no review', card: null, baseline: { status: 'scored' } })
    expect(coverage).toMatchObject({ graded: 8, pending: 2 })
    expect(benchmark.gates.benchmark).toEqual({
      passed: false,
      message: 'cannot pass: 1 case not reviewed (never-terminates); the gate counts the whole benchmark, so every case must be decided',
    })
    expect(benchmark.gates.baseline.message).toBe('cannot compare: the debate system has 1 case not reviewed (never-terminates)')
  })

  test('a baseline review withdrawn on purpose leaves the case decided and the comparison undecided', async () => {
    const copy = await copyDebate()
    await copy.editAnnotations((annotations) => {
      annotations.reviews = annotations.reviews.filter((review) => !(review.case_id === 'never-terminates' && review.system === 'baseline'))
    })
    await copy.acknowledge('never-terminates', 'baseline')
    const { decisions, summary: benchmark } = await evaluate(copy.dir)
    expect(byId(decisions, 'never-terminates')).toMatchObject({ status: 'rejected', baseline: { status: 'not_reviewed' } })
    expect(benchmark.gates.baseline).toEqual({ passed: false, message: 'cannot compare: the baseline has 1 case not reviewed (never-terminates)' })
  })
})
