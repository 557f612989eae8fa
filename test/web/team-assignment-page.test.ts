import { expect, test } from 'vitest'
import { pageBrowser } from '../helpers/page-browser.js'
import { servedTeam } from '../helpers/served-team.js'

// Two reviewers of a team, each in a browser context of their own, press n on the overview: each
// lands on a case handed out to them alone, with why it is next.

const chromium = pageBrowser()

test('two reviewers pressing n land on different cases, each with the reason it is next; the overview shows the progress', async () => {
  const team = await servedTeam(undefined, { assign: { reviewsPerCase: 1 } })
  const origin = new URL(team.server.url).origin
  const pages = await Promise.all(
    (['alice', 'bob'] as const).map(async (name) => {
      const context = await chromium.browser.newContext()
      const opened = await chromium.newPage(context)
      await opened.page.goto(`${origin}/?token=${team.tokens[name]}`)
      await opened.page.waitForSelector('#assignments table.progress-people')
      return { name, context, ...opened }
    }),
  )
  try {
    const [alice, bob] = pages as [(typeof pages)[0], (typeof pages)[0]]
    expect(await alice.page.textContent('#assignments')).toContain('Each case needs 1 independent review')
    expect(await alice.page.textContent('.keys')).toContain('n your next case')
    await Promise.all(pages.map((each) => each.page.keyboard.press('n')))
    await Promise.all(pages.map((each) => each.page.waitForSelector('#assignment strong')))
    const landed = await Promise.all(pages.map((each) => each.page.evaluate('location.hash') as Promise<string>))
    expect(landed[0]).toMatch(/^#\/f\/0\/c\//)
    expect(landed[1]).toMatch(/^#\/f\/0\/c\//)
    expect(landed[0]).not.toBe(landed[1])
    expect(await alice.page.textContent('#assignment')).toMatch(/^next for you: \w+ — .*not reviewed by alice\. Reserved for you until /)
    expect(await bob.page.textContent('#assignment')).toContain('not reviewed by bob')

    // bob skips: he is handed another case, and the overview counts the reservations held.
    await bob.page.click('#skip-case')
    await bob.page.waitForFunction((before) => location.hash !== before, landed[1])
    expect(await bob.page.evaluate('location.hash')).not.toBe(landed[0])
    // The overview, opened afresh: the progress is the server's.
    await bob.page.goto(`${origin}/?token=${team.tokens['bob']}`)
    await bob.page.waitForSelector('#assignments table.progress-people')
    const rows = await bob.page.$$eval('#assignments table.progress-people tr', (trs) => trs.map((tr) => tr.textContent))
    expect(rows).toEqual(['reviewerreviews donereserved now', 'alice01', 'bob01'])
  } finally {
    await Promise.all(pages.map((each) => each.context.close()))
  }
})
