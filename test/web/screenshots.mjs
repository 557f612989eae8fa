// Screenshots of the review page for the docs: `npm run screenshots` (after `npm run build`).
// Serves copies of the bundled fixtures and writes docs/images/page-overview.png and page-case.png.
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { startServer } from '../../dist/web/server.js'

const root = resolve(import.meta.dirname, '../..')
const scratch = await mkdtemp(join(tmpdir(), 'vitest-rubric-shots-'))
await cp(join(root, 'fixtures'), join(scratch, 'fixtures'), { recursive: true })
const server = await startServer({ dirs: ['fixtures/docuctl-rollback', 'fixtures/debate-benchmark'], cwd: scratch, port: 0 })
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
})
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
  await page.goto(server.url)
  await page.waitForSelector('table.cases')
  await mkdir(join(root, 'docs/images'), { recursive: true })
  await page.screenshot({ path: join(root, 'docs/images/page-overview.png'), clip: { x: 0, y: 0, width: 1200, height: 900 } })
  await page.goto(`${server.url}#/f/0/c/wrong-command`)
  await page.waitForSelector('#criteria')
  await page.screenshot({ path: join(root, 'docs/images/page-case.png'), fullPage: true })
} finally {
  await browser.close()
  await server.close()
  await rm(scratch, { recursive: true, force: true })
}
console.log('wrote docs/images/page-overview.png and docs/images/page-case.png')
