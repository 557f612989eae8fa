import { spawnSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { filesIn } from '../helpers/bad-input.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture, ROOT } from '../helpers/fixture-copy.js'

/*
 * A review or label that judges no criterion is refused as the review page refuses it
 * (EMPTY_DRAFT), and nothing is written; reviews that judge nothing agree on nothing, so
 * `adjudicate --consensus` leaves them to a person.
 */

async function withEmptyDraft() {
  const fixture = await copyFixture()
  await writeFile(join(fixture.dir, 'e.json'), '{}')
  return fixture
}

describe('a review that judges no criterion', () => {
  test.each([
    ['an adopted review', ['--case', 'not-reviewed']],
    ['an independent review', ['--case', 'not-reviewed', '--reviewer', 'bob']],
    ["a judge's label", ['--case', 'complete', '--judge', 'jj']],
  ])('is refused as %s, and nothing is written', async (_, options) => {
    const fixture = await withEmptyDraft()
    const before = await filesIn(fixture.dir)
    const run = await runCli(['review', '.', ...options, '--from', 'e.json'], fixture.dir)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatchInlineSnapshot(`
      "e.json: the draft judges no criterion, so there is nothing to save; nothing was written.
        expected: at least one judgement
        found:    {}
        fix:      rate at least one criterion (or dimension) before saving: give its judgement in e.json.
      "
    `)
    expect(run.code).toBe(1)
    expect(await filesIn(fixture.dir)).toEqual(before)
  })

  test("is refused in a bulk import of a judge's labels, naming the case", async () => {
    const fixture = await withEmptyDraft()
    await writeFile(join(fixture.dir, 'labels.json'), JSON.stringify({ complete: {} }))
    const before = await filesIn(fixture.dir)
    const run = await runCli(['review', '.', '--judge', 'jj', '--from', 'labels.json'], fixture.dir)
    expect(run.stderr).toContain('the draft judges no criterion, so there is nothing to save; nothing was written.')
    expect(run.stderr).toContain('labels.json › complete')
    expect(run.code).toBe(1)
    expect(await filesIn(fixture.dir)).toEqual(before)
  })
})

/** Independent reviews of "not-reviewed" by each reviewer, each then emptied of its judgements, as an earlier version recorded them or a hand edit leaves them; `full`: reviewers whose review is kept whole. */
async function emptyReviews(dir: string, empty: readonly string[], full: readonly string[] = []): Promise<void> {
  for (const reviewer of [...empty, ...full]) {
    const recorded = await runCli(['review', '.', '--case', 'not-reviewed', '--reviewer', reviewer, ...everyCriterionMeets], dir)
    expect(recorded.code).toBe(0)
  }
  for (const reviewer of empty) {
    const file = join(dir, 'reviews', `${reviewer}.json`)
    const document = JSON.parse(await readFile(file, 'utf8')) as { reviews: { judgements: object }[] }
    document.reviews[0]!.judgements = {}
    await writeFile(file, `${JSON.stringify(document, null, 2)}\n`)
  }
}

const everyCriterionMeets = ['command', 'preconditions', 'database_scope', 'verification', 'support'].flatMap((criterion) => [
  '--rating',
  `${criterion}=meets`,
  '--reason',
  `${criterion}=ok`,
  '--span',
  `${criterion}=`,
])

const reasonOf = async (dir: string, ...options: string[]) =>
  (JSON.parse((await runCli(['evaluate', '.', '--json', ...options], dir)).stdout) as { decisions: Record<string, { status: string; reason: string }> })
    .decisions['not-reviewed']

test('adjudicate --consensus does not adopt reviews that judge nothing', async () => {
  const fixture = await copyFixture()
  await emptyReviews(fixture.dir, ['amy', 'bob'])
  const before = await filesIn(fixture.dir)
  const consensus = await runCli(['adjudicate', '.', '--consensus', '--adjudicator', 'carol'], fixture.dir)
  expect(consensus.stderr).toBe('')
  expect(consensus.stdout).toContain(
    'left not-reviewed: the reviews judge nothing (amy, bob), so they count as no review: review the case again as each of them (--reviewer <name> --replace)',
  )
  expect(consensus.stdout).toContain('no file was written')
  expect(await filesIn(fixture.dir)).toEqual(before)
  const status = await runCli(['status', '.'], fixture.dir)
  expect(status.stdout).not.toContain('--consensus')
})

test('adjudicate --consensus says a review that judges nothing is what keeps two agreeing reviews from adoption, and how to settle it', async () => {
  const fixture = await copyFixture()
  await emptyReviews(fixture.dir, ['carol'], ['amy', 'bob'])
  const before = await filesIn(fixture.dir)
  const consensus = await runCli(['adjudicate', '.', '--consensus', '--adjudicator', 'dana'], fixture.dir)
  expect(consensus.code).toBe(0)
  expect(consensus.stdout).toContain(
    'left not-reviewed: carol judged nothing, and an adoption resolves every review of the case: have that reviewer review it again (--reviewer <name> --replace), or adopt one review with `--case not-reviewed --take <reviewer>`; 2 reviews agree, not adopted yet',
  )
  expect(await filesIn(fixture.dir)).toEqual(before)
  // The fix it gives works: the case is adopted from one of the agreeing reviews.
  const taken = await runCli(['adjudicate', '.', '--case', 'not-reviewed', '--take', 'amy', '--adjudicator', 'dana'], fixture.dir)
  expect(taken.code, taken.stderr).toBe(0)
  expect(await reasonOf(fixture.dir)).toMatchObject({ status: 'accepted' })
})

test('the review queues read a review that judges nothing as none: its reviewer is asked again, and it disagrees with nobody', async () => {
  const fixture = await copyFixture()
  await emptyReviews(fixture.dir, ['carol'], ['amy', 'bob'])
  const carol = await runCli(['next', '.', '--reviewer', 'carol'], fixture.dir)
  expect(carol.code).toBe(0)
  expect(carol.stdout).toMatch(/not-reviewed +.*your review judges nothing, so it counts as no review: review the case again \(--replace\)/)
  const amy = await runCli(['next', '.', '--reviewer', 'amy'], fixture.dir)
  expect(amy.stdout).not.toContain('not-reviewed')
  const dana = await runCli(['next', '.', '--adjudicator', 'dana'], fixture.dir)
  expect(dana.stdout).toMatch(/not-reviewed/)
  expect(dana.stdout).not.toMatch(/disagree/)
})

describe('an independent review that judges nothing, already in a reviewer file', () => {
  test('is named, and counts as no review: the case is pending for it, never offered for adoption', async () => {
    const fixture = await copyFixture()
    await emptyReviews(fixture.dir, ['amy'])
    expect(await reasonOf(fixture.dir)).toMatchObject({
      status: 'pending',
      reason: 'the review judges nothing (amy), so it counts as no review: review the case again as that reviewer (--reviewer <name> --replace)',
    })
    const status = await runCli(['status', '.'], fixture.dir)
    expect(status.stdout).toContain('not-reviewed: the review judges nothing (amy)')
    // Adopting a review that judges nothing would decide nothing: status does not offer it.
    expect(status.stdout).not.toContain('--take')
    // Nor does it count toward a minimum of reviews.
    expect((await reasonOf(fixture.dir, '--min-reviews', '1'))?.reason).toBe(
      '0 of 1 required review; the review judges nothing (amy), so it counts as no review: review the case again as that reviewer (--reviewer <name> --replace)',
    )
  })

  test("beside a review that judges, it is named and left out of the comparison: the other review's reason stands", async () => {
    const fixture = await copyFixture()
    await emptyReviews(fixture.dir, ['amy'], ['bob'])
    expect((await reasonOf(fixture.dir))?.reason).toBe(
      '1 review, not adopted yet; the review judges nothing (amy), so it counts as no review: review the case again as that reviewer (--reviewer <name> --replace)',
    )
    expect((await reasonOf(fixture.dir, '--min-reviews', '2'))?.reason).toMatch(/^1 of 2 required reviews; the review judges nothing \(amy\)/)
  })
})

test("a review that judges nothing in annotations.json (the seed layout) is pending, as the seed's reference decides it", async () => {
  const fixture = await copyFixture()
  const file = join(fixture.dir, 'annotations.json')
  const document = JSON.parse(await readFile(file, 'utf8')) as { reviews: { answer_id: string; judgements: object }[] }
  document.reviews.find((review) => review.answer_id === 'complete')!.judgements = {}
  await writeFile(file, `${JSON.stringify(document, null, 2)}\n`)
  expect((await runCli(['bind', '.', '--case', 'complete'], fixture.dir)).code).toBe(0)
  const evaluated = JSON.parse((await runCli(['evaluate', '.', '--json'], fixture.dir)).stdout) as {
    decisions: Record<string, { status: string; ratings?: Record<string, string> }>
  }
  expect(evaluated.decisions['complete']).toMatchObject({ status: 'pending', ratings: {} })
  const reference = spawnSync('python3', [join(ROOT, 'test/helpers/reference_decisions.py'), fixture.dir], { encoding: 'utf8', timeout: 60_000 })
  expect(reference.stderr).toBe('')
  const decided = JSON.parse(reference.stdout) as Record<string, { status: string; ratings: Record<string, string> }>
  for (const [id, decision] of Object.entries(evaluated.decisions)) {
    expect(decided[id]!.status, id).toBe(decision.status)
    expect(decided[id]!.ratings, id).toEqual(decision.ratings ?? {})
  }
})
