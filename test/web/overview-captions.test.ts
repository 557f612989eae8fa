import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest'
import { startServer } from '../../src/web/server.js'
import { launchBrowser } from '../helpers/browser.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { scratchDir } from '../helpers/scratch.js'

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
}, 60_000)
afterAll(async () => {
  await browser?.close()
})

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const labels = CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=meets`, '--reason', `${criterion}=The judge's reason.`])

describe('the overview’s counts', () => {
  test('say one case and one stale label in the singular, and two cases in the plural', async () => {
    const root = await scratchDir('captions')
    const dir = join(root, 'fixtures/lab')
    await cp(DOCUCTL, dir, { recursive: true })
    for (const id of ['complete', 'wrong-command'])
      expect((await runCli(['review', 'fixtures/lab', '--case', id, '--judge', 'j1', '--origin', 'model-x', ...labels], root)).code).toBe(0)
    // The second label made stale: it was recorded against another answer.
    const file = join(dir, 'judges/j1.json')
    const judge = JSON.parse(await readFile(file, 'utf8')) as { reviews: { answer_sha256: string }[] }
    judge.reviews[1]!.answer_sha256 = '0'.repeat(64)
    await writeFile(file, JSON.stringify(judge, null, 2))
    const server = await startServer({ dirs: ['fixtures/lab'], cwd: root, port: 0 })
    onTestFinished(() => server.close())
    const page = await browser.newPage()
    onTestFinished(() => page.close())
    await page.goto(server.url)
    await page.waitForSelector('tr.case-row')
    const captions = await page.locator('details.statistics > summary').allTextContents()
    expect(captions).toContain('judge j1 (model-x): 1 case, 1 stale label')
    expect(await page.textContent('details.statistics p.dim')).toBe(
      'prediction, not review coverage: the judge predicts 0 accepted, 0 rejected of 2 pending cases',
    )
    expect(await page.textContent('.list-count')).toBe('8 of 8 cases shown')
  })
})
