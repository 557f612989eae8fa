import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { fixtureRoot, pageBrowser, serve, type PageViewer } from '../helpers/page-browser.js'

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

const chromium = pageBrowser()

/** `author`'s review of `not-reviewed`: meets everywhere but where `own` says otherwise. */
function reviewOf(author: string, own: Record<string, string>): string[] {
  return CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=${own[criterion] ?? 'meets'}`, '--reason', `${criterion}=${author}'s reason.`])
}

/** alice and bob disagree on verification and support of `not-reviewed`; the page is opened on it as `viewer`. */
async function disputed(viewer: PageViewer): Promise<{ root: string; page: Page }> {
  const root = await fixtureRoot('review-roles', { 'fixtures/lab': DOCUCTL })
  const ratings: Record<string, Record<string, string>> = {
    alice: { verification: 'meets', support: 'meets' },
    bob: { verification: 'uncertain', support: 'does_not_meet' },
  }
  for (const [author, own] of Object.entries(ratings))
    expect((await runCli(['review', 'fixtures/lab', '--case', 'not-reviewed', '--reviewer', author, ...reviewOf(author, own)], root)).code).toBe(0)
  const server = await serve(root, ['fixtures/lab'])
  const { page } = await chromium.open(server, '#/f/0/c/not-reviewed', { viewer, waitFor: '#criteria' })
  return { root, page }
}

describe('the roles of the review page, in a real browser', () => {
  test('reading a case with independent reviews offers no form that cannot save, and points to adjudicating', async () => {
    const { root, page } = await disputed({ role: 'reader', name: '' })
    const before = await readFile(join(root, 'fixtures/lab/annotations.json'), 'utf8')
    expect(await page.locator('#save, #criteria textarea, #criteria input[type=radio]').count()).toBe(0)
    expect(await page.textContent('#role-hint')).toBe(
      'This case has independent reviews (alice, bob): only an adjudication adopts its review, so reading, you save nothing here. Adjudicate this case or add a review of your own under "reviewing (blind) as".',
    )
    // A key that would save does nothing, and writes nothing.
    await page.keyboard.press('s')
    await page.click('#switch-to-adjudicator')
    await page.waitForSelector('#disputes')
    expect(await page.inputValue('#viewer-role')).toBe('adjudicator')
    expect(await page.textContent('#save')).toBe('Adopt (s)')
    expect(await readFile(join(root, 'fixtures/lab/annotations.json'), 'utf8')).toBe(before)
  })

  test('a case without independent reviews is still saved by a reader', async () => {
    const { page } = await disputed({ role: 'reader', name: '' })
    await page.goto(page.url().replace('not-reviewed', 'uncertain-wording'))
    await page.waitForSelector('#save')
    expect(await page.locator('#role-hint').count()).toBe(0)
    expect(await page.textContent('#save')).toBe('Save revision (s)')
  })

  test('an answer edited on disk while an adjudication form is half filled: the new answer beside the kept form, and what changed', async () => {
    const { root, page } = await disputed({ role: 'adjudicator', name: 'carol' })
    await page.click(`#dispute-verification button.take:has-text("take alice's")`)
    await page.fill('#reason-4', 'Carol: the approval step is missing.')
    const file = join(root, 'fixtures/lab/cases.json')
    const cases = JSON.parse(await readFile(file, 'utf8')) as { cases: { id: string; input: { answer: { text: string } } }[] }
    const edited = cases.cases.find((item) => item.id === 'not-reviewed')!
    edited.input.answer.text += ' Edited after the reviews.'
    await writeFile(file, `${JSON.stringify(cases, null, 2)}\n`)

    await page.waitForSelector('#kept')
    expect(await page.textContent('#answer')).toBe(edited.input.answer.text)
    expect(await page.textContent('#kept')).toBe(
      'Changed on disk while you filled in the form: the answer; the decision (now refused). The page shows the case as it is now; your form is kept as you left it. It cannot be saved now: the case is refused (the message above says why and what to do).',
    )
    // The form is as it was left; the dispute panel of the old reviews is gone, the refusal says why.
    expect(await page.isChecked('#rating-3-meets')).toBe(true)
    expect(await page.inputValue('#reason-3')).toBe("alice's reason.")
    expect(await page.inputValue('#reason-4')).toBe('Carol: the approval step is missing.')
    expect(await page.locator('#disputes').count()).toBe(0)
    expect(await page.textContent('pre.refusal')).toContain('reviews/alice.json › reviews[0] › answer_sha256')
    expect(await page.isDisabled('#save')).toBe(true)
  })

  test('a review changed on disk while an adjudication form is half filled: a save waits until the form is checked against it', async () => {
    const { root, page } = await disputed({ role: 'adjudicator', name: 'carol' })
    await page.click(`#dispute-support button.take:has-text("take bob's")`)
    const rereviewed = await runCli(
      ['review', 'fixtures/lab', '--case', 'not-reviewed', '--reviewer', 'bob', '--replace', ...reviewOf('bob', { support: 'does_not_meet' })],
      root,
    )
    expect(rereviewed.code).toBe(0)
    await page.waitForSelector('#kept')
    expect(await page.textContent('#kept')).toContain("Changed on disk while you filled in the form: bob's review; why it is pending.")
    // The dispute panel is the new one: bob now agrees on verification.
    expect(await page.locator('#disputes .dispute').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-criterion')))).toEqual(['support'])
    // What was taken is kept; the criterion left empty that the reviewers now agree on starts from their judgement.
    expect(await page.isChecked('#rating-4-does_not_meet')).toBe(true)
    expect(await page.isChecked('#rating-3-meets')).toBe(true)

    await page.click('#save')
    await page.waitForFunction(() => document.getElementById('save-status')?.textContent?.startsWith('not saved') === true)
    expect(await page.textContent('#save-status')).toContain('What changed is shown above the form.')
    await page.click('#kept-checked')
    await page.click('#save')
    await page.waitForFunction(() => document.getElementById('save-status')?.textContent?.startsWith('saved') === true)
    const adoptions = JSON.parse(await readFile(join(root, 'fixtures/lab/adjudications.json'), 'utf8'))
    expect(adoptions.adoptions[0]).toMatchObject({ case_id: 'not-reviewed', adjudicator: 'carol' })
  })
})
