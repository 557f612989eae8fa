import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { filesIn } from '../helpers/bad-input.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture } from '../helpers/fixture-copy.js'

/*
 * A file named on the command line (`--from`, `--answer-file`) that is not there is a wrong
 * argument: the message names the option and the path, and says to check the path. It is none of
 * the fixture's files, so it never says that a fixture directory needs all of its files.
 */

const headOf = (stderr: string) => stderr.split('\n\n')[0]

describe('a file given on the command line that does not exist', () => {
  test('review --from nofile.json: a usage error (exit 2) naming --from and the path, and nothing is written', async () => {
    const fixture = await copyFixture()
    const before = await filesIn(fixture.dir)
    const run = await runCli(['review', '.', '--case', 'not-reviewed', '--from', 'nofile.json'], fixture.dir)
    expect(run.code).toBe(2)
    expect(headOf(run.stderr)).toMatchInlineSnapshot(`
      "nofile.json: the file given to --from does not exist.
        fix:      check the path given to --from: a relative path is taken from the folder the command runs in."
    `)
    expect(run.stderr).not.toContain('fixture directory')
    expect(await filesIn(fixture.dir)).toEqual(before)
  })

  test.each([
    [['review', '.', '--judge', 'kw', '--from', 'labels/none.jsonl'], 'labels/none.jsonl: the file given to --from does not exist.'],
    [['adjudicate', '.', '--case', 'complete', '--adjudicator', 'carol', '--from', 'nofile.json'], 'nofile.json: the file given to --from does not exist.'],
    [['add', '.', '--from', 'nofile.json'], 'nofile.json: the file given to --from does not exist.'],
    [['add', '.', '--id', 'n1', '--answer-file', 'answer.txt', '--citation', 'c'], 'answer.txt: the file given to --answer-file does not exist.'],
    [['review', '.', '--case', 'not-reviewed', '--from', 'notes'], 'notes: the path given to --from is a directory, not a file.'],
  ])('%j: %s', async (argv, said) => {
    const fixture = await copyFixture()
    await mkdir(join(fixture.dir, 'notes'))
    const before = await filesIn(fixture.dir)
    const run = await runCli(argv, fixture.dir)
    expect(run.code).toBe(2)
    expect(run.stderr.split('\n')[0]).toBe(said)
    expect(run.stderr).toContain('  fix:      check the path given to --')
    expect(run.stderr).not.toContain('fixture directory')
    expect(await filesIn(fixture.dir)).toEqual(before)
  })
})
