// The waits of a judge run (a retry's backoff, the calls in flight) that a stop (Ctrl-C, the module ending the run) cuts short.

/** Waits `ms`; false when the run was stopped meanwhile. */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted === true) return Promise.resolve(false)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop)
      resolve(true)
    }, ms)
    const stop = () => {
      clearTimeout(timer)
      resolve(false)
    }
    signal?.addEventListener('abort', stop, { once: true })
  })
}

/** Resolves when the signal aborts; never without one. */
export function abortion(signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return new Promise(() => {})
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
}
