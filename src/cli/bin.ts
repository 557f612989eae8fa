#!/usr/bin/env node
import { main } from './main.js'

const code = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  cwd: process.cwd(),
  terminal: process.stdin.isTTY && process.stdout.isTTY ? { input: process.stdin, output: process.stdout } : undefined,
})
// Stopped by a signal (judge on Ctrl-C), or a judge run its module ended (3): what was finished is written; calls still in
// flight are not waited for, and none of them can end the process with an exit code of its own.
if (code >= 128 || code === 3) process.exit(code)
process.exitCode = code
