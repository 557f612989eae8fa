import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { BUNDLED, filesIn } from '../helpers/bad-input.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture } from '../helpers/fixture-copy.js'
import { recordReview } from '../../src/core/registry.js'
import { fileSource } from '../../src/core/engine/authoring/draft.js'

/*
 * `--system` names a review of a scored case (debate or baseline). A criteria case has one review:
 * the option does not apply, and the fix says to leave it out, never to pass an option that no
 * command has (`--slot`).
 */

const headOf = (stderr: string) => stderr.split('\n\n')[0]

describe('--system on a fixture whose cases have one review', () => {
  test.each([
    ['review', ['--rating', 'support=meets', '--reason', 'support=Cited.']],
    ['adjudicate', ['--adjudicator', 'carol', '--take', 'alice']],
  ])('%s says --system does not apply to a criteria fixture (exit 2), and writes nothing', async (command, rest) => {
    const fixture = await copyFixture()
    const before = await filesIn(fixture.dir)
    const run = await runCli([command, '.', '--case', 'not-reviewed', '--system', 'debate', ...rest], fixture.dir)
    expect(run.code).toBe(2)
    expect(headOf(run.stderr)).toBe('.: --system does not apply to a criteria fixture: each of its cases has one review.\n  fix:      leave out --system.')
    expect(run.stderr).not.toContain('--slot')
    expect(await filesIn(fixture.dir)).toEqual(before)
  })

  test('on a scored fixture, --system still names the review, and a wrong one names the slots there are', async () => {
    const fixture = await copyFixture(BUNDLED.scored)
    await writeFile(join(fixture.dir, 'review.json'), '{}')
    const run = await runCli(['review', '.', '--case', 'partial-recall', '--system', 'review', '--from', 'review.json'], fixture.dir)
    expect(run.code).toBe(2)
    expect(headOf(run.stderr)).toMatchInlineSnapshot(`
      ".: a case of this kind has no review "review".
        expected: one of "debate", "baseline"
        fix:      pass --system debate or --system baseline."
    `)
  })

  test('through the API, a review slot named on a criteria fixture says to leave it out, not to pass a --slot option', async () => {
    const fixture = await copyFixture()
    const before = await filesIn(fixture.dir)
    const draft = { judgements: { support: { rating: 'meets', reason: 'Cited.' } } }
    const recording = recordReview(fixture.dir, draft, fileSource('review.json'), { caseId: 'not-reviewed', slot: 'debate', replace: false, cwd: fixture.dir })
    await expect(recording).rejects.toThrow(/a case of this kind has no review "debate"\.[\s\S]*fix:\s+leave the review out: a case of this kind has one\./)
    await expect(recording).rejects.not.toThrow(/--slot/)
    expect(await filesIn(fixture.dir)).toEqual(before)
  })
})
