import { expect, test } from 'vitest'
import type { NextAnswer } from '../../src/web/assignment-protocol.js'
import { pageBrowser } from '../helpers/page-browser.js'
import { raw } from '../helpers/served-fixture.js'
import { servedTeam, type ServedTeam } from '../helpers/served-team.js'

// A reviewer who skipped every case left is handed none, and is told so: not that every case has
// its reviews or is reserved by another, since the cases they skipped come back to them.

const chromium = pageBrowser()

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

async function as(team: ServedTeam, name: string, path: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { 'x-rubric-token': team.tokens[name]! }
  const answer =
    body === undefined
      ? await raw(team.server.port, path, { headers })
      : await raw(team.server.port, path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(answer.status, answer.body).toBe(200)
  return JSON.parse(answer.body)
}

/** Has `name` skip each case they are handed until none is left; returns the ids they skipped, in turn. */
async function skipEverything(team: ServedTeam, name: string): Promise<string[]> {
  const skipped: string[] = []
  for (;;) {
    // Cast: the body of GET /api/next, as the protocol says.
    const { next } = (await as(team, name, '/api/next?fixture=0')) as NextAnswer
    if (next === null) return skipped
    expect(skipped).not.toContain(next.id)
    skipped.push(next.id)
    await as(team, name, '/api/release', { fixture: 0, id: next.id })
  }
}

test('a reviewer who skipped every case left is told how many they skipped and when they come back; a case meanwhile reviewed is not counted', async () => {
  let now = Date.parse('2030-01-01T09:00:00Z')
  const team = await servedTeam(undefined, { assign: { reviewsPerCase: 1, reserveMs: 60_000, now: () => now } })
  const skipped = await skipEverything(team, 'alice')
  expect(skipped.length).toBeGreaterThan(2)
  expect(await as(team, 'alice', '/api/next?fixture=0')).toEqual({ next: null, skipped: { cases: skipped.length, until: '2030-01-01T09:01:00.000Z' } })

  // bob reviews the first case alice skipped: it is no longer hers to come back to.
  const { versions } = (await as(team, 'bob', `/api/case?fixture=0&id=${skipped[0]}`)) as { versions: Record<string, string | null> }
  const draft = Object.fromEntries(CRITERIA.map((criterion) => [criterion, { rating: 'meets', reason: 'Checked.', answer_span: '' }]))
  await as(team, 'bob', '/api/review', { fixture: 0, id: skipped[0], versions, replace: false, draft })
  expect(await as(team, 'alice', '/api/next?fixture=0')).toEqual({ next: null, skipped: { cases: skipped.length - 1, until: '2030-01-01T09:01:00.000Z' } })

  // Once the skips' time runs out, she is handed them again.
  now += 60_000
  // Cast: the body of GET /api/next, as the protocol says.
  expect(((await as(team, 'alice', '/api/next?fixture=0')) as NextAnswer).next?.id).toBe(skipped[1])
})

test('the page of a reviewer who skipped every case says so, and when they come back', async () => {
  const team = await servedTeam(undefined, { assign: { reviewsPerCase: 1 } })
  const skipped = await skipEverything(team, 'alice')
  const { page } = await chromium.newPage()
  await page.goto(`${new URL(team.server.url).origin}/?token=${team.tokens['alice']}`)
  await page.waitForSelector('#assignments table.progress-people')
  await page.keyboard.press('n')
  const notice = await page.waitForSelector('#assignments p[role=status]')
  expect(await notice.textContent()).toMatch(
    new RegExp(
      `^No case is left for you to review now: you skipped ${skipped.length} cases, which n hands you again from \\d{1,2}:\\d{2}( [AP]M)?; any other has the reviews it needs, or is reserved by another reviewer\\.$`,
    ),
  )
})
