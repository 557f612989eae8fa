import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import { ROOT } from './fixture-copy.js'

/** How a `vitest-rubric serve` started by {@link serveProcess} went: it printed its links and serves, or it exited with a code. */
export interface ServeProcess {
  readonly outcome: { readonly code: number | null | 'serving' }
  readonly stdout: () => string
  readonly stderr: () => string
}

/**
 * Runs the built `vitest-rubric serve <args>` in `root`, in a process of its own, until it prints
 * its links (it is then stopped with Ctrl-C when the test ends) or exits.
 */
export async function serveProcess(root: string, args: readonly string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'dist/cli/bin.js'), 'serve', ...args], { cwd: root })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((done) => child.on('exit', done))
  const outcome = await Promise.race([
    exited.then((code) => ({ code })),
    new Promise<{ code: 'serving' }>((done) => child.stdout.on('data', () => stdout.includes('Ctrl-C') && done({ code: 'serving' }))),
  ])
  onTestFinished(async () => {
    if (child.exitCode === null) {
      child.kill('SIGINT')
      await exited
    }
  })
  return { outcome, stdout: () => stdout, stderr: () => stderr }
}
