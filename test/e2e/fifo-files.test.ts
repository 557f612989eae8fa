import { execFileSync } from 'node:child_process'
import { lstat, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { makeProject } from '../helpers/scratch.js'
import { runVitest } from '../helpers/run-vitest.js'

/*
 * A named pipe where a fixture file should be is refused at once, naming the file and what it is:
 * reading one waits for a writer that may never come, which hung every command and `vitest run`
 * with no output. Nothing is read from the pipe (no writer ever opens it here).
 */

/** A project holding the bundled fixture at fixtures/lab, with `name` replaced by a named pipe. */
async function withPipe(name: string): Promise<string> {
  const root = await makeProject({ 'fixtures/lab': null })
  await rm(join(root, 'fixtures/lab', name))
  execFileSync('mkfifo', [join(root, 'fixtures/lab', name)])
  return root
}

describe('a named pipe in place of a fixture file', { timeout: 60_000 }, () => {
  test.each(['cases.json', 'annotations.json', 'source.txt'])('%s: evaluate, status and add refuse the fixture at once, naming the file', async (name) => {
    const root = await withPipe(name)
    for (const args of [
      ['evaluate', 'fixtures/lab'],
      ['status', 'fixtures/lab'],
      ['add', 'fixtures/lab', '--id', 'new', '--answer', 'An answer.', '--citation', 'guide'],
    ]) {
      const run = await runCli(args, root)
      expect(run.code, args[0]).toBe(1)
      expect(run.stderr + run.stdout).toContain(`fixtures/lab/${name}: the path is a named pipe, not a regular file; nothing was read from it.`)
      expect(run.stderr).not.toMatch(/^\s+at /m)
    }
  })

  test('rubric.json: the message names what is there', async () => {
    const root = await withPipe('rubric.json')
    const run = await runCli(['evaluate', 'fixtures/lab'], root)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('rubric.json (a named pipe)')
  })

  test('a Vitest run fails the fixture with the message, and ends', async () => {
    const root = await withPipe('cases.json')
    const run = await runVitest({ root })
    expect(run.exitCode).toBe(1)
    expect(run.modules.find((module) => module.id === 'fixtures/lab/rubric.json')?.errors.join('\n')).toContain(
      'fixtures/lab/cases.json: the path is a named pipe, not a regular file; nothing was read from it.',
    )
  })

  test('an output the package writes over (schema --out) is replaced, not waited on', async () => {
    const root = await makeProject({})
    await runCli(['schema', '--out', 'schemas'], root)
    await rm(join(root, 'schemas/rubric.schema.json'))
    execFileSync('mkfifo', [join(root, 'schemas/rubric.schema.json')])
    const run = await runCli(['schema', '--out', 'schemas'], root)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('schemas/rubric.schema.json: written')
    expect((await lstat(join(root, 'schemas/rubric.schema.json'))).isFile()).toBe(true)
  })
})
