import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { fixtureRoot } from '../helpers/page-browser.js'

// A reader that goes away (`vitest-rubric serve | head -4`, `evaluate | head -1`) closes the pipe
// the built bin writes to: its later writes fail with EPIPE, which is no mistake of the user's.

const BIN = join(ROOT, 'dist/cli/bin.js')

/** The built bin in a child process whose stdout is a pipe the test can close. */
function started(args: readonly string[], cwd: string) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((done) => child.on('close', done))
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL')
      await exited
    }
  })
  return { child, exited, stdout: () => stdout, stderr: () => stderr }
}

test('serve | head: the server keeps serving once its stdout is closed, and stops on Ctrl-C with exit 0 and no stack', async () => {
  const root = await fixtureRoot('closed-stdout', { 'fixtures/lab': DOCUCTL })
  const run = started(['serve', 'fixtures/lab', '--port', '0'], root)
  await new Promise<void>((done) => run.child.stdout.on('data', () => run.stdout().includes('Ctrl-C') && done()))
  const url = /http:\/\/\S+/.exec(run.stdout())![0]
  // The reader goes away, as head does once it has its lines.
  run.child.stdout.destroy()
  expect((await fetch(new URL('/api/version', url), { headers: { 'x-rubric-token': new URL(url).searchParams.get('token')! } })).status).toBe(200)
  // Stopping writes "stopped" to the closed pipe.
  run.child.kill('SIGINT')
  expect(await run.exited).toBe(0)
  expect(run.stderr()).toBe('')
})

test('evaluate | head: a command whose stdout is closed before it writes finishes with its own exit code, and no stack', async () => {
  const root = await fixtureRoot('closed-stdout', { 'fixtures/lab': DOCUCTL })
  const run = started(['evaluate', 'fixtures/lab'], root)
  run.child.stdout.destroy()
  expect(await run.exited).toBe(0)
  expect(run.stderr()).toBe('')
})
