import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { compareFixtures, DEVELOPMENT_LABEL, type CompareOptions } from '../../../src/core/compare/compare.js'
import type { CriteriaFixtureComparison } from '../../../src/core/kinds/criteria/compare.js'
import { editableFixture, ROOT, DOCUCTL } from '../../helpers/fixture-copy.js'
import { scratchDir } from '../../helpers/scratch.js'

const V1 = join(ROOT, 'examples/compare/answers-v1')
const V2 = join(ROOT, 'examples/compare/answers-v2')

/** A comparison of two criteria fixtures. */
async function compareCriteria(dirA: string, dirB: string, options: CompareOptions): Promise<CriteriaFixtureComparison> {
  const comparison = await compareFixtures(dirA, dirB, options)
  if (comparison.kind !== 'criteria') throw new Error('expected a criteria comparison')
  return comparison
}

/** Private copies of the two bundled fixtures, as `a/` and `b/` of one directory, which messages are shown relative to. */
async function copies() {
  const root = await scratchDir('compare')
  await cp(V1, join(root, 'a'), { recursive: true })
  await cp(V2, join(root, 'b'), { recursive: true })
  return { root, a: editableFixture(join(root, 'a')), b: editableFixture(join(root, 'b')) }
}

describe('compareFixtures', () => {
  test('refuses two fixtures whose rubric.json differ, naming the file and both hashes', async () => {
    const { root } = await copies()
    const rubric = join(root, 'b/rubric.json')
    await writeFile(rubric, `${await readFile(rubric, 'utf8')} `)
    await expect(compareFixtures(join(root, 'a'), join(root, 'b'), { cwd: root })).rejects.toThrowErrorMatchingInlineSnapshot(`
      [FixturesNotComparableError: b/rubric.json: the two fixtures' rubric.json differ: a comparison needs the same rubric and source, byte for byte
        expected: the bytes of a/rubric.json (SHA-256 3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228)
        found:    SHA-256 48877979b7793a9f7a079776181a6256a037086608a171d208569ed016205ca0
        fix:      compare fixtures made from one rubric and source (vitest-rubric init <B> --from <A>), or bring the two files to the same bytes; see docs/compare.md.]
    `)
  })

  test('refuses two fixtures whose source.txt differ, with the code FIXTURES_NOT_COMPARABLE', async () => {
    const { root } = await copies()
    const source = join(root, 'a/source.txt')
    await writeFile(source, (await readFile(source, 'utf8')).replace('r41', 'r42'))
    const refusal = await compareFixtures(join(root, 'a'), join(root, 'b'), { cwd: root }).catch((error: unknown) => error)
    expect(refusal).toMatchObject({ code: 'FIXTURES_NOT_COMPARABLE', file: 'b/source.txt' })
    expect((refusal as Error).message).toContain("the two fixtures' source.txt differ")
  })

  test('refuses a criteria fixture against a scored one', async () => {
    const scored = join(ROOT, 'fixtures/debate-benchmark')
    await expect(compareFixtures(DOCUCTL, scored, { cwd: ROOT })).rejects.toMatchObject({
      code: 'FIXTURES_NOT_COMPARABLE',
      summary: expect.stringContaining('different kinds'),
    })
  })

  test('counts pairs with a pending or refused side as coverage, never as a win or a loss', async () => {
    const { root, a, b } = await copies()
    // A: held-steps loses its review (pending). B: held-terse's answer changes after its review (refused).
    await a.editAnnotations((annotations) => {
      annotations.reviews = annotations.reviews.filter((review) => review.answer_id !== 'held-steps')
    })
    await a.acknowledgeReview('held-steps')
    await b.editCases((cases) => {
      cases.cases.find((entry) => entry.id === 'held-terse')!.input.answer.text += ' Edited.'
    })
    const comparison = await compareFixtures(join(root, 'a'), join(root, 'b'), { cwd: root, split: 'held_out' })
    const [heldOut] = comparison.splits
    expect(heldOut?.coverage).toEqual({
      paired: 9,
      decided: 6,
      pending: { a: 1, b: 1 },
      refused: { a: 0, b: 1 },
      line: '6 of 9 tasks decided in both; 1 pending in A, 1 pending in B, 1 refused in B',
    })
    // The six decided pairs only: held-unclear (pending in B), held-steps and held-terse are in no cell.
    expect(heldOut?.acceptance.table).toEqual({ both: 1, a_only: 1, b_only: 2, neither: 2 })
    expect(heldOut?.discordant).toEqual({ a_accepted_b_rejected: ['held-guarantee'], b_accepted_a_rejected: ['held-routine', 'held-approval'] })
  })

  test('keeps the splits apart and labels development figures as development material', async () => {
    const comparison = await compareFixtures(V1, V2, { cwd: ROOT })
    expect(comparison.splits.map((section) => [section.split, section.standing, section.label])).toEqual([
      ['held_out', 'result', null],
      ['development', 'development', DEVELOPMENT_LABEL],
    ])
    expect(DEVELOPMENT_LABEL).toBe('development material: not a result beyond these examples')
    const development = await compareFixtures(V1, V2, { cwd: ROOT, split: 'development' })
    expect(development.splits).toHaveLength(1)
    expect(development.splits[0]?.coverage.paired).toBe(4)
  })

  test('shows per criterion what B fixed and broke', async () => {
    const [heldOut] = (await compareCriteria(V1, V2, { cwd: ROOT, split: 'held_out' })).splits
    expect(heldOut?.criteria['verification']).toMatchObject({ table: { both: 2, a_only: 0, b_only: 6, neither: 0 }, broken_by_b: [] })
    expect(heldOut?.criteria['support']).toMatchObject({
      table: { both: 6, a_only: 2, b_only: 0, neither: 0 },
      broken_by_b: ['held-database', 'held-guarantee'],
    })
    expect(heldOut?.criteria['verification']?.mcnemar).toEqual({ discordant: 6, p_value: expect.closeTo(2 / 64, 15) })
  })

  test('flags a held-out case whose question and answer are a development case’s', async () => {
    const { root, b } = await copies()
    const cases = await b.readJson<{ cases: { id: string; input: { answer: { text: string } } }[] }>('cases.json')
    const developmentText = cases.cases.find((entry) => entry.id === 'dev-first')!.input.answer.text
    await b.editCases((file) => {
      file.cases.find((entry) => entry.id === 'held-routine')!.input.answer.text = developmentText
    })
    await b.rebindAnswer('held-routine')
    const comparison = await compareFixtures(join(root, 'a'), join(root, 'b'), { cwd: root })
    expect(comparison.leaks).toEqual([{ fixture: 'B', case: 'held-routine', development: [{ fixture: 'B', case: 'dev-first' }] }])
    expect((await compareFixtures(V1, V2, { cwd: ROOT })).leaks).toEqual([])
  })

  test('lists a case in one fixture only, and a case whose split differs, outside every split', async () => {
    const { root, b } = await copies()
    await b.editCases((file) => {
      file.cases = file.cases.filter((entry) => entry.id !== 'held-steps')
      file.cases.find((entry) => entry.id === 'dev-first')!.split = 'held_out'
    })
    await b.editAnnotations((annotations) => {
      annotations.reviews = annotations.reviews.filter((review) => review.answer_id !== 'held-steps')
    })
    const comparison = await compareFixtures(join(root, 'a'), join(root, 'b'), { cwd: root })
    expect(comparison.unpaired).toEqual({ a_only: ['held-steps'], b_only: [] })
    expect(comparison.split_mismatch).toEqual([{ case: 'dev-first', a: 'development', b: 'held_out' }])
    expect(comparison.splits.map((section) => section.coverage.paired)).toEqual([8, 3])
  })

  test('gives no figure when no pair is decided in both, and says why', async () => {
    const { root, a } = await copies()
    await a.editAnnotations((annotations) => {
      annotations.reviews = annotations.reviews.filter((review) => !review.answer_id.startsWith('dev-'))
    })
    for (const id of ['dev-first', 'dev-second', 'dev-third', 'dev-fourth']) await a.acknowledgeReview(id)
    const [development] = (await compareFixtures(join(root, 'a'), join(root, 'b'), { cwd: root, split: 'development' })).splits
    expect(development?.coverage.line).toBe('0 of 4 tasks decided in both; 4 pending in A')
    expect(development?.acceptance).toMatchObject({ n: 0, difference: null, difference_interval: null, reason: 'no pair is decided for both systems' })
    expect(development?.acceptance.a).toEqual({ passed: 0, rate: null, interval: null })
  })
})
