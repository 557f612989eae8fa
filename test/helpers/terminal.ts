import { PassThrough, Writable } from 'node:stream'
import { stripVTControlCharacters } from 'node:util'

/** Keys as a terminal sends them. */
export const KEY = { enter: '\r', down: '\u001b[B', up: '\u001b[A', ctrlC: '\u0003' } as const

/**
 * A scripted terminal for an interactive command: each step waits until the screen (what the
 * command drew, escape codes stripped) shows `expect` after the previous step's match, then types
 * `keys`. `timeout` ms is a guard against a hang, not a budget: when a step waits that long the
 * terminal types Ctrl-C, so the command stops at its prompt, and `finished()` throws what was
 * awaited with the screen so far.
 */
export function scriptedTerminal(steps: readonly { readonly expect: string | RegExp; readonly keys: string }[], timeout = 30_000) {
  const input = new PassThrough()
  let screen = ''
  let consumed = 0
  let step = 0
  let failure: Error | undefined
  let timer: NodeJS.Timeout | undefined
  const arm = () => {
    clearTimeout(timer)
    if (step >= steps.length) return
    timer = setTimeout(() => {
      failure = new Error(`waited ${timeout} ms for ${String(steps[step]!.expect)}; the screen shows:\n${screen.slice(-2000)}`)
      step = steps.length
      input.write(KEY.ctrlC)
    }, timeout)
  }
  const advance = () => {
    while (step < steps.length) {
      const { expect, keys } = steps[step]!
      const rest = screen.slice(consumed)
      const at = typeof expect === 'string' ? rest.indexOf(expect) : rest.search(expect)
      if (at === -1) return
      consumed += at + 1
      step++
      arm()
      // Typed on a later turn of the event loop: the prompt drew this screen while it set up, and
      // listens once that set-up returns.
      setImmediate(() => {
        for (const char of keys.startsWith('\u001b') ? [keys] : [...keys]) input.write(char)
      })
    }
  }
  const output = new Writable({
    write(chunk, _encoding, done) {
      screen += stripVTControlCharacters(chunk.toString())
      advance()
      done()
    },
  })
  arm()
  return {
    terminal: { input, output },
    screen: () => screen,
    /** Every step was reached and no step timed out. */
    finished: () => {
      clearTimeout(timer)
      if (failure !== undefined) throw failure
      if (step < steps.length) throw new Error(`stopped before step ${step + 1} (${String(steps[step]!.expect)}); the screen shows:\n${screen.slice(-2000)}`)
    },
  }
}
