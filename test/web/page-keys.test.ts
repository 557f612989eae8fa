import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { pageBrowser } from '../helpers/page-browser.js'
import { servedCopy } from '../helpers/served-fixture.js'

const chromium = pageBrowser()

async function open(hash: string) {
  const { dir, server } = await servedCopy()
  const { page, errors } = await chromium.open(server, hash)
  return { dir, page, errors }
}

describe('the page’s keys and addresses', () => {
  test('keys typed in a text field are text, never shortcuts, also after Esc', async () => {
    const { dir, page, errors } = await open('#/f/0/c/not-reviewed')
    await page.waitForSelector('#criteria')
    const before = await readFile(join(dir, 'annotations.json'), 'utf8')
    await page.keyboard.press('1')
    await page.keyboard.type('Fine')
    await page.keyboard.press('Escape')
    // j, k and n navigate, 2 rates, s saves: in the field, each is only typed.
    await page.keyboard.type(' jkn2s')
    await page.keyboard.press('Escape')
    await page.keyboard.press('Escape')
    await page.keyboard.type('!')
    expect(await page.inputValue('#reason-0')).toBe('Fine jkn2s!')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('reason-0')
    expect(await page.evaluate(() => location.hash)).toBe('#/f/0/c/not-reviewed')
    expect(await page.isChecked('#rating-0-meets')).toBe(true)
    expect(await page.textContent('#save-status')).toBe('')
    // The viewer's name is a text field too.
    await page.click('#viewer-name')
    await page.keyboard.press('Escape')
    await page.keyboard.type('jn')
    expect(await page.inputValue('#viewer-name')).toBe('jn')
    expect(await page.evaluate(() => location.hash)).toBe('#/f/0/c/not-reviewed')
    expect(await readFile(join(dir, 'annotations.json'), 'utf8')).toBe(before)
    expect(errors).toEqual([])
  })

  test('an address whose case id is not valid percent-encoding is shown as such, without an uncaught error', async () => {
    const { page, errors } = await open('#/f/0/c/%E0%A4%A')
    await page.waitForSelector('[role="alert"]')
    expect(await page.textContent('[role="alert"]')).toBe('This address names no case: its case id is not valid percent-encoding.')
    await page.click('a:text-is("back to the overview")')
    await page.waitForSelector('table.cases')
    // The same address reached from the page, by a hash change.
    await page.evaluate(() => (location.hash = '#/f/0/c/%ZZ'))
    await page.waitForSelector('[role="alert"]')
    expect(errors).toEqual([])
  })

  test('the page reads ahead the cases j and k open; n asks the review queue, so the next pending case is not read ahead', async () => {
    const { server } = await servedCopy()
    const page = await chromium.newPage()
    const read: string[] = []
    page.page.on('request', (request) => {
      const url = new URL(request.url())
      if (url.pathname === '/api/case') read.push(url.searchParams.get('id') ?? '')
    })
    const paraphrase = page.page.waitForResponse((response) => new URL(response.url()).searchParams.get('id') === 'paraphrase')
    await page.page.goto(`${server.url}#/f/0/c/complete`)
    await page.page.waitForSelector('#criteria')
    // j's case (the first case has none above it) is read ahead; the first pending case, uncertain-wording, is not.
    await paraphrase
    await page.page.waitForTimeout(300)
    expect([...new Set(read)].sort()).toEqual(['complete', 'paraphrase'])
    // n still opens the first case of the queue.
    await page.page.keyboard.press('n')
    await page.page.waitForFunction(() => location.hash !== '#/f/0/c/complete')
    expect(await page.page.evaluate(() => location.hash)).toMatch(/^#\/f\/0\/c\//)
    expect(page.errors).toEqual([])
  })
})
