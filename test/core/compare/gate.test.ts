import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { PLAIN } from '../../../src/core/common/colors.js'
import { compareGate, type ComparisonGateReport } from '../../../src/core/compare/gate.js'
import { comparisonLines } from '../../../src/reporter/render-text.js'
import { fingerprint } from '../../../src/core/json/canonical-json.js'
import { ROOT, type AnnotationsJson, type CasesJson } from '../../helpers/fixture-copy.js'
import { makeProject } from '../../helpers/scratch.js'

const V1 = join(ROOT, 'examples/compare/answers-v1')
const V2 = join(ROOT, 'examples/compare/answers-v2')

/**
 * The bundled pair's held-out case of each cell: held-checked is accepted in both, held-guarantee
 * in A only, held-routine in B only, held-database in neither; held-unclear is accepted in A and
 * pending in B.
 */
const TEMPLATES = { both: 'held-checked', aOnly: 'held-guarantee', bOnly: 'held-routine', neither: 'held-database', pendingB: 'held-unclear' } as const
type Cells = Partial<Record<keyof typeof TEMPLATES, number>>

/** Keeps, of a fixture's held-out cases, `count` copies of each template (ids `<template>-<k>`), each with its review. */
async function cloneHeldOut(
  fixture: {
    editCases: (edit: (cases: CasesJson) => void) => Promise<void>
    readJson: <T>(file: string) => Promise<T>
    writeJson: (file: string, value: unknown) => Promise<void>
  },
  cells: Cells,
) {
  const cases = await fixture.readJson<CasesJson>('cases.json')
  const annotations = await fixture.readJson<AnnotationsJson>('annotations.json')
  const keptCases = cases.cases.filter((entry) => entry.split !== 'held_out')
  const keptReviews = annotations.reviews.filter((review) => !review.answer_id.startsWith('held-'))
  for (const [cell, template] of Object.entries(TEMPLATES)) {
    const entry = cases.cases.find((item) => item.id === template)!
    const review = annotations.reviews.find((item) => item.answer_id === template)
    for (let k = 0; k < (cells[cell as keyof Cells] ?? 0); k++) {
      const id = `${template}-${k}`
      const copy = review === undefined ? null : { ...structuredClone(review), answer_id: id }
      if (copy !== null) keptReviews.push(copy)
      keptCases.push({ ...structuredClone(entry), id, expected: { ...entry.expected, review_sha256: fingerprint(copy) } })
    }
  }
  await fixture.writeJson('cases.json', { ...cases, cases: keptCases })
  await fixture.writeJson('annotations.json', { ...annotations, reviews: keptReviews })
}

/** The held-out gate of B against A over a pair of fixtures with the given held-out cells. */
async function gateOn(cells: Cells, margin: number): Promise<ComparisonGateReport> {
  const root = await makeProject({
    a: { from: V1, edit: (fixture) => cloneHeldOut(fixture, cells) },
    b: { from: V2, edit: (fixture) => cloneHeldOut(fixture, cells) },
  })
  const report = await compareGate(join(root, 'b'), { against: join(root, 'a'), split: 'held_out', margin }, { cwd: root, named: true })
  if (report === undefined) throw new Error('the pair was not compared')
  return report
}

describe('the compare gate reads the bound as computed', () => {
  test('(1, 0, 3, 1) with margin 0: the lower bound −0.000285 is below 0, and fails, saying so in digits that show it', async () => {
    const report = await gateOn({ both: 1, aOnly: 0, bOnly: 3, neither: 1 }, 0)
    expect(report.acceptance?.table).toEqual({ both: 1, a_only: 0, b_only: 3, neither: 1 })
    expect(report.acceptance?.difference_interval?.[0]).toBeCloseTo(-0.000285, 6)
    expect(report.status).toBe('failed')
    expect(report.message.split('\n')[0]).toBe(
      'B − A = +60.0 points, 95% interval [−0.03, +83.2] (Newcombe, paired): the lower bound −0.03 is below ±0.00 (a one-sided test at the 2.5% level), so B may be more than 0 points worse than A',
    )
  })

  test('(2, 0, 3, 9) with margin 0.05: the lower bound −0.050426 is below −0.05, and fails', async () => {
    const report = await gateOn({ both: 2, aOnly: 0, bOnly: 3, neither: 9 }, 0.05)
    expect(report.acceptance?.difference_interval?.[0]).toBeCloseTo(-0.050426, 6)
    expect(report.status).toBe('failed')
    expect(report.message.split('\n')[0]).toContain('the lower bound −5.04 is below −5.00 (a one-sided test at the 2.5% level)')
  })

  test('a bound exactly at −margin passes: (2, 0, 3, 9) with a margin of its own lower bound', async () => {
    const exact = (await gateOn({ both: 2, aOnly: 0, bOnly: 3, neither: 9 }, 0.05)).acceptance!.difference_interval![0]
    const report = await gateOn({ both: 2, aOnly: 0, bOnly: 3, neither: 9 }, -exact)
    expect(report.status).toBe('passed')
    expect(report.holds_regardless).toBe(true)
    expect(report.message).toMatch(
      /the lower bound −5\.0 is at least −5\.0 \(a one-sided test at the 2\.5% level\); every pair is decided; 14 of 14 tasks decided in both$/,
    )
  })
})

describe('the compare gate and the pairs it leaves out', () => {
  test('passes on the decided pairs but waits (todo) when the pending pairs, counted against B, would fail it', async () => {
    // 6 pairs B accepted only, 6 neither: decided, B − A = +50 points; two pending B sides with A accepted.
    const report = await gateOn({ bOnly: 6, neither: 6, pendingB: 2 }, 0.05)
    expect(report.acceptance?.difference_interval?.[0]).toBeGreaterThan(0)
    expect(report.worst_case).toMatchObject({ undecided: 2, n: 14, table: { both: 0, a_only: 2, b_only: 6, neither: 6 } })
    expect(report.status).toBe('todo')
    expect(report.holds_regardless).toBe(false)
    expect(report.message).toMatchInlineSnapshot(
      `"B − A = +50.0 points, 95% interval [+15.4, +74.6] (Newcombe, paired): the lower bound +15.4 is at least −5.0 (a one-sided test at the 2.5% level) on the decided pairs, but not regardless of the 2 undecided pairs: counted against B, the lower bound −10.3 is below −5.0; decide them; 12 of 14 tasks decided in both; 2 pending in B"`,
    )
  })
})

describe('the compare gate says whether its outcome holds regardless of the pending pairs', () => {
  test('a pass that the pending pairs cannot undo says so, with the worst case', async () => {
    const report = await gateOn({ both: 4, bOnly: 8, neither: 4, pendingB: 1 }, 0.05)
    expect(report.status).toBe('passed')
    expect(report.holds_regardless).toBe(true)
    expect(report.message).toMatchInlineSnapshot(
      `"B − A = +50.0 points, 95% interval [+18.4, +69.1] (Newcombe, paired): the lower bound +18.4 is at least −5.0 (a one-sided test at the 2.5% level); it holds regardless of the 1 undecided pair: counted against B, the lower bound +7.6 is at least −5.0; 16 of 17 tasks decided in both; 1 pending in B"`,
    )
  })

  test('a fail that the pending pairs could undo says so, with the best case for B', async () => {
    const report = await gateOn({ both: 2, aOnly: 1, bOnly: 2, neither: 2, pendingB: 8 }, 0.2)
    expect(report.status).toBe('failed')
    expect(report.holds_regardless).toBe(false)
    expect(report.message.split('\n')[0]).toMatchInlineSnapshot(
      `"B − A = +14.3 points, 95% interval [−31.1, +52.5] (Newcombe, paired): the lower bound −31.1 is below −20.0 (a one-sided test at the 2.5% level), so B may be more than 20 points worse than A; not regardless of the 8 undecided pairs: counted for B, the lower bound −19.3 is at least −20.0"`,
    )
  })
})

test('the bundled pair: a 15-point margin clears the decided pairs but not the pending held-unclear counted against B; a 30-point one clears both', async () => {
  const gate = (margin: number) => compareGate(V2, { against: V1, split: 'held_out', margin }, { cwd: ROOT, named: true })
  const fifteen = await gate(0.15)
  expect([fifteen?.status, fifteen?.holds_regardless]).toEqual(['todo', false])
  expect(fifteen?.message).toBe(
    'B − A = +37.5 points, 95% interval [−12.5, +69.3] (Newcombe, paired): the lower bound −12.5 is at least −15.0 (a one-sided test at the 2.5% level) on the decided pairs, ' +
      'but not regardless of the 1 undecided pair: counted against B, the lower bound −26.6 is below −15.0; decide it; 8 of 9 tasks decided in both; 1 pending in B',
  )
  const thirty = await gate(0.3)
  expect([thirty?.status, thirty?.holds_regardless]).toEqual(['passed', true])
})

test('a failed gate on two scored fixtures words its paired table as compare does, passed and failed', async () => {
  // The bundled debate fixture twice, held out: B − A is ±0.0 with a lower bound of −20.8 points, below a 10-point margin.
  const held = async ({ dir }: { readonly dir: string }) => {
    const file = join(dir, 'cases.json')
    await writeFile(file, (await readFile(file, 'utf8')).replace('"split": "development"', '"split": "held_out"'))
  }
  const debate = join(ROOT, 'fixtures/debate-benchmark')
  const root = await makeProject({ 'fixtures/a': { from: debate, edit: held }, 'fixtures/b': { from: debate, edit: held } })
  const report = await compareGate(join(root, 'fixtures/b'), { against: join(root, 'fixtures/a'), split: 'held_out', margin: 0.1 }, { cwd: root, named: true })
  expect(report?.status).toBe('failed')
  const lines = report!.message.split('\n')
  expect(lines.slice(-3)).toEqual(['paired table: both passed 6, A only 0, B only 0, both failed 3', 'A passed, B failed: none', 'B passed, A failed: none'])
  // The reporter's block and the job summary's table say it in the same words.
  expect(report!.outcomes).toEqual({ accepted: 'passed', rejected: 'failed' })
  const block = comparisonLines(report!, PLAIN).join('\n')
  expect(block).toContain('paired table: both passed 6, A only 0, B only 0, both failed 3')
  expect(block).toContain('worst case for B: with the 1 undecided pair counted against B (B failed, A passed where undecided)')
  expect(block).toContain('A passed, B failed: none')
  expect(block).not.toMatch(/accepted|rejected/)
})
