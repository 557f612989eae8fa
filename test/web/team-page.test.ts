import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { pageBrowser } from '../helpers/page-browser.js'
import { servedTeam } from '../helpers/served-team.js'

// Two people, each with their own link in a browser context of their own: each page names its
// person, saves as them, and cannot be turned into the other.

const chromium = pageBrowser()
const CASE = 'not-reviewed'

test('two reviewers in two browser contexts each see their own identity, save as themselves, and cannot act as each other', async () => {
  const team = await servedTeam()
  const origin = new URL(team.server.url).origin
  const pages = await Promise.all(
    (['alice', 'bob'] as const).map(async (name) => {
      const context = await chromium.browser.newContext()
      const opened = await chromium.newPage(context)
      await opened.page.goto(`${origin}/?token=${team.tokens[name]}#/f/0/c/${CASE}`)
      await opened.page.waitForSelector('#decision')
      return { name, context, ...opened }
    }),
  )
  const [alice, bob] = pages as [(typeof pages)[0], (typeof pages)[0]]
  try {
    expect(await alice.page.textContent('#viewer-identity')).toBe('reviewing (blind) as alice')
    expect(await bob.page.textContent('#viewer-identity')).toBe('reviewing (blind) as bob')
    // No field to type another name into.
    expect(await alice.page.locator('#viewer-name, #viewer-role').count()).toBe(0)

    // A viewer stored in the page's storage, as the single-person page keeps it, changes nothing.
    await bob.page.evaluate(`localStorage.setItem('vitest-rubric.viewer', ${JSON.stringify(JSON.stringify({ role: 'reviewer', name: 'alice' }))})`)
    await bob.page.reload()
    await bob.page.waitForSelector('#decision')
    expect(await bob.page.textContent('#viewer-identity')).toBe('reviewing (blind) as bob')

    // alice rates one criterion by the keyboard and saves: the review is hers.
    await alice.page.keyboard.press('1')
    await alice.page.keyboard.type('ALICE reason.')
    await alice.page.keyboard.press('Enter')
    await alice.page.keyboard.press('Enter')
    await alice.page.keyboard.press('s')
    await alice.page.click('#save-anyway')
    await alice.page.waitForFunction(() => document.getElementById('save-status')?.textContent?.startsWith('saved') === true)
    expect(await readdir(join(team.dir, 'reviews'))).toEqual(['alice.json'])

    // From alice's page, a save naming bob is refused: her link saves as her only.
    const asBob = await alice.page.evaluate(`(async () => {
      const token = document.querySelector('meta[name="rubric-token"]').content
      const read = await fetch('/api/case?fixture=0&id=${CASE}', { headers: { 'x-rubric-token': token } })
      const versions = (await read.json()).versions
      const draft = { command: { rating: 'meets', reason: 'Posing as bob.', answer_span: '' } }
      const answer = await fetch('/api/review', {
        method: 'POST',
        headers: { 'x-rubric-token': token, 'content-type': 'application/json' },
        body: JSON.stringify({ fixture: 0, id: '${CASE}', versions, replace: false, draft, reviewer: 'bob' }),
      })
      return { status: answer.status, body: await answer.json() }
    })()`)
    expect(asBob).toEqual({
      status: 403,
      body: { error: { code: 'IDENTITY_MISMATCH', message: "this link is alice's: a save through it is made as alice, never as bob." } },
    })
    expect(await readdir(join(team.dir, 'reviews'))).toEqual(['alice.json'])
    expect(await readFile(join(team.dir, 'reviews/alice.json'), 'utf8')).not.toContain('Posing as bob.')
  } finally {
    await Promise.all(pages.map((each) => each.context.close()))
  }
})

test('a reader’s link shows the person and offers no form to save', async () => {
  const team = await servedTeam()
  const context = await chromium.browser.newContext()
  try {
    const { page } = await chromium.newPage(context)
    await page.goto(`${new URL(team.server.url).origin}/?token=${team.tokens['rita']}#/f/0/c/${CASE}`)
    await page.waitForSelector('#decision')
    expect(await page.textContent('#viewer-identity')).toBe('reading as rita')
    expect(await page.locator('#save').count()).toBe(0)
    expect(await page.textContent('#criteria h3')).toBe('Criteria')
  } finally {
    await context.close()
  }
})
