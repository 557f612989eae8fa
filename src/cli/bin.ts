#!/usr/bin/env node
import { main } from './main.js'

/**
 * Writes lines to `stream` until its reader goes away (`vitest-rubric serve | head -4`): a closed
 * pipe (EPIPE) is no mistake of the user's, so what would follow is dropped without a word and the
 * command carries on; any other error of the stream stays an error.
 */
function lines(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
    closed = true
  })
  return (text) => {
    if (!closed) stream.write(`${text}\n`)
  }
}

const code = await main(process.argv.slice(2), {
  stdout: lines(process.stdout),
  stderr: lines(process.stderr),
  cwd: process.cwd(),
  terminal: process.stdin.isTTY && process.stdout.isTTY ? { input: process.stdin, output: process.stdout } : undefined,
})
// Stopped by a signal (judge on Ctrl-C), or a judge run its module ended (3): what was finished is written; calls still in
// flight are not waited for, and none of them can end the process with an exit code of its own.
if (code >= 128 || code === 3) process.exit(code)
process.exitCode = code
