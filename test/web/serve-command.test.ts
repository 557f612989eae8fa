import { createServer, type Server } from 'node:net'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, onTestFinished, test } from 'vitest'
import { startServer } from '../../src/web/server.js'
import { DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { fixtureRoot } from '../helpers/page-browser.js'
import { serveProcess } from '../helpers/serve-process.js'

/** A port held by another listener until the test ends; `port` 0 for any free one. */
async function occupied(port = 0): Promise<number | null> {
  const holder: Server = createServer()
  const bound = await new Promise<boolean>((done) => {
    holder.once('error', () => done(false))
    holder.listen(port, '127.0.0.1', () => done(true))
  })
  if (!bound) return null
  onTestFinished(() => new Promise<void>((done) => holder.close(() => done())))
  const address = holder.address()
  return typeof address === 'object' && address !== null ? address.port : null
}

/** `vitest-rubric serve <args>` on a copy of the bundled fixture, with `files` beside it, until it prints its URL or exits. */
async function serve(args: readonly string[], files: Readonly<Record<string, string>> = {}) {
  const root = await fixtureRoot('serve-port', { 'fixtures/lab': DOCUCTL })
  for (const [name, text] of Object.entries(files)) await writeFile(join(root, name), text)
  return serveProcess(root, args)
}

test('serve on a busy default port says so and takes the next free port, as Vite does', async () => {
  // The default port, 5178, is held here, or already by someone else: busy either way.
  await occupied(5178)
  const run = await serve([])
  expect(run.outcome.code).toBe('serving')
  const moved = /^port 5178 is in use; serving on (\d+)\.$/m.exec(run.stdout())
  expect(moved).not.toBeNull()
  expect(Number(moved![1])).toBeGreaterThan(5178)
  expect(run.stdout()).toContain(`http://127.0.0.1:${moved![1]}/?token=`)
  expect(run.stderr()).toBe('')
})

test('serve --port on a busy port stops with a one-line error and no stack', async () => {
  const port = (await occupied())!
  const run = await serve(['--port', String(port)])
  expect(run.outcome.code).toBe(1)
  expect(run.stderr()).toBe(
    `vitest-rubric serve: port ${port} on 127.0.0.1 is in use: stop what uses it, or choose another port with --port (0 for any free port).\n`,
  )
})

test('startServer takes the port above a busy one unless the port is strict', async () => {
  const port = (await occupied())!
  const server = await startServer({ dirs: ['fixtures/docuctl-rollback'], cwd: ROOT, port })
  onTestFinished(() => server.close())
  expect(server.port).toBeGreaterThan(port)
  await expect(startServer({ dirs: ['fixtures/docuctl-rollback'], cwd: ROOT, port, strictPort: true })).rejects.toThrow(`port ${port} on 127.0.0.1 is in use`)
  await expect(startServer({ dirs: ['fixtures/docuctl-rollback'], cwd: ROOT, port, strictPort: true })).rejects.toMatchObject({
    code: 'PORT_IN_USE',
    errno: 'EADDRINUSE',
    hint: expect.stringContaining('--port'),
  })
})

test('serve <A> <B> --compare prints the address of their comparison view; --compare with one fixture is a usage error', async () => {
  const run = await serve(['fixtures/lab', 'fixtures/lab', '--compare', '--port', '0'])
  expect(run.outcome.code).toBe('serving')
  expect(run.stdout()).toMatch(
    /^vitest-rubric comparison of fixtures\/lab \(A\) and fixtures\/lab \(B\)\n {2}http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+#\/compare\/0\/1\n/,
  )
  const alone = await serve(['fixtures/lab', '--compare'])
  expect(alone.outcome.code).toBe(2)
  expect(alone.stderr()).toContain('--compare takes two fixture directories, A and B (one was given).')
})

test('serve --public-origin prints its link at the public origin; a path, plain http, another --host or a bad --rate-limit is a usage error', async () => {
  const run = await serve(['fixtures/lab', '--port', '0', '--public-origin', 'https://review.example.org', '--rate-limit', '50'])
  expect(run.outcome.code).toBe('serving')
  expect(run.stdout()).toMatch(/^vitest-rubric review page for fixtures\/lab\n {2}https:\/\/review\.example\.org\/\?token=[\w-]+\n/)
  for (const [args, message] of [
    [
      ['--public-origin', 'https://review.example.org/review'],
      '--public-origin https://review.example.org/review: the address must name no path, query or fragment',
    ],
    [['--public-origin', 'http://review.example.org'], '--public-origin http://review.example.org: the address must start with https://'],
    [['--public-origin', 'https://review.example.org', '--host', '0.0.0.0'], '--host takes a loopback address (127.0.0.1, ::1 or localhost), not "0.0.0.0"'],
    [['--host', '0.0.0.0'], '--host takes a loopback address (127.0.0.1, ::1 or localhost), not "0.0.0.0": serve answers on this machine only.'],
    [['--host', '192.0.2.2'], '--host takes a loopback address (127.0.0.1, ::1 or localhost), not "192.0.2.2"'],
    [['--rate-limit', 'many'], '--rate-limit takes a whole number of requests a second per link, from 1 to 100000 (default 50), not "many".'],
  ] as const) {
    const refused = await serve(['fixtures/lab', '--port', '0', ...args])
    expect({ args, code: refused.outcome.code }).toEqual({ args, code: 2 })
    expect(refused.stderr()).toContain(message)
  }
})

test('serve --team says how many reviews each case needs and how long a case stays reserved; bad or team-less values are usage errors', {
  timeout: 60_000,
}, async () => {
  const team = JSON.stringify({ people: [{ name: 'alice', role: 'reviewer' }] })
  const run = await serve(['fixtures/lab', '--port', '0', '--team', 'team.json', '--reviews-per-case', '3', '--reserve-minutes', '5'], { 'team.json': team })
  expect(run.outcome.code).toBe('serving')
  expect(run.stdout()).toContain('each case needs 3 independent reviews; a case handed to a reviewer (their n) is reserved for them 5 minutes.')
  // Without either option, rubric({ reviewers: { min } }) of the Vitest config says.
  const plugin = pathToFileURL(join(ROOT, 'dist/plugin.js')).href
  const config = `import { rubric } from ${JSON.stringify(plugin)}\nexport default { plugins: [rubric({ reviewers: { min: 4 }, reporter: { outputFile: false } })] }\n`
  const byConfig = await serve(['fixtures/lab', '--port', '0', '--team', 'team.json'], { 'team.json': team, 'vitest.config.mjs': config })
  expect(byConfig.stdout()).toContain('each case needs 4 independent reviews; a case handed to a reviewer (their n) is reserved for them 30 minutes.')
  const byMinimum = await serve(['fixtures/lab', '--port', '0', '--team', 'team.json', '--min-reviews', '1'], { 'team.json': team })
  expect(byMinimum.stdout()).toContain('each case needs 1 independent review; a case handed to a reviewer (their n) is reserved for them 30 minutes.')
  for (const [args, message] of [
    [['--reviews-per-case', '2'], '--reviews-per-case needs --team <team.json>'],
    [['--team', 'team.json', '--reviews-per-case', '0'], '--reviews-per-case takes a whole number of reviews from 1 to 100, not "0".'],
    [['--team', 'team.json', '--reserve-minutes', 'soon'], '--reserve-minutes takes a whole number of minutes from 1 to 10080 (a week), not "soon".'],
  ] as const) {
    const refused = await serve(['fixtures/lab', '--port', '0', ...args], { 'team.json': team })
    expect({ args, code: refused.outcome.code }).toEqual({ args, code: 2 })
    expect(refused.stderr()).toContain(message)
  }
})

test('startServer, the API under serve, listens on a loopback address only', async () => {
  await expect(startServer({ dirs: ['fixtures/docuctl-rollback'], cwd: ROOT, host: '0.0.0.0', port: 0 })).rejects.toThrow(
    'serve listens on a loopback address only (127.0.0.1, ::1 or localhost), not on 0.0.0.0',
  )
})
