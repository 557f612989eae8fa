import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { filesIn } from '../helpers/bad-input.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture } from '../helpers/fixture-copy.js'

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

test('adjudicate --consensus does not adopt reviews that judge nothing', async () => {
  const fixture = await copyFixture()
  // Reviews that judge nothing, as an earlier version recorded them or a hand edit leaves them.
  for (const reviewer of ['amy', 'bob']) {
    const recorded = await runCli(
      ['review', '.', '--case', 'not-reviewed', '--reviewer', reviewer, '--rating', 'command=meets', '--reason', 'command=ok'],
      fixture.dir,
    )
    expect(recorded.code).toBe(0)
    const file = join(fixture.dir, 'reviews', `${reviewer}.json`)
    const document = JSON.parse(await readFile(file, 'utf8')) as { reviews: { judgements: object }[] }
    document.reviews[0]!.judgements = {}
    await writeFile(file, `${JSON.stringify(document, null, 2)}\n`)
  }
  const before = await filesIn(fixture.dir)
  const consensus = await runCli(['adjudicate', '.', '--consensus', '--adjudicator', 'carol'], fixture.dir)
  expect(consensus.stderr).toBe('')
  expect(consensus.stdout).toContain('left not-reviewed: the reviews judge nothing (amy, bob), so they agree on nothing')
  expect(consensus.stdout).toContain('no file was written')
  expect(await filesIn(fixture.dir)).toEqual(before)
  const status = await runCli(['status', '.'], fixture.dir)
  expect(status.stdout).not.toContain('--consensus')
})
