import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { ROOT } from '../helpers/fixture-copy.js'

const A = 'examples/compare/answers-v1'
const B = 'examples/compare/answers-v2'

describe('vitest-rubric compare', () => {
  test('prints the bundled comparison: held-out result first, development material labelled as such', async () => {
    const { code, stdout, stderr } = await runCli(['compare', A, B])
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    expect(stdout).toMatchInlineSnapshot(`
      "A: answers-v1 (examples/compare/answers-v1), 13 cases
      B: answers-v2 (examples/compare/answers-v2), 13 cases
      same rubric.json (SHA-256 3a8dcd22e9f421ec51f4eae59bee09d2ac2f67b1bc5ad98ff1f465e7d6535228) and source.txt (SHA-256 2ce5d06d1dc27d2c278ac24bf446442d8276124ce33a629c1ca58fdb59d5fbd2)
      in A only: none; in B only: none

      held_out: the result
        8 of 9 tasks decided in both; 1 pending in B
        result: B − A = +37.5 points, 95% interval [−12.5, +69.3] (Newcombe, paired); McNemar exact p = 0.375 on 5 discordant pairs
        worst case for B: with the 1 undecided pair counted against B (B rejected, A accepted where undecided), B − A = +22.2 points, 95% interval [−26.6, +60.3] over 9 pairs
        accepted: A 2 of 8, 25.0% [7.1%, 59.1%]; B 5 of 8, 62.5% [30.6%, 86.3%]
        paired table: both accepted 1, A only 1, B only 4, both rejected 2
        A accepted, B rejected: held-guarantee
        B accepted, A rejected: held-routine, held-approval, held-terse, held-steps
        criterion       A meets  B meets  B − A   95% interval     McNemar p  fixed by B / broken by B
        command         7/8      7/8      ±0.0    [−31.6, +31.6]   1.000      none / none
        preconditions   8/8      8/8      ±0.0    [−32.4, +32.4]   1.000      none / none
        database_scope  8/8      8/8      ±0.0    [−32.4, +32.4]   1.000      none / none
        verification    2/8      8/8      +75.0   [+28.0, +92.9]   0.031      held-routine, held-approval, held-terse, held-database, held-steps, held-old-command / none
        support         8/8      6/8      −25.0   [−59.1, +12.0]   0.500      none / held-database, held-guarantee

      development: development material: not a result beyond these examples
        4 of 4 tasks decided in both
        development figures: B − A = ±0.0 points, 95% interval [−49.5, +49.5] (Newcombe, paired); McNemar exact p = 1.000 on 2 discordant pairs
        accepted: A 2 of 4, 50.0% [15.0%, 85.0%]; B 2 of 4, 50.0% [15.0%, 85.0%]
        paired table: both accepted 1, A only 1, B only 1, both rejected 1
        A accepted, B rejected: dev-fourth
        B accepted, A rejected: dev-first
        criterion       A meets  B meets  B − A   95% interval     McNemar p  fixed by B / broken by B
        command         4/4      4/4      ±0.0    [−49.0, +49.0]   1.000      none / none
        preconditions   4/4      4/4      ±0.0    [−49.0, +49.0]   1.000      none / none
        database_scope  4/4      4/4      ±0.0    [−49.0, +49.0]   1.000      none / none
        verification    2/4      4/4      +50.0   [−10.2, +85.0]   0.500      dev-first, dev-third / none
        support         4/4      2/4      −50.0   [−85.0, +10.2]   0.500      none / dev-third, dev-fourth

      figures per split, never pooled; intervals at 95%; definitions and how to read them: docs/compare.md
      "
    `)
  })

  test('--json prints the documented shape (docs/compare.md)', async () => {
    const { code, stdout } = await runCli(['compare', A, B, '--json'])
    expect(code).toBe(0)
    await expect(stdout).toMatchFileSnapshot('__snapshots__/compare-examples.json')
  })

  test('--split development prints development material only, and never a result line', async () => {
    const { stdout } = await runCli(['compare', A, B, '--split', 'development'])
    expect(stdout).toContain('development: development material: not a result beyond these examples')
    expect(stdout).not.toContain('held_out')
    expect(stdout).not.toMatch(/^ {2}result:/m)
  })

  test('compares two scored fixtures: paired pass figures and the mean score difference, with no interval below 10 cases', async () => {
    const { code, stdout } = await runCli(['compare', 'fixtures/debate-benchmark', 'fixtures/debate-benchmark', '--split', 'development', '--seed', 's'])
    expect(code).toBe(0)
    expect(stdout).toMatchInlineSnapshot(`
      "A: debate-benchmark (fixtures/debate-benchmark), 10 cases
      B: debate-benchmark (fixtures/debate-benchmark), 10 cases
      same evaluation_rubric.json (SHA-256 be89f77dd9c03442e7f5333d6dcf1b906512792f030048390e7a9bc66309c0e0); the debate system of each fixture is compared, its baseline left out
      in A only: none; in B only: none

      development: development material: not a result beyond these examples
        9 of 10 tasks decided in both; 1 pending in A, 1 pending in B
        development figures: B − A = ±0.0 points, 95% interval [−20.8, +20.8] (Newcombe, paired); McNemar exact p = 1.000 on 0 discordant pairs
        worst case for B: with the 1 undecided pair counted against B (B failed, A passed where undecided), B − A = −10.0 points, 95% interval [−33.6, +15.4] over 10 pairs
        passed: A 6 of 9, 66.7% [35.4%, 87.9%]; B 6 of 9, 66.7% [35.4%, 87.9%]
        paired table: both passed 6, A only 0, B only 0, both failed 3
        A passed, B failed: none
        B passed, A failed: none
        mean score over 9 cases scoreable in both: A 0.8474, B 0.8474; B − A = ±0.0000, SE 0.0000; no interval: cases to resample: 9, fewer than the 10 a bootstrap interval needs

      figures per split, never pooled; intervals at 95%; definitions and how to read them: docs/compare.md
      "
    `)
  })

  test('refuses fixtures on different rubrics (exit 1) and a wrong call (exit 2)', async () => {
    const refused = await runCli(['compare', A, 'fixtures/debate-benchmark'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('the two fixtures are of different kinds')
    const wrong = await runCli(['compare', A, B, '--split', 'test'])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain('--split takes held_out, development or all, not "test".')
    expect((await runCli(['compare', A])).code).toBe(2)
  })

  test('docs/compare.md shows what compare prints, and documents the compare gate without denying it', async () => {
    const doc = await readFile(join(ROOT, 'docs/compare.md'), 'utf8')
    const reading = doc.slice(doc.indexOf('## Reading the text'))
    const block = reading.slice(reading.indexOf('```\n') + 4, reading.indexOf('\n```', reading.indexOf('```\n') + 4))
    const { stdout } = await runCli(['compare', A, B, '--split', 'held_out'])
    // A line shortened with … is checked up to it.
    for (const line of block.split('\n'))
      expect(
        stdout.split('\n').some((printed) => printed.startsWith(line.split('…')[0]!)),
        line,
      ).toBe(true)
    // The page documents a gate that fails a run; it must not also say there is none.
    expect(doc).toContain('a one-sided test\nat the 2.5% level')
    expect(doc).not.toMatch(/No gate|fails nothing\.\s*$/m)
  })
})
