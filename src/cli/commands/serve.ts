import { spawn } from 'node:child_process'
import { startServer } from '../../web/server.js'
import { minReviewsOption, usage, type Command } from '../command.js'
import { fixtureDirs } from './status.js'

/** `vitest-rubric serve [dirs...]`: the local review page. */
export const serve: Command = {
  name: 'serve',
  summary: 'a local web page to read, review and adjudicate cases (loopback only, with a token)',
  help: `Usage: vitest-rubric serve [dir...] [--port <n>] [--host <host>] [--open] [--min-reviews <n>]

Starts a local server for the review page and prints its URL, which carries a random token. The
page shows every fixture's figures and cases, each case with its answer (spans highlighted), its
source (reference quotes highlighted), its criteria and its decision; it records reviews and
adjudications through the same path as \`review\` and \`adjudicate\`. Without directories it serves
the fixtures \`status\` finds under fixtures/. Ctrl-C stops it.

Options:
  --port <n>          the port (default 5178; 0 for any free port)
  --host <host>       the address to bind (default 127.0.0.1); anything else is reachable from
                      other machines, and is warned about
  --open              open the page in the default browser
  --min-reviews <n>   the several-reviewer rule's minimum, as for evaluate

Exit codes: 0 when stopped; 2 on a usage error.`,
  options: { port: { type: 'string' }, host: { type: 'string' }, open: { type: 'boolean', default: false }, 'min-reviews': { type: 'string' } },
  async run({ values, positionals }, io) {
    const dirs = positionals.length > 0 ? positionals : await fixtureDirs(io.cwd)
    if (dirs.length === 0) throw usage('serve', 'no fixture directories: pass some, or create one with `vitest-rubric init fixtures/<name>`.')
    const portText = values['port'] as string | undefined
    const port = portText === undefined ? 5178 : Number(portText)
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw usage('serve', `--port takes a port number, not ${JSON.stringify(portText)}.`)
    const host = (values['host'] as string | undefined) ?? '127.0.0.1'
    if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
      io.stderr(`warning: --host ${host} makes the page reachable from other machines; anyone with the URL and its token can write reviews.`)
    }
    const server = await startServer({ dirs, cwd: io.cwd, host, port, panel: { minReviews: minReviewsOption('serve', values['min-reviews']) } })
    io.stdout(`vitest-rubric review page for ${dirs.join(', ')}\n  ${server.url}\nCtrl-C stops it.`)
    if (values['open'] === true) openBrowser(server.url, io.stderr)
    await new Promise<void>((done) => {
      process.once('SIGINT', done)
      process.once('SIGTERM', done)
    })
    await server.close()
    io.stdout('stopped')
    return 0
  },
}

function openBrowser(url: string, warn: (text: string) => void): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open'
  const child = spawn(command, [url], { stdio: 'ignore', detached: true })
  child.on('error', () => warn(`could not open a browser (${command}); open the URL above.`))
  child.unref()
}
