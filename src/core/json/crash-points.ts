import { appendFileSync } from 'node:fs'

/**
 * The seam that proves a write is all-or-nothing: every step of a write that could be its last
 * calls `crashPoint`, and the environment can make the process die there (`kill -9`) or stop there
 * (`SIGSTOP`, as Ctrl-Z or a paused machine would), the way SQLite's crash tests stop a write after
 * step k for every k. Unset, a call costs a counter increment and two environment lookups.
 *
 * - `VITEST_RUBRIC_CRASH_AT=k`: SIGKILL at the k-th step of this process.
 * - `VITEST_RUBRIC_STOP_AT=name`: SIGSTOP at the first step of that name.
 * - `VITEST_RUBRIC_CRASH_TRACE=file`: appends "k name" for each step, so a test knows every k.
 */
let steps = 0
let stopped = false

export function crashPoint(name: string): void {
  steps++
  const env = process.env
  const trace = env['VITEST_RUBRIC_CRASH_TRACE']
  if (trace !== undefined && trace !== '') appendFileSync(trace, `${steps} ${name}\n`)
  if (env['VITEST_RUBRIC_CRASH_AT'] === String(steps)) process.kill(process.pid, 'SIGKILL')
  if (!stopped && env['VITEST_RUBRIC_STOP_AT'] === name) {
    stopped = true
    process.kill(process.pid, 'SIGSTOP')
  }
}
