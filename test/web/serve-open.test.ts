import { spawn } from 'node:child_process'
import { chmod, mkdir, readFile, watch, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, onTestFinished, test } from 'vitest'
import { pageBrowser } from '../helpers/page-browser.js'
import { DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { fixtureRoot } from '../helpers/page-browser.js'
import { raw, servedCopy } from '../helpers/served-fixture.js'

const chromium = pageBrowser()

test('a one-time link holds no token, opens the page once, and leaves an HttpOnly, SameSite=Strict cookie', async () => {
  const { server } = await servedCopy()
  const link = server.openUrl()
  expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/open\\?code=[\\w-]+$`))
  expect(link).not.toContain(server.token)
  const context = await chromium.browser.newContext()
  onTestFinished(() => context.close())
  const { page } = await chromium.newPage(context)
  await page.goto(link)
  await page.waitForSelector('table.cases')
  expect(page.url()).toBe(`http://127.0.0.1:${server.port}/`)
  expect(await context.cookies()).toEqual([
    expect.objectContaining({ name: `vitest-rubric-${server.port}`, value: server.token, httpOnly: true, sameSite: 'Strict', path: '/' }),
  ])
  expect(await page.evaluate(() => document.cookie)).toBe('')
  // A reload keeps working on the cookie alone.
  await page.reload()
  await page.waitForSelector('table.cases')

  // The link works once: read afterwards from the launcher's command line, it gains nothing.
  const again = await raw(server.port, new URL(link).pathname + new URL(link).search)
  expect(again.status).toBe(403)
  expect(JSON.parse(again.body).error.message).toBe('this link was used already or has expired: open the URL vitest-rubric serve printed.')
  // The cookie is taken only from the page itself or the address bar, never from another page.
  const cookie = `vitest-rubric-${server.port}=${server.token}`
  expect((await raw(server.port, '/api/overview', { headers: { cookie, 'sec-fetch-site': 'same-origin' } })).status).toBe(200)
  expect((await raw(server.port, '/api/overview', { headers: { cookie, 'sec-fetch-site': 'same-site' } })).status).toBe(403)
  expect((await raw(server.port, '/api/overview', { headers: { cookie: `vitest-rubric-${server.port}=wrong` } })).status).toBe(403)
})

test('serve --open hands the browser launcher a one-time link, never the token', async () => {
  const root = await fixtureRoot('serve-open', { 'fixtures/lab': DOCUCTL })
  // A stand-in for the desktop's launcher: it writes down the command line it was given.
  const bin = join(root, 'bin')
  await mkdir(bin)
  const launcher = join(bin, process.platform === 'darwin' ? 'open' : 'xdg-open')
  await writeFile(
    launcher,
    `#!/bin/sh\nprintf '%s\\n' "$@" > "${join(root, 'launched.tmp')}" && mv "${join(root, 'launched.tmp')}" "${join(root, 'launched')}"\n`,
  )
  await chmod(launcher, 0o755)
  const launched = (async () => {
    for await (const event of watch(root)) if (event.filename === 'launched') return (await readFile(join(root, 'launched'), 'utf8')).trim()
    return ''
  })()
  const child = spawn(process.execPath, [join(ROOT, 'dist/cli/bin.js'), 'serve', '--port', '0', '--open'], {
    cwd: root,
    env: { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}` },
  })
  const exited = new Promise<number | null>((done) => child.on('exit', done))
  onTestFinished(async () => {
    if (child.exitCode === null) child.kill('SIGINT')
    await exited
  })
  let stdout = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  const argv = await launched
  const token = /\?token=([\w-]+)/.exec(stdout)![1]!
  expect(argv).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/open\?code=[\w-]+$/)
  expect(argv).not.toContain(token)
  const { page } = await chromium.newPage()
  await page.goto(argv)
  await page.waitForSelector('table.cases')
})
