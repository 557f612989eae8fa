import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { createServer, connect } from 'node:net'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import { ROOT } from './fixture-copy.js'
import { scratchDir } from './scratch.js'

/** Debian's nginx, found on PATH or at /usr/sbin/nginx (outside a non-root PATH); `undefined` when it is not installed. */
export function findNginx(): string | undefined {
  const which = spawnSync('which', ['nginx'], { encoding: 'utf8' })
  const found = which.status === 0 ? which.stdout.trim() : ''
  if (found !== '') return found
  return existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : undefined
}

/** The nginx configuration of docs/review-page.md's "Behind a reverse proxy", as printed there. */
export async function documentedNginxServer(): Promise<string> {
  const doc = await readFile(join(ROOT, 'docs/review-page.md'), 'utf8')
  const section = doc.slice(doc.indexOf('## Behind a reverse proxy'))
  const block = /```nginx\n([\s\S]*?)```/.exec(section)?.[1]
  if (block === undefined) throw new Error('docs/review-page.md › Behind a reverse proxy: no ```nginx block')
  // The first server block: the TLS one, whose locations are what the test runs.
  return block.slice(0, block.indexOf('\n}\n') + 3)
}

/**
 * Runs the documented nginx server block in front of the server at `upstream`, on a free loopback
 * port, with its own prefix, configuration, logs and temporary files in a scratch folder, until the
 * test ends. Over plain HTTP (the TLS lines are dropped), unless `tls` names the host of a
 * certificate: then nginx terminates TLS as documented, with a self-signed certificate for that
 * host made by openssl in the scratch folder (a browser takes it with `ignoreHTTPSErrors`).
 */
export async function behindNginx(nginx: string, upstream: number, options: { readonly tls?: string } = {}): Promise<{ port: number; dir: string }> {
  const dir = await scratchDir('nginx')
  // Run as root, nginx's workers are `nobody`: they write their temporary files here.
  for (const sub of ['logs', 'body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    await mkdir(join(dir, sub), { recursive: true })
    await chmod(join(dir, sub), 0o777)
  }
  const port = await freePort()
  if (options.tls !== undefined) {
    const made = spawnSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${options.tls}`, '-addext', `subjectAltName=DNS:${options.tls}`].concat([
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ]),
      { encoding: 'utf8' },
    )
    if (made.status !== 0) throw new Error(`openssl could not make a test certificate: ${made.stderr || made.error?.message}`)
  }
  const server = (await documentedNginxServer())
    .split('\n')
    .filter((line) => options.tls !== undefined || !/^\s*ssl_/.test(line))
    .map((line) =>
      line
        .replace(/listen 443 ssl;/, `listen 127.0.0.1:${port}${options.tls === undefined ? '' : ' ssl'};`)
        .replace(/ssl_certificate (\S+);/, `ssl_certificate ${join(dir, 'cert.pem')};`)
        .replace(/ssl_certificate_key (\S+);/, `ssl_certificate_key ${join(dir, 'key.pem')};`)
        .replace(/127\.0\.0\.1:5178/g, `127.0.0.1:${upstream}`),
    )
    .join('\n')
  const conf = `worker_processes 1;
error_log ${dir}/logs/error.log;
events { worker_connections 64; }
http {
  access_log ${dir}/logs/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  # A large answer (the page's script) is passed on as it comes rather than kept in a temporary file, which
  # nginx's workers (\`nobody\` when run as root) could not write in the test's private scratch folder.
  proxy_max_temp_file_size 0;
${server}
}
`
  await writeFile(join(dir, 'nginx.conf'), conf)
  const args = ['-p', dir, '-e', `${dir}/logs/error.log`, '-c', join(dir, 'nginx.conf'), '-g', `daemon off; pid ${dir}/nginx.pid;`]
  const child = spawn(nginx, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const exited = new Promise<number | null>((done) => child.once('exit', done))
  onTestFinished(async () => {
    child.kill('SIGQUIT')
    await exited
  })
  // Ready once it accepts connections; an nginx that exits (a bad configuration) says why.
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`nginx exited (${child.exitCode}): ${stderr}${await readFile(join(dir, 'logs/error.log'), 'utf8').catch(() => '')}`)
    if (await accepts(port)) return { port, dir }
    await new Promise((done) => setTimeout(done, 20))
  }
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => done(typeof address === 'object' && address !== null ? address.port : 0))
    })
  })
}

function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      done(true)
    })
    socket.once('error', () => done(false))
  })
}
