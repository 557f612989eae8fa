import type { Server } from 'node:http'

/** Why the server could not start, in one line: a port in use, an address not on this machine. */
export class ListenError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'ListenError'
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
    if (busy && strict) throw new ListenError('EADDRINUSE', `port ${port} on ${host} is in use: stop what uses it, or choose another port with --port (0 for any free port).`)
    if (busy) throw new ListenError('EADDRINUSE', `ports ${first} to ${port} on ${host} are all in use: choose a port with --port (0 for any free port).`)
    if (failure.code === 'EADDRNOTAVAIL' || failure.code === 'ENOTFOUND') throw new ListenError(failure.code, `cannot listen on ${host}: it is not an address of this machine.`)
    if (failure.code === 'EACCES') throw new ListenError(failure.code, `port ${port} on ${host} needs privileges this process does not have: choose a port above 1023 with --port.`)
    throw new ListenError(failure.code ?? 'LISTEN_FAILED', `cannot listen on ${host}:${port}: ${failure.message.split('\n')[0]}`)
  }
}

