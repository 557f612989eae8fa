import { readdir } from 'node:fs/promises'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { scratchDir } from '../helpers/scratch.js'

// A command that writes takes the fixture's lock first: a fixture folder that does not exist is
// said to be missing, as a command that only reads says it, never as a lock that failed.

describe('a writing command given a fixture directory that does not exist', () => {
  test.each([
    ['sample', ['--size', '3', '--seed', 'x']],
    ['review', ['--case', 'x', '--rating', 'support=meets', '--reason', 'support=Cited.']],
    ['origin', ['--set', 'a lab']],
  ])('%s says there is no such fixture directory, and makes nothing', async (command, rest) => {
    const root = await scratchDir('missing-fixture')
    const run = await runCli([command, 'fixtures/nowhere', ...rest], root)
    expect(run.code).toBe(1)
    expect(run.stderr.split('\n')[0]).toMatch(/^fixtures\/nowhere: no such fixture directory(; nothing was changed)?\.$/)
    expect(run.stderr).not.toContain('.rubric.lock')
    expect(await readdir(root)).toEqual([])
  })
})
