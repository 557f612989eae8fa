// Screenshots of the review page for the docs: `npm run screenshots` (after `npm run build`).
// Serves copies of the bundled fixtures and a generated one of 20,000 cases, and writes
// docs/images/page-overview.png, page-case.png, page-overview-20k.png and page-case-20k.png.
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { startServer } from '../../dist/web/server.js'
import { generateFixture } from '../bench/generate.mjs'

const root = resolve(import.meta.dirname, '../..')
const scratch = await mkdtemp(join(tmpdir(), 'vitest-rubric-shots-'))
await cp(join(root, 'fixtures'), join(scratch, 'fixtures'), { recursive: true })
await generateFixture(join(scratch, 'fixtures/generated-20k'), 20_000)
const server = await startServer({ dirs: ['fixtures/docuctl-rollback', 'fixtures/debate-benchmark'], cwd: scratch, port: 0 })
const large = await startServer({ dirs: ['fixtures/generated-20k'], cwd: scratch, port: 0 })
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
})
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
  await mkdir(join(root, 'docs/images'), { recursive: true })
  const shoot = async (url, selector, name, clip) => {
    await page.goto(url)
    await page.waitForSelector(selector)
    await page.screenshot({ path: join(root, 'docs/images', name), ...(clip ? { clip: { x: 0, y: 0, width: 1200, height: 900 } } : { fullPage: true }) })
  }
  await shoot(server.url, 'table.cases', 'page-overview.png', true)
  await shoot(`${server.url}#/f/0/c/wrong-command`, '#criteria', 'page-case.png', false)
  await shoot(large.url, 'tr.case-row', 'page-overview-20k.png', true)
  await shoot(`${large.url}#/f/0/c/case-000007`, '#criteria', 'page-case-20k.png', false)
} finally {
  await browser.close()
  await server.close()
  await large.close()
  await rm(scratch, { recursive: true, force: true })
}
console.log('wrote docs/images/page-overview.png, page-case.png, page-overview-20k.png and page-case-20k.png')
