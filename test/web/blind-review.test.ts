import { access, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import type { RunningServer } from '../../src/web/server.js'
import { runCli } from '../helpers/cli.js'
import { pageBrowser, type OpenPage, type PageViewer } from '../helpers/page-browser.js'
import { postSave, raw, servedCopy } from '../helpers/served-fixture.js'

// Blindness is checked on what the server sends, every endpoint, not only on what the page draws:
// a blind reviewer's browser never receives another reviewer's rating or reason, the adopted
// review's, or a panel reason naming them, until their own review of the case is complete.

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const CASE = 'not-reviewed'
/** What would tell alice how the others judged: their reasons, a panel reason, a rating of theirs. */
const LEAKS = ['BOB-SECRET', 'CAROL-SECRET', 'bob:', 'carol:', 'reviewers disagree', 'does_not_meet']

const chromium = pageBrowser()

/** The fixture with bob and carol disagreeing on support for CASE, each with reasons of their own. */
async function disagreeingPanel() {
  const served = await servedCopy()
  for (const [reviewer, support] of [
    ['bob', 'does_not_meet'],
    ['carol', 'meets'],
  ] as const) {
    const judged = CRITERIA.flatMap((criterion) => [
      '--rating',
      `${criterion}=${criterion === 'support' ? support : 'meets'}`,
      '--reason',
      `${criterion}=${reviewer.toUpperCase()}-SECRET reason.`,
    ])
    expect((await runCli(['review', 'fixtures/lab', '--case', CASE, '--reviewer', reviewer, ...judged], served.root)).code).toBe(0)
  }
  return served
}

const get = (server: RunningServer, path: string) => raw(server.port, path, { headers: { 'x-rubric-token': server.token } })
const found = (body: string) => LEAKS.filter((marker) => body.includes(marker))
/** On the page, the form's own rating buttons say does_not_meet. */
const foundOnPage = async (page: Page) => found(await page.content()).filter((marker) => marker !== 'does_not_meet')

/**
 * Every body the server sends `viewer`. Each fixture's kind description (its ratings, its words)
 * is left out of the overview's: it is the same for every viewer, and tells nothing of a review.
 */
async function everyResponse(server: RunningServer, viewer: string): Promise<{ overview: string; version: string } & Record<string, string>> {
  const overview = await get(server, `/api/overview?viewer=${viewer}`)
  expect(overview.status).toBe(200)
  const fixtures = (JSON.parse(overview.body) as { fixtures: ({ page?: unknown; cases: { id: string }[] } & Record<string, unknown>)[] }).fixtures
  expect(fixtures[0]?.page).toMatchObject({ view: 'form' })
  const shown = JSON.stringify({ fixtures: fixtures.map(({ page: _kind, ...rest }) => rest) })
  const ids = fixtures[0]!.cases.map((row) => row.id)
  const bodies: { overview: string; version: string } & Record<string, string> = { overview: shown, version: (await get(server, '/api/version')).body }
  for (const id of ids) bodies[`case ${id}`] = (await get(server, `/api/case?fixture=0&id=${id}&viewer=${viewer}`)).body
  return bodies
}

function pageAs(server: RunningServer, viewer: PageViewer, hash: string): Promise<OpenPage> {
  return chromium.open(server, hash, { viewer, waitFor: hash === '' ? 'table.cases' : '#decision' })
}

describe('a blind reviewer', () => {
  test('is served nothing of the others’ reviews by any endpoint until their own review of the case is complete', async () => {
    const { root, server } = await disagreeingPanel()
    // A reader is told everything: the markers are there to be found.
    expect(found((await everyResponse(server, 'reader')).overview)).toEqual(expect.arrayContaining(['bob:', 'carol:', 'reviewers disagree', 'does_not_meet']))

    const before = await everyResponse(server, 'reviewer:alice')
    for (const [endpoint, body] of Object.entries(before)) expect({ endpoint, leaks: found(body) }).toEqual({ endpoint, leaks: [] })
    const rows = JSON.parse(before.overview).fixtures[0].cases as { id: string; status: string; reason: string }[]
    expect(rows.every((row) => row.status === 'pending' && row.reason === 'no review by alice yet')).toBe(true)

    // A partial review is saved, and does not unblind: neither the save's answer nor any endpoint after it.
    const versions = JSON.parse(before[`case ${CASE}`]!).versions
    const partial = await postSave(server, {
      fixture: 0,
      id: CASE,
      versions,
      replace: false,
      reviewer: 'alice',
      draft: { command: { rating: 'meets', reason: 'ALICE reason.', answer_span: '' } },
    })
    expect(partial.status).toBe(200)
    expect(found(partial.body)).toEqual([])
    expect(JSON.parse(partial.body).case.reviewers).toBe('hidden')
    for (const [endpoint, body] of Object.entries(await everyResponse(server, 'reviewer:alice')))
      expect({ endpoint, leaks: found(body) }).toEqual({ endpoint, leaks: [] })

    // Complete, alice sees the others on that case, and the panel's reason; still nothing of the other cases.
    const judged = CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=meets`, '--reason', `${criterion}=ALICE reason.`])
    expect((await runCli(['review', 'fixtures/lab', '--case', CASE, '--reviewer', 'alice', '--replace', ...judged], root)).code).toBe(0)
    const after = await everyResponse(server, 'reviewer:alice')
    expect(after[`case ${CASE}`]).toContain('BOB-SECRET reason.')
    const row = (JSON.parse(after.overview).fixtures[0].cases as { id: string; reason: string }[]).find((item) => item.id === CASE)!
    expect(row.reason).toBe('reviewers disagree on support (alice: meets, bob: does_not_meet, carol: meets)')
    for (const [endpoint, body] of Object.entries(after))
      if (endpoint !== 'overview' && endpoint !== `case ${CASE}`) expect({ endpoint, leaks: found(body) }).toEqual({ endpoint, leaks: [] })
  })

  test('one s on an untouched case saves nothing; a partial review asks first, and after it the others stay hidden', async () => {
    const { dir, server } = await disagreeingPanel()
    const { page, errors } = await pageAs(server, { role: 'reviewer', name: 'alice' }, `#/f/0/c/${CASE}`)
    const status = () => page.textContent('#save-status')
    await page.keyboard.press('s')
    expect(await status()).toBe('Nothing to save: no criterion is rated. Rate one with 1, 2 or 3.')
    await expect(access(join(dir, 'reviews/alice.json'))).rejects.toThrow('ENOENT')

    await page.keyboard.press('1')
    await page.keyboard.type('ALICE reason.')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Enter')
    await page.keyboard.press('s')
    expect(await status()).toBe(
      'Not saved yet: preconditions, database_scope, verification, support are not rated and would be left out; the other reviews stay hidden until every criterion is rated. Save anyway Keep reviewing',
    )
    // Another s only asks again: a key never confirms.
    await page.keyboard.press('s')
    expect(await status()).toContain('Not saved yet: preconditions')
    await expect(access(join(dir, 'reviews/alice.json'))).rejects.toThrow('ENOENT')
    await page.click('#save-anyway')
    await page.waitForFunction(() => document.getElementById('save-status')?.textContent?.startsWith('saved') === true)
    const alice = JSON.parse(await readFile(join(dir, 'reviews/alice.json'), 'utf8')) as { reviews: { judgements: Record<string, unknown> }[] }
    expect(Object.keys(alice.reviews[0]!.judgements)).toEqual(['command'])
    expect(await page.textContent('.hidden-reviews')).toContain('shown once you have saved your own review')
    expect(await page.locator('#side-by-side').count()).toBe(0)
    expect(await foundOnPage(page)).toEqual([])
    // Nor does the overview tell, when alice goes back to it.
    await page.click('a:text-is("overview")')
    await page.waitForSelector('table.cases')
    expect(await foundOnPage(page)).toEqual([])
    expect(errors).toEqual([])
  })

  test('a refusal quoting another reviewer’s file is served without what it found there', async () => {
    const { dir, server } = await disagreeingPanel()
    // bob's file loses a colon just before his reason: the whole fixture is refused.
    const bob = join(dir, 'reviews/bob.json')
    await writeFile(
      bob,
      (await readFile(bob, 'utf8')).replace('"reason": "command=BOB', '"reason" "BOB').replace('"reason": "BOB-SECRET', '"reason" "BOB-SECRET'),
    )
    const reader = JSON.parse((await get(server, '/api/overview?viewer=reader')).body).fixtures[0].refused as string
    expect(reader).toContain('BOB-SECRET')
    const blind = JSON.parse((await get(server, '/api/overview?viewer=reviewer:alice')).body).fixtures[0].refused as string
    expect(blind).toMatch(
      /reviews\/bob\.json: the file is not valid JSON \(line \d+, column \d+\)\.\n {2}fix: .*\(What was found there is not shown to a blind reviewer\.\)$/,
    )
    const opened = await get(server, `/api/case?fixture=0&id=${CASE}&viewer=reviewer:alice`)
    expect(opened.status).toBe(422)
    expect(found(opened.body)).toEqual([])
    const saved = await postSave(server, {
      fixture: 0,
      id: CASE,
      versions: {},
      replace: false,
      reviewer: 'alice',
      draft: { command: { rating: 'meets', reason: 'ALICE reason.', answer_span: '' } },
    })
    expect(saved.status).toBe(422)
    expect(found(saved.body)).toEqual([])
  })
})
