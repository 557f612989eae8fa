import type { Server } from 'node:http'
import { RubricError } from '../core/common/errors.js'

type ListenErrorCode = 'PORT_IN_USE' | 'HOST_NOT_LOCAL' | 'PORT_NOT_PERMITTED' | 'LISTEN_FAILED'

/** Why the server could not start, in one line: a port in use, an address not on this machine. */
export class ListenError extends RubricError {
  /** The system's code (`EADDRINUSE`, `EACCES`, …), when it gave one. */
  readonly errno: string | undefined

  /** The message is `summary: hint`, one line, as serve prints it. */
  constructor(code: ListenErrorCode, errno: string | undefined, summary: string, hint: string) {
    super({ code, file: 'vitest-rubric serve', summary, hint }, `${summary}: ${hint}`)
    this.errno = errno
  }
}

/** The ports tried above a busy one before giving up: as many as anyone runs servers side by side. */
const PORT_TRIES = 50

export async function listen(server: Server, host: string, first: number, strict: boolean): Promise<void> {
  for (let port = first; ; port++) {
    const failure = await new Promise<NodeJS.ErrnoException | undefined>((done) => {
      const onError = (error: NodeJS.ErrnoException) => done(error)
      server.once('error', onError)
      server.listen(port, host, () => {
        server.off('error', onError)
        done(undefined)
      })
    })
    if (failure === undefined) return
    const busy = failure.code === 'EADDRINUSE'
    if (busy && !strict && first !== 0 && port < Math.min(first + PORT_TRIES, 65535)) continue
    if (busy && strict)
      throw new ListenError(
        'PORT_IN_USE',
        failure.code,
        `port ${port} on ${host} is in use`,
        'stop what uses it, or choose another port with --port (0 for any free port).',
      )
    if (busy)
      throw new ListenError(
        'PORT_IN_USE',
        failure.code,
        `ports ${first} to ${port} on ${host} are all in use`,
        'choose a port with --port (0 for any free port).',
      )
    if (failure.code === 'EADDRNOTAVAIL' || failure.code === 'ENOTFOUND') {
      throw new ListenError(
        'HOST_NOT_LOCAL',
        failure.code,
        `cannot listen on ${host}, which is not an address of this machine`,
        'give --host an address of this machine, or leave --host out to serve on 127.0.0.1.',
      )
    }
    if (failure.code === 'EACCES')
      throw new ListenError(
        'PORT_NOT_PERMITTED',
        failure.code,
        `port ${port} on ${host} needs privileges this process does not have`,
        'choose a port above 1023 with --port.',
      )
    throw new ListenError(
      'LISTEN_FAILED',
      failure.code,
      `cannot listen on ${host}:${port} (${failure.message.split('\n')[0]})`,
      'check --host and --port against the reason the system gave.',
    )
  }
}
