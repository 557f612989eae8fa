import { execFileSync, spawnSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL } from '../helpers/fixture-copy.js'
import { fixtureRoot, pageBrowser, serve } from '../helpers/page-browser.js'

const hasGit = spawnSync('git', ['--version']).status === 0
const UNCHANGED = ['command', 'preconditions', 'database_scope', 'verification']

const chromium = pageBrowser({ enabled: hasGit })

/** alice's review of `complete`, committed in git; then the support rule reworded and committed; the fixture served. */
async function rewordedAfterAlice() {
  const root = await fixtureRoot('carried-page', { 'fixtures/lab': DOCUCTL }, (source) => !source.endsWith('decisions.record.json'))
  const dir = join(root, 'fixtures/lab')
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Reviewer', '-c', 'user.email=reviewer@example.invalid', ...args], { cwd: root, encoding: 'utf8' })
  git('init', '-q', '-b', 'main')
  const judged = [...UNCHANGED, 'support'].flatMap((criterion) => ['--rating', `${criterion}=meets`, '--reason', `${criterion}=ALICE on ${criterion}.`])
  expect((await runCli(['review', 'fixtures/lab', '--case', 'complete', '--reviewer', 'alice', ...judged], root)).code).toBe(0)
  git('add', '-A')
  git('commit', '-q', '-m', "alice's review")
  const rubric = JSON.parse(await readFile(join(dir, 'rubric.json'), 'utf8')) as { criteria: Record<string, string>[] }
  rubric.criteria.find((each) => each['id'] === 'support')!['rule'] = 'Every material claim must be supported by this source, and by nothing else.'
  await writeFile(join(dir, 'rubric.json'), `${JSON.stringify(rubric, null, 2)}\n`)
  git('commit', '-q', '-am', 'reword support')
  const server = await serve(root, ['fixtures/lab'])
  return { dir, server }
}

describe.skipIf(!hasGit)('the review page, after a rule was reworded', () => {
  test('pre-fills the unchanged criteria as carried over, saves each only once confirmed, and leaves the reworded one empty', async () => {
    const { dir, server } = await rewordedAfterAlice()
    const { page, errors } = await chromium.open(server, '#/f/0/c/complete', { viewer: { role: 'reviewer', name: 'alice' }, waitFor: '#decision' })

    // Four carried-over criteria, each pre-filled and unconfirmed; the reworded support starts empty.
    expect(await page.locator('label.carried').count()).toBe(4)
    for (const [index, criterion] of UNCHANGED.entries()) {
      expect(await page.isChecked(`#carried-${index}`)).toBe(false)
      expect(await page.isChecked(`#rating-${index}-meets`)).toBe(true)
      expect(await page.inputValue(`#reason-${index}`)).toBe(`ALICE on ${criterion}.`)
    }
    expect(await page.locator('#carried-4').count()).toBe(0)
    expect(await page.isChecked('#rating-4-none')).toBe(true)
    expect(await page.inputValue('#reason-4')).toBe('')

    // Saving now would carry nothing over: every unconfirmed criterion is named as left out.
    await page.click('#save')
    expect(await page.textContent('#save-status')).toBe(
      'Nothing to save: command, preconditions, database_scope, verification are carried over, not confirmed. Tick "carried over, confirm" to keep a judgement, or rate it again.',
    )

    for (const index of [0, 1, 3]) await page.check(`#carried-${index}`)
    await page.check('#rating-4-does_not_meet')
    await page.fill('#reason-4', 'Reads a claim the reworded rule no longer allows.')
    await page.click('#save')
    // database_scope is still unconfirmed: the save asks, and leaves it out once told to.
    expect(await page.textContent('#save-status')).toContain('Not saved yet: database_scope is not rated (database_scope carried over, not confirmed)')
    await page.click('#save-anyway')
    await page.waitForFunction(() => document.getElementById('save-status')?.textContent?.startsWith('saved') === true)
    const alice = JSON.parse(await readFile(join(dir, 'reviews/alice.json'), 'utf8')).reviews[0]
    expect(Object.keys(alice.judgements)).toEqual(['command', 'preconditions', 'verification', 'support'])
    expect(alice.judgements.verification).toMatchObject({ rating: 'meets', reason: 'ALICE on verification.' })
    expect(alice.judgements.support).toMatchObject({ rating: 'does_not_meet' })
    expect(errors).toEqual([])
  })
})
