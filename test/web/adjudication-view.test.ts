import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { fixtureRoot, pageBrowser, serve } from '../helpers/page-browser.js'

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
const HEALTH = 'Check service health afterwards.'

const chromium = pageBrowser()

/** alice and bob disagree on verification and support of `not-reviewed`; a judge labelled it too. */
async function disputed(): Promise<{ root: string; page: Page }> {
  const root = await fixtureRoot('adjudication-view', { 'fixtures/lab': DOCUCTL })
  const ratings: Record<string, Record<string, string>> = {
    alice: { verification: 'meets', support: 'meets' },
    bob: { verification: 'uncertain', support: 'does_not_meet' },
    'gpt-judge': { verification: 'meets', support: 'does_not_meet' },
  }
  for (const [author, own] of Object.entries(ratings)) {
    const judged = CRITERIA.flatMap((criterion) => [
      '--rating',
      `${criterion}=${own[criterion] ?? 'meets'}`,
      '--reason',
      `${criterion}=${author}'s reason.`,
      ...(criterion === 'verification' ? ['--span', `verification=${HEALTH}`] : []),
    ])
    const who = author === 'gpt-judge' ? ['--judge', author, '--origin', 'gpt-x, prompt r3'] : ['--reviewer', author]
    expect((await runCli(['review', 'fixtures/lab', '--case', 'not-reviewed', ...who, ...judged], root)).code).toBe(0)
  }
  const server = await serve(root, ['fixtures/lab'])
  const { page } = await chromium.open(server, '#/f/0/c/not-reviewed', { viewer: { role: 'adjudicator', name: 'carol' }, waitFor: '#disputes' })
  return { root, page }
}

describe('the adjudication view, in a real browser', () => {
  test('shows the disputed criteria first, above the form, each reviewer inline; the agreed ones are pre-filled', async () => {
    const { page } = await disputed()
    const cards = await page.locator('#disputes .dispute').evaluateAll((items) => items.map((card) => card.getAttribute('data-criterion')))
    expect(cards).toEqual(['verification', 'support'])
    // The disputes come before the form in the page.
    expect(await page.evaluate(() => Boolean(document.getElementById('disputes')!.compareDocumentPosition(document.getElementById('criteria')!) & 4))).toBe(
      true,
    )
    const verification = page.locator('#dispute-verification')
    expect(await verification.locator('.badge.disputed').count()).toBe(1)
    expect(await verification.locator('li[data-reviewer="alice"]').textContent()).toBe(`alice meets alice's reason. span: “${HEALTH}” take alice's`)
    expect(await verification.locator('li[data-reviewer="bob"]').textContent()).toBe(`bob uncertain bob's reason. span: “${HEALTH}” take bob's`)
    // The form: the three criteria both rate alike hold alice's judgement; the disputed two are empty.
    for (const [index, criterion] of CRITERIA.entries()) {
      const agreed = index < 3
      expect(await page.isChecked(`#rating-${index}-${agreed ? 'meets' : 'none'}`)).toBe(true)
      expect(await page.inputValue(`#reason-${index}`)).toBe(agreed ? "alice's reason." : '')
      expect(await page.locator(`#criterion-${criterion} .badge.${agreed ? 'agreed' : 'disputed'}`).count()).toBe(1)
    }
  })

  test("shows the judge's current label as a prediction, and adopts only what the adjudicator takes", async () => {
    const { root, page } = await disputed()
    const hint = page.locator('#dispute-support li.judge-hint')
    expect(await hint.textContent()).toBe("prediction judge gpt-judge does_not_meet gpt-judge's reason. (an automated label: a hint, never adopted by itself)")
    expect(await hint.locator('button').count()).toBe(0)
    expect(await page.locator('#disputes > p.judge-hint').textContent()).toBe(
      'prediction judge gpt-judge (gpt-x, prompt r3) predicts rejected (support). An automated label is a hint: it is never adopted by itself.',
    )
    // The judge's label is in no field of the form.
    expect(await page.isChecked('#rating-4-none')).toBe(true)

    await page.click(`#dispute-verification button.take:has-text("take alice's")`)
    await page.click(`#dispute-support button.take:has-text("take bob's")`)
    expect(await page.isChecked('#rating-3-meets')).toBe(true)
    expect(await page.inputValue('#span-3')).toBe(HEALTH)
    expect(await page.isChecked('#rating-4-does_not_meet')).toBe(true)
    expect(await page.inputValue('#reason-4')).toBe("bob's reason.")
    await page.click('#save')
    await page.waitForFunction(() => document.getElementById('save-status')?.textContent?.startsWith('saved') === true)
    expect(await page.textContent('#decision')).toBe('rejected support')

    const adoptions = JSON.parse(await readFile(join(root, 'fixtures/lab/adjudications.json'), 'utf8'))
    expect(adoptions.adoptions).toHaveLength(1)
    expect(adoptions.adoptions[0]).toMatchObject({ case_id: 'not-reviewed', adjudicator: 'carol' })
    expect(Object.keys(adoptions.adoptions[0].resolved).sort()).toEqual(['alice', 'bob'])
    const evaluated = JSON.parse((await runCli(['evaluate', 'fixtures/lab', '--json'], root)).stdout)
    expect(evaluated.decisions['not-reviewed']).toMatchObject({ status: 'rejected', reason: 'support' })
    const annotations = JSON.parse(await readFile(join(root, 'fixtures/lab/annotations.json'), 'utf8'))
    const adopted = annotations.reviews.find((review: { answer_id: string }) => review.answer_id === 'not-reviewed')
    expect(adopted.judgements.verification).toMatchObject({ rating: 'meets', reason: "alice's reason.", answer_span: HEALTH })
    expect(adopted.judgements.support).toMatchObject({ rating: 'does_not_meet', reason: "bob's reason." })
  })
})
