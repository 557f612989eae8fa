import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import type { RunningServer } from '../../src/web/server.js'
import { ROOT } from '../helpers/fixture-copy.js'
import { fixtureRoot, pageBrowser, serve } from '../helpers/page-browser.js'

const MARKUP = '<img src=x onerror="document.title=\'ran\'">'

const chromium = pageBrowser()

/** The bundled pair served, B's name holding markup; the comparison view opened. */
async function compared(hash = '#/compare/0/1'): Promise<{ server: RunningServer; page: Page; root: string }> {
  const root = await fixtureRoot('compare-view', {
    'compare/answers-v1': join(ROOT, 'examples/compare/answers-v1'),
    'compare/answers-v2': join(ROOT, 'examples/compare/answers-v2'),
  })
  const casesB = join(root, 'compare/answers-v2/cases.json')
  const cases = JSON.parse(await readFile(casesB, 'utf8'))
  cases.name = `answers-v2 ${MARKUP}`
  await writeFile(casesB, `${JSON.stringify(cases, null, 2)}\n`)
  const server = await serve(root, ['compare/answers-v1', 'compare/answers-v2'])
  const { page } = await chromium.open(server, hash, { waitFor: '#compare-tasks' })
  return { server, page, root }
}

const texts = (page: Page, selector: string) => page.locator(selector).allTextContents()

describe('the comparison view, in a real browser', () => {
  test('lists both decisions per task, discordant first, with the paired figures of each split', async () => {
    const { page } = await compared()
    const rows = await page
      .locator('#compare-tasks tr.task-row')
      .evaluateAll((items) =>
        items.map((row) => [
          row.getAttribute('data-id'),
          row.classList.contains('a_accepted_b_rejected') ? 'A' : row.classList.contains('b_accepted_a_rejected') ? 'B' : '-',
        ]),
      )
    expect(rows).toHaveLength(13)
    const ways = rows.map(([, way]) => way).join('')
    expect(ways).toBe(`AA${'B'.repeat(5)}${'-'.repeat(6)}`)
    expect(
      rows
        .slice(0, 2)
        .map(([id]) => id)
        .sort(),
    ).toEqual(['dev-fourth', 'held-guarantee'])
    expect(await page.locator('#compare-tasks tr[data-id="held-guarantee"] td').allTextContents()).toEqual([
      'held-guarantee',
      'held_out',
      'accepted ',
      'rejected support',
    ])

    const held = page.locator('#compare-held_out')
    expect(await held.locator('.coverage').textContent()).toBe('8 of 9 tasks decided in both; 1 pending in B')
    expect(await held.locator('.difference').textContent()).toBe(
      'result: B − A = +37.5 points, 95% interval [−12.5, +69.3] (Newcombe, paired); McNemar exact p = 0.375 on 5 discordant pairs',
    )
    // held-unclear is pending in B and accepted in A: the worst case for B counts it as A only.
    expect(await held.locator('.worst-case').textContent()).toBe(
      'worst case for B: with the 1 undecided pair counted against B (B rejected, A accepted where undecided), B − A = +22.2 points, 95% interval [−26.6, +60.3] over 9 pairs',
    )
    expect(await held.locator('table.paired tr').evaluateAll((items) => items.map((row) => [...row.children].map((cell) => cell.textContent)))).toEqual([
      ['', 'B accepted', 'B rejected'],
      ['A accepted', '1', '1'],
      ['A rejected', '4', '2'],
    ])
    expect(await held.locator('.development-label').count()).toBe(0)
    const development = page.locator('#compare-development')
    expect(await development.locator('.development-label').textContent()).toBe('development material: not a result beyond these examples')
    expect(await development.locator('.difference').textContent()).toMatch(/^development figures: B − A = ±0\.0 points/)
    const verification = await held.locator('table.compare-criteria tr', { hasText: 'verification' }).locator('td').allTextContents()
    expect(verification.slice(0, 5)).toEqual(['verification', '2/8', '8/8', '+75.0', '[+28.0, +92.9]'])
    // Text from the fixtures is shown as text: the markup in B's name runs nothing.
    expect(await page.locator('#compare h2').textContent()).toContain(MARKUP)
    expect(await page.locator('#compare img').count()).toBe(0)
    expect(await page.title()).not.toBe('ran')
  })

  test('a selected task shows the two answers side by side with their failed criteria, and no form', async () => {
    const { page } = await compared()
    await page.click('#compare-tasks a:text-is("held-guarantee")')
    await page.waitForSelector('#compare-case')
    const [a, b] = [page.locator('.compare-side[data-system="A"]'), page.locator('.compare-side[data-system="B"]')]
    expect(await a.locator('.decision').textContent()).toBe('accepted every criterion meets')
    expect(await a.locator('ul.failed li').count()).toBe(0)
    expect(await b.locator('.decision').textContent()).toBe('rejected support')
    expect(await texts(page, '.compare-side[data-system="B"] ul.failed li strong')).toEqual(['support'])
    expect(await a.locator('.answer').textContent()).not.toBe(await b.locator('.answer').textContent())
    expect(await page.locator('#compare textarea, #compare input, #save').count()).toBe(0)
    expect(page.url()).toMatch(/#\/compare\/0\/1\/held-guarantee$/)
  })

  test('a fixture edited on disk is compared again, and the view stays open', async () => {
    const { page, root } = await compared()
    const casesB = join(root, 'compare/answers-v2/cases.json')
    const cases = JSON.parse(await readFile(casesB, 'utf8'))
    cases.name = 'answers-v2 renamed'
    await writeFile(casesB, `${JSON.stringify(cases, null, 2)}\n`)
    await page.waitForFunction(() => document.querySelector('#compare h2')?.textContent?.includes('answers-v2 renamed') === true)
    expect(await page.locator('#compare-tasks tr.task-row').count()).toBe(13)
    expect(page.url()).toMatch(/#\/compare\/0\/1$/)
  })

  test('answers only with the token, as the rest of the server', async () => {
    const { server } = await compared()
    const port = server.port
    const without = await fetch(`http://127.0.0.1:${port}/api/compare?a=0&b=1`)
    expect(without.status).toBe(403)
    const withToken = await fetch(`http://127.0.0.1:${port}/api/compare?a=0&b=1`, { headers: { 'x-rubric-token': server.token } })
    expect(withToken.status).toBe(200)
    expect((await withToken.json()).tasks).toHaveLength(13)
    expect((await fetch(`http://127.0.0.1:${port}/api/compare?a=0&b=7`, { headers: { 'x-rubric-token': server.token } })).status).toBe(404)
  })

  test('two fixtures on different rubrics are named as not comparable, with the fix', async () => {
    const root = await fixtureRoot('compare-view-refused', {
      'compare/answers-v1': join(ROOT, 'examples/compare/answers-v1'),
      'compare/debate': join(ROOT, 'fixtures/debate-benchmark'),
    })
    const { page } = await chromium.open(await serve(root, ['compare/answers-v1', 'compare/debate']), '#/compare/0/1')
    const alert = await page.waitForSelector('p.error[role="alert"]')
    expect(await alert.textContent()).toMatch(/compare\/debate: the two fixtures are of different kinds.*vitest-rubric init <B> --from <A>/s)
  })

  test('two scored fixtures show the paired pass figures and the mean score line, as compare prints them', async () => {
    const root = await fixtureRoot('compare-view-scored', { 'scored/debate': join(ROOT, 'fixtures/debate-benchmark') })
    const { page } = await chromium.open(await serve(root, ['scored/debate', 'scored/debate']), '#/compare/0/1', { waitFor: '#compare-tasks' })
    expect(await page.locator('#compare-development p.scores').textContent()).toBe(
      'mean score over 9 cases scoreable in both: A 0.8474, B 0.8474; B − A = ±0.0000, SE 0.0000; no interval: cases to resample: 9, fewer than the 10 a bootstrap interval needs',
    )
    expect(await page.locator('#compare-development table.paired th').first().textContent()).toBe('')
    expect(await page.locator('#compare-development table.paired tr').nth(0).textContent()).toBe('B passedB failed')
    expect(await page.locator('#compare-tasks tr.discordant').count()).toBe(0)
  })
})
