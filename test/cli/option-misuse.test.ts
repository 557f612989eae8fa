import { describe, expect, test } from 'vitest'
import { COMMANDS } from '../../src/cli/main.js'
import { filesIn } from '../helpers/bad-input.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture } from '../helpers/fixture-copy.js'

/*
 * A command line that `node:util`'s parseArgs cannot read (an unknown option, an option without its
 * value, a flag given one) is a usage error in this package's words: the command, the option, what
 * was expected and a fix, then the usage, exit 2. Node's own wording ("argument is ambiguous", an
 * unbalanced quote) never reaches the user, and a negative number after an option is its value.
 */

/** The first paragraph of what the CLI printed: the error, before the usage. */
const headOf = (stderr: string) => stderr.split('\n\n')[0]

describe('an option misused on the command line', () => {
  test('an unknown option names the command and the option it most likely meant', async () => {
    const run = await runCli(['calibrate', 'fixtures/docuctl-rollback', '--jsn'])
    expect(run.code).toBe(2)
    expect(headOf(run.stderr)).toMatchInlineSnapshot(`
      "vitest-rubric calibrate: unknown option --jsn (did you mean --json?).
        expected: one of --judge, --json, --seed, --min-reviews, --help
        fix:      write --json."
    `)
    expect(run.stderr).toContain('\n\nUsage: vitest-rubric calibrate <dir...>')
    expect(run.stdout).toBe('')
  })

  test('an unknown option nothing is close to says how to pass an argument that starts with "-"', async () => {
    const run = await runCli(['status', 'fixtures/docuctl-rollback', '-x'])
    expect(run.code).toBe(2)
    expect(headOf(run.stderr)).toMatchInlineSnapshot(`
      "vitest-rubric status: unknown option -x.
        expected: one of --json, --min-reviews, --help
        fix:      leave -x out, or give an option the usage below lists; an argument that starts with "-" and is no option goes after "--" (vitest-rubric status -- -x)."
    `)
  })

  test("an unknown option before any command is told as the program's", async () => {
    const run = await runCli(['--verison'])
    expect(run.code).toBe(2)
    expect(headOf(run.stderr)).toMatchInlineSnapshot(`
      "vitest-rubric: unknown option --verison (did you mean --version?).
        expected: one of --help, --version
        fix:      write --version."
    `)
  })

  test('an option given no value says which value it takes, by the name the usage gives it', async () => {
    const run = await runCli(['estimate', 'fixtures/docuctl-rollback', '--judge'])
    expect(run.code).toBe(2)
    expect(headOf(run.stderr)).toMatchInlineSnapshot(`
      "vitest-rubric estimate: --judge needs a value.
        expected: --judge <name>
        fix:      give --judge its value: --judge <name>."
    `)
  })

  test('an option followed by another option has no value: it is not given the option', async () => {
    const run = await runCli(['estimate', 'fixtures/docuctl-rollback', '--judge', '--json'])
    expect(run.code).toBe(2)
    expect(headOf(run.stderr)).toMatchInlineSnapshot(`
      "vitest-rubric estimate: --judge needs a value, and --json after it is an option, not its value.
        expected: --judge <name>
        fix:      give --judge its value before the next option; a value that starts with "-" is written --judge=--json."
    `)
  })

  test('a flag given a value is refused, naming the value', async () => {
    const run = await runCli(['calibrate', 'fixtures/docuctl-rollback', '--json=x'])
    expect(run.code).toBe(2)
    expect(headOf(run.stderr)).toMatchInlineSnapshot(`
      "vitest-rubric calibrate: --json takes no value, not "x".
        expected: --json alone
        fix:      write --json, without "=x"."
    `)
  })

  test.each([
    [
      ['sample', '.', '--size', '-1', '--seed', '1'],
      ['sample', '.', '--size=-1', '--seed', '1'],
    ],
    [
      ['sample', '.', '--size', '-0.5', '--seed', '1'],
      ['sample', '.', '--size=-0.5', '--seed', '1'],
    ],
    [
      ['judge', '.', '--judge', 'k', '--run', 'examples/judges/keyword-judge.mjs', '--retries', '-1'],
      ['judge', '.', '--judge', 'k', '--run', 'examples/judges/keyword-judge.mjs', '--retries=-1'],
    ],
    [
      ['next', '.', '--limit', '-2'],
      ['next', '.', '--limit=-2'],
    ],
  ])('a negative number after an option is its value: %j is told as %j is', async (spaced, joined) => {
    const fixture = await copyFixture()
    const before = await filesIn(fixture.dir)
    const [run, same] = [await runCli(spaced, fixture.dir), await runCli(joined, fixture.dir)]
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(same.stderr)
    expect(run.stderr).toMatch(new RegExp(`^vitest-rubric ${spaced[0]}: --\\w+ takes a whole number`))
    expect(await filesIn(fixture.dir)).toEqual(before)
  })

  test('a --size too large for any fixture is told as too large, not as no whole number', async () => {
    const run = await runCli(['sample', 'fixtures/docuctl-rollback', '--size', '99999999999999999999', '--seed', '1'])
    expect(run.code).toBe(2)
    expect(headOf(run.stderr)).toMatchInlineSnapshot(`
      "vitest-rubric sample: --size 99999999999999999999 is more cases than a fixture can hold; give a whole number up to the number of cases to draw.
        fix:      see the usage below."
    `)
  })

  test('every command tells each misuse of each of its options in its own words, with its usage, exit 2', async () => {
    let checked = 0
    for (const command of COMMANDS.values()) {
      for (const [name, option] of Object.entries(command.options)) {
        const argv = option.type === 'boolean' ? [command.name, `--${name}=yes`] : [command.name, `--${name}`]
        const run = await runCli(argv)
        expect(run.code, argv.join(' ')).toBe(2)
        expect(run.stderr, argv.join(' ')).toMatch(
          new RegExp(`^vitest-rubric ${command.name}: --${name} (takes no value, not "yes"|needs a value)\\.\\n.*\\n  fix: `),
        )
        expect(run.stderr, argv.join(' ')).toContain(`\n\n${command.help}`)
        checked++
      }
      const unknown = await runCli([command.name, '--no-such-option'])
      expect(unknown.code).toBe(2)
      expect(unknown.stderr).toMatch(new RegExp(`^vitest-rubric ${command.name}: unknown option --no-such-option\\.\\n`))
    }
    expect(checked).toBeGreaterThan(40)
  })
})
