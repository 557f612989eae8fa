import { mkdir, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
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

describe('report --html given a fixture directory that does not exist', () => {
  test.each([
    [['fixtures/nowhere'], 'fixtures/nowhere: no such fixture directory.'],
    [['fixtures/lab', 'fixtures/nowhere'], 'fixtures/nowhere: no such fixture directory.'],
    [['fixtures/lab/rubric.json'], 'fixtures/lab/rubric.json: the path is a file, not a fixture directory.'],
  ])('%j is refused as every command refuses it (FIXTURE_NOT_FOUND, exit 1), and no report is written', async (dirs, message) => {
    const root = await scratchDir('missing-fixture')
    expect((await runCli(['init', 'fixtures/lab', '--template', 'docuctl'], root)).code).toBe(0)
    const before = await readdir(root)
    const run = await runCli(['report', '--html', ...dirs], root)
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr.split('\n')[0]).toBe(message)
    expect(await readdir(root)).toEqual(before)
  })

  test('a directory that exists is reported, its fixture refused or not', async () => {
    const root = await scratchDir('missing-fixture')
    expect((await runCli(['init', 'fixtures/lab', '--template', 'docuctl'], root)).code).toBe(0)
    await mkdir(join(root, 'fixtures/empty'))
    expect(await runCli(['report', '--html', 'fixtures/lab', 'fixtures/empty'], root)).toEqual({
      code: 0,
      stdout: 'wrote .vitest-rubric/report.html\n',
      stderr: '',
    })
    expect(await readFile(join(root, '.vitest-rubric/report.html'), 'utf8')).toContain('fixtures/empty')
  })
})

describe('serve given a fixture directory that does not exist', () => {
  test.each([
    [['fixtures/nowhere'], 'fixtures/nowhere: no such fixture directory.'],
    [['fixtures/lab', 'fixtures/nowhere'], 'fixtures/nowhere: no such fixture directory.'],
    [['fixtures/lab/rubric.json'], 'fixtures/lab/rubric.json: the path is a file, not a fixture directory.'],
  ])('%j is refused as every command refuses it (FIXTURE_NOT_FOUND, exit 1), and nothing is served', { timeout: 15_000 }, async (dirs, message) => {
    const root = await scratchDir('missing-fixture')
    expect((await runCli(['init', 'fixtures/lab', '--template', 'docuctl'], root)).code).toBe(0)
    const run = await runCli(['serve', ...dirs, '--port', '0'], root)
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr.split('\n')[0]).toBe(message)
  })
})
