import type { Page, Route } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { fixtureRoot, pageBrowser, serve } from '../helpers/page-browser.js'

// What the page draws when its reads and saves answer in another order than they were made: the
// page always shows what its address names, and a save's answer is never wiped by a drawing that
// began before it answered.

const chromium = pageBrowser()

const caseHash = (id: string) => `#/f/0/c/${encodeURIComponent(id)}`

/** Requests to `pattern` are held, each until `release` is called: `held` resolves when the first arrives. */
function holdRequests(page: Page, pattern: (url: URL) => boolean) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let arrived!: () => void
  const held = new Promise<void>((resolve) => (arrived = resolve))
  return {
    held,
    release,
    async install(): Promise<void> {
      await page.route(
        (url) => pattern(url),
        async (route: Route) => {
          // The request reaches the server now; only its answer is held back from the page.
          const response = await route.fetch()
          arrived()
          await released
          await route.fulfill({ response })
        },
      )
    },
  }
}

/**
 * A page of `server` at `hash` that notes each answer it has read (its URL), so a test can wait until
 * the page has handled an answer: what the page does with it runs before the next task of the page.
 */
async function notingPage(server: Parameters<typeof chromium.open>[0], hash: string, waitFor: string): Promise<Page> {
  const { page } = await chromium.newPage()
  await page.addInitScript(`{
    const json = Response.prototype.json
    window.__read = []
    Response.prototype.json = function () {
      const url = this.url
      return json.call(this).then((value) => { window.__read.push(url); return value })
    }
  }`)
  await page.goto(`${server.url}${hash}`)
  await page.waitForSelector(waitFor)
  return page
}

/** Waits until the page has read an answer from `path` naming case `id`, and has handled it. */
async function handled(page: Page, path: string, id: string): Promise<void> {
  await page.waitForFunction(
    ([wanted, named]) =>
      (window as unknown as { __read: string[] }).__read.some((url) => {
        const at = new URL(url)
        return at.pathname === wanted && at.searchParams.get('id') === named
      }),
    [path, id] as const,
  )
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)))
}

const crumb = (page: Page) => page.textContent('nav.crumbs strong')

describe('the review page, when answers come out of order', () => {
  test('a case read late is not drawn over the case the address names now', async () => {
    const root = await fixtureRoot('page-races', { 'fixtures/lab': DOCUCTL })
    const server = await serve(root, ['fixtures/lab'])
    const page = await notingPage(server, '', 'table.cases')
    const slow = holdRequests(page, (url) => url.pathname === '/api/case' && url.searchParams.get('id') === 'negation')
    await slow.install()
    await page.evaluate(`location.hash = ${JSON.stringify(caseHash('negation'))}`)
    await slow.held
    // While negation is being read, the user opens another case, which is read and drawn at once.
    await page.evaluate(`location.hash = ${JSON.stringify(caseHash('wrong-command'))}`)
    await page.waitForFunction(() => document.querySelector('nav.crumbs strong')?.textContent === 'wrong-command')
    // negation's answer comes now: the page reads it, and still shows the case its address names.
    slow.release()
    await handled(page, '/api/case', 'negation')
    expect(await crumb(page)).toBe('wrong-command')
    expect(await page.evaluate('location.hash')).toBe(caseHash('wrong-command'))
  })

  test("a save's answer stays shown when the page began drawing the case again before the save answered", async () => {
    const root = await fixtureRoot('page-races', { 'fixtures/lab': DOCUCTL })
    const server = await serve(root, ['fixtures/lab'])
    // complete is reviewed: its form opens filled in, and is saved again as it is, untouched.
    const page = await notingPage(server, caseHash('complete'), '#decision')
    const save = holdRequests(page, (url) => url.pathname === '/api/review')
    await save.install()
    // The page's read of the case again is held until after the save's answer.
    const reread = holdRequests(page, (url) => url.pathname === '/api/case' && url.searchParams.get('id') === 'complete')
    await reread.install()
    await page.click('#save')
    await save.held
    // Meanwhile another case is reviewed elsewhere: the page hears of it and begins drawing the open case again.
    const elsewhere = await runCli(
      ['review', 'fixtures/lab', '--case', 'not-reviewed', '--rating', 'command=does_not_meet', '--reason', 'command=Elsewhere.'],
      root,
    )
    expect(elsewhere.code).toBe(0)
    await reread.held
    save.release()
    await page.waitForFunction(() => document.getElementById('save-status')?.textContent?.startsWith('saved') === true)
    reread.release()
    await handled(page, '/api/case', 'complete')
    // The case is drawn again, as read after the save: its status line still answers the save.
    expect(await crumb(page)).toBe('complete')
    expect(await page.textContent('#save-status')).toMatch(/^saved: /)
  })

  test("a save's answer that comes once the page has opened another case does not draw the saved case over it", async () => {
    const root = await fixtureRoot('page-races', { 'fixtures/lab': DOCUCTL })
    const server = await serve(root, ['fixtures/lab'])
    const page = await notingPage(server, caseHash('uncertain-wording'), '#decision')
    const save = holdRequests(page, (url) => url.pathname === '/api/review')
    await save.install()
    await page.check('#rating-4-meets')
    await page.fill('#reason-4', 'Supported after all.')
    await page.click('#save')
    await save.held
    await page.evaluate(`location.hash = ${JSON.stringify(caseHash('wrong-command'))}`)
    await page.waitForFunction(() => document.querySelector('nav.crumbs strong')?.textContent === 'wrong-command')
    save.release()
    await page.waitForFunction(() => (window as unknown as { __read: string[] }).__read.some((url) => url.endsWith('/api/review')))
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)))
    expect(await crumb(page)).toBe('wrong-command')
    // The save was made: the overview's row of the saved case, pending before, says it is accepted now.
    await page.evaluate(`location.hash = '#/'`)
    expect(await page.locator('tr[data-case="uncertain-wording"] .badge').first().textContent()).toBe('accepted')
  })
})
