import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { expect, test } from 'vitest'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import type { SampleFile } from '../../src/core/sample/sample-file.js'
import type { NextAnswer, PageCase } from '../../src/web/protocol.js'
import type { SaveAnswer } from '../../src/web/save-protocol.js'
import type { RunningServer } from '../../src/web/server.js'
import { generateFixture } from '../bench/generate.mjs'
import { runBuiltCli } from '../helpers/cli.js'
import { pageBrowser, serve } from '../helpers/page-browser.js'
import { scratchDir } from '../helpers/scratch.js'

// The walkthrough of a judge-assisted estimate: 10,000 cases no one has reviewed, a judge's labels on
// every one, a sample of 300 drawn, the sample reviewed on the page in the order of its review queue
// (a few cases through the form, the rest through the page's own requests), then the estimate.

const chromium = pageBrowser()

const N = 10_000
const SIZE = 300
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
/** What people decide of each case: three in ten rejected for the missing health check, so the true rate is 0.7. */
const rejected = (index: number) => index % 10 < 3
const TRUE_RATE = 0.7
/** A deterministic judge: it fails `verification` where people reject the case, and errs on one case in seven. */
const JUDGE = `export const description = 'walkthrough judge r1'
export default async function judge({ answer, criterion }) {
  const index = Number(/^Answer (\\d+):/.exec(answer.text)[1])
  const rejected = index % 10 < 3
  if (criterion.id === 'verification' && rejected !== (index % 7 === 0)) return { rating: 'does_not_meet', reason: 'No health check.', span: '' }
  return { rating: 'meets', reason: 'Met.', span: 'check service health' }
}
`
const indexOf = (id: string) => Number(id.slice('case-'.length))

async function get<T>(server: RunningServer, path: string): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers: { 'x-rubric-token': server.token } })
  expect(response.status, path).toBe(200)
  return (await response.json()) as T
}

/** A person's review of a case through the page's save request: every criterion meets, but verification where the case is rejected. */
async function saveReview(server: RunningServer, id: string, estimate = false): Promise<SaveAnswer> {
  const shown = await get<PageCase>(server, `/api/case?fixture=0&id=${id}`)
  const draft = Object.fromEntries(
    CRITERIA.map((criterion) =>
      criterion === 'verification' && rejected(indexOf(id))
        ? [criterion, { rating: 'does_not_meet', reason: 'No health check.', answer_span: '' }]
        : [criterion, { rating: 'meets', reason: 'Met.', answer_span: '' }],
    ),
  )
  const response = await fetch(`http://127.0.0.1:${server.port}/api/review`, {
    method: 'POST',
    headers: { 'x-rubric-token': server.token, 'content-type': 'application/json' },
    body: JSON.stringify({ fixture: 0, id, draft, versions: shown.versions, replace: false, estimate }),
  })
  expect(response.status, id).toBe(200)
  return (await response.json()) as SaveAnswer
}

/** The same review through the form, with the keyboard: 1 meets, 2 does not meet, a reason, an empty span. */
async function reviewOnPage(page: Page, id: string): Promise<void> {
  for (const criterion of CRITERIA) {
    await page.keyboard.press(criterion === 'verification' && rejected(indexOf(id)) ? '2' : '1')
    await page.keyboard.type('Judged on the page.')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Enter')
  }
  await page.keyboard.press('s')
  await page.waitForFunction(() => document.getElementById('save-status')?.textContent?.startsWith('saved') === true)
}

const shownCase = (page: Page) => page.locator('nav.crumbs strong').textContent()

// A guard against a hang, not a budget: each of the 300 saves at 10,000 cases re-reads the fixture (the
// judge's calibration only for the saves through the form, whose page shows it), so the test takes minutes.
test('10,000 cases judged, 300 sampled and reviewed in the queue’s order on the page: the estimate holds the true rate, narrower than the human-only interval', {
  timeout: 1_200_000,
}, async () => {
  const root = await scratchDir('walkthrough')
  await generateFixture(join(root, 'fixtures/lab'), N, { fingerprint, outcomeOf: () => 'unreviewed' })
  await writeFile(join(root, 'judge.mjs'), JUDGE)
  expect((await runBuiltCli(root, 'judge', 'fixtures/lab', '--judge', 'ix', '--run', 'judge.mjs')).code).toBe(0)
  expect((await runBuiltCli(root, 'sample', 'fixtures/lab', '--size', String(SIZE), '--seed', '1')).code).toBe(0)
  const sample = JSON.parse(await readFile(join(root, 'fixtures/lab/sample.json'), 'utf8')) as SampleFile
  const sampled = new Set(sample.cases.map((entry) => entry.id))
  expect(sampled.size).toBe(SIZE)

  const server = await serve(root, ['fixtures/lab'])
  // A few cases through the form: n opens the queue's next case, which says why it is next.
  const { page } = await chromium.open(server, '', { waitFor: '#sample-progress-0' })
  expect(await page.textContent('#sample-progress-0 strong')).toBe(`0 of ${SIZE} sampled cases reviewed`)
  expect(await page.textContent('tr.estimate-row')).toContain(`0 of ${SIZE} decided, ${SIZE} pending (of 10000 cases)`)
  // The page shows the judge's calibration, so its saves ask for it made again.
  const calibrated = () => page.locator('table.calibration tr', { hasText: 'verification' }).locator('td').nth(1).textContent()
  expect(await calibrated()).toBe('0')
  const throughForm: string[] = []
  for (let round = 0; round < 3; round++) {
    const before = await shownCase(page).catch(() => null)
    await page.keyboard.press('n')
    await page.waitForFunction(
      (before) => document.getElementById('assignment') !== null && document.querySelector('nav.crumbs strong')?.textContent !== before,
      before,
    )
    const id = (await shownCase(page)) ?? ''
    expect(sampled.has(id), id).toBe(true)
    expect(await page.textContent('#assignment')).toMatch(
      /^next in the queue: sampled — drawn in draw 1; no review\. \d+ cases are in the queue; n opens the next\.$/,
    )
    await reviewOnPage(page, id)
    expect(await page.textContent('#save-status')).toBe(
      `saved: ${rejected(indexOf(id)) ? 'rejected (verification)' : 'accepted'}. Press n for the next case in the review queue.`,
    )
    throughForm.push(id)
  }
  expect(new Set(throughForm).size).toBe(3)
  await page.keyboard.press('Escape')
  await page.waitForSelector('#sample-progress-0')
  expect(await page.textContent('#sample-progress-0 strong')).toBe(`3 of ${SIZE} sampled cases reviewed`)
  // The estimate moved with the saves, without a reload: each save answered it made again.
  expect(await page.textContent('tr.estimate-row')).toContain(`3 of ${SIZE} decided, ${SIZE - 3} pending (of 10000 cases)`)
  // So did the judge's calibration: three cases reviewed and labelled.
  expect(await calibrated()).toBe('3')
  // The page is closed: the rest of the sample is saved as the page saves, without an open page reading each change.
  await page.close()

  // The rest through the page's requests, each case the one the page's queue names next.
  let last: SaveAnswer | undefined
  for (let done = 3; done < SIZE; done++) {
    const { next } = await get<NextAnswer>(server, '/api/next?fixture=0')
    expect(next?.reason).toBe('sampled')
    expect(sampled.has(next!.id), next!.id).toBe(true)
    // The last save asks for the estimate, as the page does while it shows one.
    last = await saveReview(server, next!.id, done === SIZE - 1)
  }
  expect(last!.fixture.sample).toMatchObject({ sampled: SIZE, reviewed: SIZE, decided: SIZE, pending: 0 })
  // A save that does not ask for the calibration is answered without it: no pass over every case for it.
  expect('calibration' in last!.fixture).toBe(false)
  // The queue goes on past the sample: to cases no one has reviewed.
  expect((await get<NextAnswer>(server, '/api/next?fixture=0')).next?.reason).toBe('unreviewed')

  const estimated = await runBuiltCli(root, 'estimate', 'fixtures/lab', '--judge', 'ix', '--json')
  expect(estimated.code).toBe(0)
  const { result } = JSON.parse(estimated.stdout).splits[0]
  expect(result.status).toBe('estimate')
  expect(result.decided).toBe(SIZE)
  expect(result.low).toBeLessThanOrEqual(TRUE_RATE)
  expect(result.high).toBeGreaterThanOrEqual(TRUE_RATE)
  expect(result.high - result.low).toBeLessThan(result.classical.high - result.classical.low)
  // evaluate --json shows the same estimate beside the coverage.
  const evaluated = JSON.parse((await runBuiltCli(root, 'evaluate', 'fixtures/lab', '--json')).stdout)
  expect(evaluated.estimate.splits[0].result).toEqual(result)
  // And the save's answer carried it to the overview.
  const saved = last!.fixture.estimate ?? null
  expect(saved !== null && !('error' in saved) ? saved.splits[0]!.result : null).toEqual(result)
})
