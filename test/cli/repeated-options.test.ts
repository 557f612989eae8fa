import { describe, expect, test } from 'vitest'
import { COMMANDS } from '../../src/cli/main.js'
import { filesIn } from '../helpers/bad-input.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

/*
 * An option that takes one value, given twice: `node:util`'s parseArgs keeps the last, so
 * `review --case a --case b` reviewed b. Which one was meant is a guess, so it is a usage error
 * naming the option and both values, and the command does not run.
 */

/** The first paragraph of what the CLI printed: the error, before the usage. */
const headOf = (stderr: string) => stderr.split('\n\n')[0]

describe('an option that takes one value, given twice', () => {
  test('review --case twice is refused (exit 2) naming both cases, and nothing is written', async () => {
    const fixture = await copyFixture()
    const before = await filesIn(fixture.dir)
    const run = await runCli(
      ['review', '.', '--case', 'not-reviewed', '--case', 'uncertain-wording', '--rating', 'support=meets', '--reason', 'support=Cited.'],
      fixture.dir,
    )
    expect(run.code).toBe(2)
    expect(headOf(run.stderr)).toMatchInlineSnapshot(`
      "vitest-rubric review: --case is given twice ("not-reviewed", "uncertain-wording"); it takes one value: give it once.
        fix:      see the usage below."
    `)
    expect(run.stderr).toContain('Usage: vitest-rubric review <dir>')
    expect(run.stdout).toBe('')
    expect(await filesIn(fixture.dir)).toEqual(before)
  })

  test.each([
    [['convert', '.', '--to', 'seed', '--to', 'records'], '--to is given twice ("seed", "records")'],
    [['add', '.', '--id', 'n1', '--id', 'n2', '--answer', 'a', '--answer', 'b', '--citation', 'c'], '--id is given twice ("n1", "n2")'],
    [['add', '.', '--id', 'n1', '--answer', 'a', '--answer=b', '--citation', 'c'], '--answer is given twice ("a", "b")'],
    [['review', '.', '--case', 'complete', '--reviewer', 'alice', '--reviewer=bob', '--rating', 'support=meets'], '--reviewer is given twice ("alice", "bob")'],
    [
      ['adjudicate', '.', '--case', 'complete', '--adjudicator', 'carol', '--adjudicator', 'dan', '--take', 'alice'],
      '--adjudicator is given twice ("carol", "dan")',
    ],
    [
      ['adjudicate', '.', '--case', 'complete', '--adjudicator', 'carol', '--take', 'alice', '--take', 'bob', '--take', 'eve'],
      '--take is given 3 times ("alice", "bob", "eve")',
    ],
  ])('%j is refused: %s', async (argv, said) => {
    const fixture = await copyFixture()
    const before = await filesIn(fixture.dir)
    const run = await runCli(argv, fixture.dir)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(new RegExp(`^vitest-rubric ${argv[0]}: ${said.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; it takes one value: give it once\\.\n`))
    expect(await filesIn(fixture.dir)).toEqual(before)
  })

  test('every command refuses each of its one-value options given twice, before it runs', async () => {
    const cwd = await scratchDir('repeated-options')
    let checked = 0
    for (const command of COMMANDS.values()) {
      for (const [name, option] of Object.entries(command.options)) {
        if (option.type !== 'string' || option.multiple === true) continue
        const run = await runCli([command.name, `--${name}`, 'first', `--${name}`, 'second'], cwd)
        expect({ command: command.name, code: run.code, head: run.stderr.split('\n')[0] }).toEqual({
          command: command.name,
          code: 2,
          head: `vitest-rubric ${command.name}: --${name} is given twice ("first", "second"); it takes one value: give it once.`,
        })
        checked++
      }
    }
    expect(checked).toBeGreaterThan(40)
  })

  test('options declared repeatable still repeat, and a flag given twice says the same thing twice', async () => {
    const fixture = await copyFixture()
    const bound = await runCli(['bind', '.', '--case', 'complete', '--case', 'paraphrase', '--dry-run', '--dry-run'], fixture.dir)
    expect(bound.stderr).toBe('')
    expect(bound.code).toBe(0)
    expect(bound.stdout).toContain('complete: already bound')
    expect(bound.stdout).toContain('paraphrase: already bound')
    const reviewed = await runCli(
      [
        'review',
        '.',
        '--case',
        'not-reviewed',
        '--rating',
        'command=meets',
        '--reason',
        'command=Gives it.',
        '--rating',
        'support=meets',
        '--reason',
        'support=Cited.',
      ],
      fixture.dir,
    )
    expect(reviewed.stderr).toBe('')
    expect(reviewed.code).toBe(0)
  })
})

describe('an option given an empty value', () => {
  test("schema --out '' is refused (exit 2), and no schema file is written in the current folder", async () => {
    const cwd = await scratchDir('empty-option')
    const run = await runCli(['schema', '--out', ''], cwd)
    expect(run.code).toBe(2)
    expect(headOf(run.stderr)).toMatchInlineSnapshot(`
      "vitest-rubric schema: --out is given an empty value; give it a value, or leave the option out.
        fix:      see the usage below."
    `)
    expect(await filesIn(cwd)).toEqual({})
  })

  test('every command refuses each of its options given an empty value, before it runs', async () => {
    const fixture = await copyFixture()
    const before = await filesIn(fixture.dir)
    let checked = 0
    for (const command of COMMANDS.values()) {
      for (const [name, option] of Object.entries(command.options)) {
        if (option.type !== 'string') continue
        const run = await runCli([command.name, '.', `--${name}=`], fixture.dir)
        expect({ command: command.name, code: run.code, head: run.stderr.split('\n')[0] }).toEqual({
          command: command.name,
          code: 2,
          head: `vitest-rubric ${command.name}: --${name} is given an empty value; give it a value, or leave the option out.`,
        })
        checked++
      }
    }
    expect(checked).toBeGreaterThan(60)
    expect(await filesIn(fixture.dir)).toEqual(before)
  })
})
