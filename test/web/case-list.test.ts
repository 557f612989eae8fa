import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import { generateFixture } from '../bench/generate.mjs'
import { pageBrowser, serve } from '../helpers/page-browser.js'
import { scratchDir } from '../helpers/scratch.js'

const chromium = pageBrowser()

/** 250 generated cases: case-000042, -000142 and -000242 pending, -000007, -000107 and -000207 rejected. */
async function openLarge() {
  const root = await scratchDir('case-list')
  await generateFixture(join(root, 'fixtures/large'), 250, { fingerprint })
  const server = await serve(root, ['fixtures/large'])
  return chromium.open(server, '', { waitFor: 'tr.case-row' })
}

const shownIds = (page: import('playwright-core').Page) => page.locator('tr.case-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-case')))

describe('a long case list', () => {
  test('draws one window of rows at a time, and the search and filters cover every case', async () => {
    const { page, errors } = await openLarge()
    expect(await page.locator('tr.case-row').count()).toBe(100)
    expect(await page.textContent('.list-count')).toBe('250 of 250 cases shown')
    expect(await page.textContent('.pager')).toContain('rows 1–100 of 250')
    await page.click('#page-next-0')
    expect((await shownIds(page))[0]).toBe('case-000100')
    await page.click('#page-next-0')
    expect(await page.locator('tr.case-row').count()).toBe(50)
    expect(await page.isDisabled('#page-next-0')).toBe(true)
    // The search reaches a case outside the window drawn, and keeps the field's focus.
    await page.fill('#filter-search', 'case-00024')
    expect(await shownIds(page)).toEqual(Array.from({ length: 10 }, (_, at) => `case-00024${at}`))
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('filter-search')
    await page.fill('#filter-search', '')
    await page.selectOption('#filter-status', 'pending')
    expect(await shownIds(page)).toEqual(['case-000042', 'case-000142', 'case-000242'])
    expect(errors).toEqual([])
  })

  test('j, k and n move through the filtered list; back in the overview, the window holds the case', async () => {
    const { page, errors } = await openLarge()
    await page.selectOption('#filter-status', 'rejected')
    await page.click('a:text-is("case-000107")')
    await page.waitForFunction(() => document.querySelector('nav.crumbs strong')?.textContent === 'case-000107')
    const shown = (id: string) =>
      page.waitForFunction((id) => document.querySelector('nav.crumbs strong')?.textContent === id && document.getElementById('decision') !== null, id)
    await page.keyboard.press('j')
    await shown('case-000207')
    await page.keyboard.press('k')
    await shown('case-000107')
    // n: the review queue's next case, whatever the filters: from a case outside the queue, its first.
    await page.keyboard.press('n')
    await shown('case-000042')
    await page.keyboard.press('n')
    await shown('case-000142')
    await page.keyboard.press('n')
    await shown('case-000242')
    await page.keyboard.press('Escape')
    await page.waitForSelector('tr.case-row')
    await page.selectOption('#filter-status', '')
    await page.evaluate(() => (location.hash = '#/f/0/c/case-000142'))
    await shown('case-000142')
    await page.keyboard.press('Escape')
    await page.waitForSelector('tr.case-row[data-case="case-000142"]')
    expect(await page.textContent('.pager')).toContain('rows 101–200 of 250')
    expect(errors).toEqual([])
  })

  test('a pending reason or a failed criterion is one click from its cases', async () => {
    const { page, errors } = await openLarge()
    const reasons = page.locator('.pending-reasons button.quick-filter')
    expect(await reasons.count()).toBeGreaterThan(0)
    const reason = (await reasons.first().textContent()) ?? ''
    await reasons.first().click()
    const pending = await shownIds(page)
    // `uncertain: 3 cases`: the reason, then how many cases wait for it.
    expect(pending.length).toBe(Number(/: (\d+) cases?$/.exec(reason)?.[1]))
    expect(pending.every((id) => ['case-000042', 'case-000142', 'case-000242'].includes(id ?? ''))).toBe(true)
    expect(await page.inputValue('#filter-status')).toBe('pending')
    const failed = page.locator('.failed-criteria button.quick-filter').first()
    const label = (await failed.textContent()) ?? ''
    await failed.click()
    const rejected = await shownIds(page)
    expect(rejected.length).toBe(Number(label.split(' ').at(-1)))
    expect(rejected.every((id) => ['case-000007', 'case-000107', 'case-000207'].includes(id ?? ''))).toBe(true)
    expect(await page.inputValue('#filter-criterion')).toBe(label.split(' ')[0])
    expect(errors).toEqual([])
  })
})
