import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { fixtureRoot, pageBrowser, serve } from '../helpers/page-browser.js'

const chromium = pageBrowser()

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const labels = CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=meets`, '--reason', `${criterion}=The judge's reason.`])

describe('the overview’s counts', () => {
  test('say one case and one stale label in the singular, and two cases in the plural', async () => {
    const root = await fixtureRoot('captions', { 'fixtures/lab': DOCUCTL })
    const dir = join(root, 'fixtures/lab')
    for (const id of ['complete', 'wrong-command'])
      expect((await runCli(['review', 'fixtures/lab', '--case', id, '--judge', 'j1', '--origin', 'model-x', ...labels], root)).code).toBe(0)
    // The second label made stale: it was recorded against another answer.
    const file = join(dir, 'judges/j1.json')
    const judge = JSON.parse(await readFile(file, 'utf8')) as { reviews: { answer_sha256: string }[] }
    judge.reviews[1]!.answer_sha256 = '0'.repeat(64)
    await writeFile(file, JSON.stringify(judge, null, 2))
    const { page } = await chromium.open(await serve(root, ['fixtures/lab']), '', { waitFor: 'tr.case-row' })
    const captions = await page.locator('details.statistics > summary').allTextContents()
    expect(captions).toContain('judge j1 (model-x): 1 case, 1 stale label')
    expect(await page.textContent('details.statistics p.dim')).toBe(
      'prediction, not review coverage: the judge predicts 0 accepted, 0 rejected of 2 pending cases',
    )
    expect(await page.textContent('.list-count')).toBe('8 of 8 cases shown')
  })
})

/** Two copies of the bundled fixture: in `lab` alice and bob disagree on one case; in `other` no case is pending. */
async function twoServed() {
  const root = await fixtureRoot('overview-offers', { 'fixtures/lab': DOCUCTL, 'fixtures/other': DOCUCTL })
  const review = (author: string, support: string) =>
    CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=${criterion === 'support' ? support : 'meets'}`, '--reason', `${criterion}=${author}'s reason.`])
  for (const [author, support] of [
    ['alice', 'meets'],
    ['bob', 'does_not_meet'],
  ] as const)
    expect((await runCli(['review', 'fixtures/lab', '--case', 'not-reviewed', '--reviewer', author, ...review(author, support)], root)).code).toBe(0)
  expect((await runCli(['review', 'fixtures/other', '--case', 'not-reviewed', ...review('carol', 'meets')], root)).code).toBe(0)
  expect((await runCli(['review', 'fixtures/other', '--case', 'uncertain-wording', '--replace', ...review('carol', 'meets')], root)).code).toBe(0)
  const { page } = await chromium.open(await serve(root, ['fixtures/lab', 'fixtures/other']), '', { waitFor: 'tr.case-row' })
  return { root, page }
}

describe('the overview’s offers', () => {
  test('a pending reason counts its cases, one in the singular', async () => {
    const { page } = await twoServed()
    expect(await page.locator('section.fixture').first().locator('.pending-reasons button').allTextContents()).toEqual([
      'uncertain: 1 case',
      'reviewers disagree: 1 case',
    ])
  })

  test('a pending count of 0 is not drawn in the colour of one to act on', async () => {
    const { page } = await twoServed()
    const pendingCells = (section: number) =>
      page
        .locator('section.fixture')
        .nth(section)
        .locator('table.figures tr')
        .evaluateAll((rows) =>
          rows.slice(1).map((row) => {
            const [, , pending, refused] = [...row.querySelectorAll('td')]
            return { count: pending!.textContent, colour: getComputedStyle(pending!).color, plain: getComputedStyle(refused!).color }
          }),
        )
    for (const cell of await pendingCells(0)) {
      expect(cell.count).toBe('2')
      expect(cell.colour).not.toBe(cell.plain)
    }
    for (const cell of await pendingCells(1)) {
      expect(cell.count).toBe('0')
      expect(cell.colour).toBe(cell.plain)
    }
  })

  test('with two fixtures served, the overview links to their comparison; with one, it offers none', async () => {
    const { page } = await twoServed()
    expect(await page.textContent('#compare-offer')).toBe(
      'Compare two systems, case by case: A fixtures/labfixtures/other B fixtures/labfixtures/other compare B with A',
    )
    expect(await page.getAttribute('#compare-link', 'href')).toBe('#/compare/0/1')
    await page.selectOption('#compare-a', '1')
    await page.selectOption('#compare-b', '0')
    expect(await page.getAttribute('#compare-link', 'href')).toBe('#/compare/1/0')
    await page.click('#compare-link')
    await page.waitForSelector('#compare-tasks')
    expect(await page.textContent('#compare h2')).toBe('A: docuctl-rollback-contrasts (fixtures/other) · B: docuctl-rollback-contrasts (fixtures/lab)')

    const single = await serve(await fixtureRoot('overview-one', { 'fixtures/lab': DOCUCTL }), ['fixtures/lab'])
    await page.goto(single.url)
    await page.waitForSelector('tr.case-row')
    expect(await page.locator('#compare-offer').count()).toBe(0)
  })
})
