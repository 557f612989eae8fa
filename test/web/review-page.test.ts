import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import type { RunningServer } from '../../src/web/server.js'
import { fixtureRoot, pageBrowser, serve } from '../helpers/page-browser.js'
import { raw as rawRequest } from '../helpers/served-fixture.js'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL, type AnnotationsJson } from '../helpers/fixture-copy.js'
import { runVitest } from '../helpers/run-vitest.js'
import { spawn } from 'node:child_process'
import { ROOT } from '../helpers/fixture-copy.js'

// One browser for the whole file; each test serves its own copy of the bundled fixture.
const chromium = pageBrowser()

interface Served {
  readonly root: string
  readonly dir: string
  readonly server: RunningServer
  open(hash?: string): Promise<Page>
}

async function served(): Promise<Served> {
  const root = await fixtureRoot('page', { 'fixtures/lab': DOCUCTL })
  const server = await serve(root, ['fixtures/lab'])
  const open = async (hash = '') => {
    const { page, errors } = await chromium.open(server, hash, { waitFor: hash === '' ? 'table.cases' : '#decision' })
    expect(errors).toEqual([])
    return page
  }
  return { root, dir: join(root, 'fixtures/lab'), server, open }
}

/** A raw request to the server, with the headers given (no browser in between). */
const raw = (server: RunningServer, path: string, options: Parameters<typeof rawRequest>[2] = {}) => rawRequest(server.port, path, options)

const caseHash = (id: string) => `#/f/0/c/${encodeURIComponent(id)}`

/** Reviews case not-reviewed of fixtures/lab from the command line, and waits for the page's notice that it re-read the fixture. */
async function reviewedElsewhere(root: string, page: Page): Promise<void> {
  const result = await runCli(
    ['review', 'fixtures/lab', '--case', 'not-reviewed', '--rating', 'command=does_not_meet', '--reason', 'command=Edited elsewhere.'],
    root,
  )
  expect(result.code).toBe(0)
  // The server pushes the change to the page: wait for its notice, not for a time.
  await page.waitForSelector('header .notice')
  expect(await page.textContent('header .notice')).toBe('Re-read from disk: fixtures/lab changed.')
}

describe('the review page, in a real browser', () => {
  test('the overview filters to pending; a case shows its spans and quotes highlighted', async () => {
    const { open } = await served()
    const page = await open()
    expect(await page.locator('tr.case-row').count()).toBe(8)
    await page.selectOption('#filter-status', 'pending')
    expect(await page.locator('tr.case-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-case')))).toEqual([
      'uncertain-wording',
      'not-reviewed',
    ])
    await page.selectOption('#filter-waiting', 'no review')
    expect(await page.locator('tr.case-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-case')))).toEqual(['not-reviewed'])
    await page.selectOption('#filter-waiting', '')
    await page.selectOption('#filter-status', '')
    await page.fill('#filter-search', 'zero downtime')
    expect(await page.locator('tr.case-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-case')))).toEqual(['unsupported-guarantee'])
    await page.fill('#filter-search', '')
    await page.selectOption('#filter-criterion', 'command')
    expect(await page.locator('tr.case-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-case')))).toEqual(['wrong-command', 'not-reviewed'])

    await page.click('a:text-is("wrong-command")')
    await page.waitForSelector('#criteria')
    expect(await page.textContent('#decision')).toBe('rejected command, support')
    // Each judged span is marked in the answer, tied to its criterion; each quote in the source.
    expect((await page.locator('#answer mark[data-criteria~="command"]').allTextContents()).join('')).toBe('`docuctl rollback r41 --env staging`')
    expect((await page.locator('#source mark[data-criteria~="command"]').allTextContents()).join('')).toBe(
      'Use `docuctl releases rollback r41 --environment staging` to select release r41.',
    )
    // The failed criteria are marked as such.
    expect(await page.locator('.criterion.does_not_meet').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-criterion')))).toEqual([
      'command',
      'support',
    ])
  })

  test('a review recorded with the keyboard alone: the decision changes, the file is bound, evaluate agrees', async () => {
    const { root, open } = await served()
    const page = await open()
    // n: the review queue's first case (not reviewed comes before a review not settled), then the next one, then back.
    await page.keyboard.press('n')
    await page.waitForSelector('#criteria')
    expect(await page.locator('nav.crumbs strong').textContent()).toBe('not-reviewed')
    expect(await page.textContent('#assignment')).toBe('next in the queue: unreviewed — no review. 2 cases are in the queue; n opens the next.')
    await page.keyboard.press('n')
    await page.waitForFunction(() => document.querySelector('nav.crumbs strong')?.textContent === 'uncertain-wording')
    await page.keyboard.press('n')
    await page.waitForFunction(() => document.querySelector('nav.crumbs strong')?.textContent === 'not-reviewed')
    expect(await page.textContent('#decision')).toBe('pending no review')

    const spans = [
      '`docuctl releases rollback r41 --environment staging`',
      'Get release approval and confirm you are on staging',
      'leaves database contents as they are',
      'Check service health afterwards.',
      '',
    ]
    for (const span of spans) {
      await page.keyboard.press('1')
      await page.keyboard.type('Judged from the page.')
      await page.keyboard.press('Enter')
      await page.keyboard.type(span)
      await page.keyboard.press('Enter')
    }
    await page.keyboard.press('s')
    await page.waitForFunction(() => document.getElementById('save-status')?.textContent?.startsWith('saved') === true)
    expect(await page.textContent('#save-status')).toBe('saved: accepted. Press n for the next case in the review queue.')
    expect(await page.textContent('#decision')).toBe('accepted every criterion meets')
    expect((await page.locator('#answer mark[data-criteria~="command"]').allTextContents()).join('')).toBe(spans[0])

    // On disk: a bound review, acknowledged by its case; evaluate decides it the same way.
    const annotations = JSON.parse(await readFile(join(root, 'fixtures/lab/annotations.json'), 'utf8')) as AnnotationsJson
    const review = annotations.reviews.find((item) => item.answer_id === 'not-reviewed')!
    expect(review.answer_sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(Object.keys(review.judgements)).toEqual(['command', 'preconditions', 'database_scope', 'verification', 'support'])
    expect(review.judgements['support']!.answer_span).toBe('')
    const evaluated = JSON.parse((await runCli(['evaluate', 'fixtures/lab', '--json'], root)).stdout)
    expect(evaluated.decisions['not-reviewed'].status).toBe('accepted')
    expect((await runCli(['status', 'fixtures/lab'], root)).stdout).toContain('every review is bound to the files as they are')

    // k goes back through the list; the span can be taken from a mouse selection in the answer.
    await page.keyboard.press('k')
    await page.waitForFunction(() => document.querySelector('nav.crumbs strong')?.textContent === 'uncertain-wording')
    await page.keyboard.press('ArrowDown')
    await page.evaluate(() => {
      const answer = document.getElementById('answer')!
      const range = document.createRange()
      const text = answer.firstChild!
      range.setStart(text, 0)
      range.setEnd(text, 12)
      window.getSelection()!.removeAllRanges()
      window.getSelection()!.addRange(range)
      answer.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }))
    })
    const selected = await page.evaluate(() => document.getElementById('answer')!.textContent!.slice(0, 12))
    expect(await page.inputValue('#span-1')).toBe(selected)
  })

  test('two pages saving the same case: one write wins, the other is told and keeps its form', async () => {
    const { root, open } = await served()
    const first = await open(caseHash('uncertain-wording'))
    const second = await open(caseHash('uncertain-wording'))
    // Both forms are being filled in: a page that is not is re-read as soon as the other saves.
    await first.check('#rating-4-meets')
    await first.fill('#reason-4', 'First tab: supported after all.')
    await second.check('#rating-4-does_not_meet')
    await second.fill('#reason-4', 'Second tab: not supported.')
    await first.click('#save')
    await first.waitForFunction(() => document.getElementById('save-status')?.textContent?.startsWith('saved') === true)

    await second.click('#save')
    await second.waitForFunction(() => document.getElementById('save-status')?.textContent?.startsWith('not saved') === true)
    expect(await second.textContent('#save-status')).toContain('annotations.json › uncertain-wording › review changed since this case was read')
    expect(await second.inputValue('#reason-4')).toBe('Second tab: not supported.')
    const annotations = JSON.parse(await readFile(join(root, 'fixtures/lab/annotations.json'), 'utf8')) as AnnotationsJson
    expect(annotations.reviews.find((item) => item.answer_id === 'uncertain-wording')!.judgements['support']!.reason).toBe('First tab: supported after all.')
  })

  test("a save's answer stays shown when the page is drawn again for a change on disk", async () => {
    const { root, open } = await served()
    const page = await open(caseHash('uncertain-wording'))
    await page.check('#rating-4-meets')
    await page.fill('#reason-4', 'Supported after all.')
    await page.click('#save')
    await page.waitForFunction(() => document.getElementById('save-status')?.textContent?.startsWith('saved') === true)
    // Another case of the fixture is reviewed elsewhere: the page hears of it and draws the open case again.
    await reviewedElsewhere(root, page)
    expect(await page.textContent('#save-status')).toMatch(/^saved: /)
  })

  test('a fixture edited on disk while the page is open is re-read, and the page says so', async () => {
    // Two fixtures served; only the edited one is named.
    const root = await fixtureRoot('page-edited', { 'fixtures/lab': DOCUCTL, 'fixtures/other': DOCUCTL })
    const { page } = await chromium.open(await serve(root, ['fixtures/lab', 'fixtures/other']), '', { waitFor: 'table.cases' })
    await reviewedElsewhere(root, page)
    expect(await page.locator('section.fixture').first().locator('tr[data-case="not-reviewed"]').textContent()).toContain('missing criteria')
  })

  test('a blind reviewer sees no other review until they have saved their own', async () => {
    const { root, server } = await served()
    const judged = ['command', 'preconditions', 'database_scope', 'verification', 'support'].flatMap((criterion) => [
      '--rating',
      `${criterion}=meets`,
      '--reason',
      `${criterion}=bob's reason.`,
    ])
    expect((await runCli(['review', 'fixtures/lab', '--case', 'not-reviewed', '--reviewer', 'bob', ...judged], root)).code).toBe(0)
    const { page } = await chromium.open(server, caseHash('not-reviewed'), { viewer: { role: 'reviewer', name: 'alice' }, waitFor: '#criteria' })
    expect(await page.textContent('.hidden-reviews')).toContain('shown once you have saved your own review')
    expect(await page.locator('#side-by-side').count()).toBe(0)
    expect(await page.content()).not.toContain("bob's reason")
    for (let index = 0; index < 5; index++) {
      await page.check(`#rating-${index}-meets`)
      await page.fill(`#reason-${index}`, "alice's reason.")
    }
    await page.click('#save')
    await page.waitForSelector('#side-by-side')
    expect(await page.locator('#side-by-side').textContent()).toContain("bob's reason.")
    const alice = JSON.parse(await readFile(join(root, 'fixtures/lab/reviews/alice.json'), 'utf8')) as AnnotationsJson
    expect(alice.reviews.map((item) => item.answer_id)).toEqual(['not-reviewed'])
  })

  test('an adjudicator sees the disputed criterion above the form, takes a judgement and adopts the result', async () => {
    const { root, server } = await served()
    const criteria = ['command', 'preconditions', 'database_scope', 'verification', 'support']
    for (const [reviewer, support] of [
      ['alice', 'meets'],
      ['bob', 'does_not_meet'],
    ] as const) {
      const judged = criteria.flatMap((criterion) => [
        '--rating',
        `${criterion}=${criterion === 'support' ? support : 'meets'}`,
        '--reason',
        `${criterion}=${reviewer}'s reason.`,
      ])
      expect((await runCli(['review', 'fixtures/lab', '--case', 'not-reviewed', '--reviewer', reviewer, ...judged], root)).code).toBe(0)
    }
    const { page } = await chromium.open(server, caseHash('not-reviewed'), { viewer: { role: 'adjudicator', name: 'carol' }, waitFor: '#disputes' })
    expect(await page.textContent('#decision')).toBe('pending reviewers disagree on support (alice: meets, bob: does_not_meet)')
    expect(await page.locator('#side-by-side tr.disagree td:first-child').allTextContents()).toEqual(['support'])
    expect(await page.locator('#disputes .dispute').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-criterion')))).toEqual(['support'])
    // The four criteria both rate alike are in the form already; support is settled by taking bob's judgement.
    expect(await page.inputValue('#reason-0')).toBe("alice's reason.")
    await page.click('#dispute-support button.take:has-text("take bob\'s")')
    expect(await page.inputValue('#reason-4')).toBe("bob's reason.")
    await page.click('#save')
    await page.waitForFunction(() => document.getElementById('save-status')?.textContent?.startsWith('saved') === true)
    expect(await page.textContent('#decision')).toBe('rejected support')
    const adoptions = JSON.parse(await readFile(join(root, 'fixtures/lab/adjudications.json'), 'utf8'))
    expect(adoptions.adoptions[0]).toMatchObject({ case_id: 'not-reviewed', adjudicator: 'carol' })
    expect(Object.keys(adoptions.adoptions[0].resolved).sort()).toEqual(['alice', 'bob'])
    const evaluated = JSON.parse((await runCli(['evaluate', 'fixtures/lab', '--json'], root)).stdout)
    expect(evaluated.decisions['not-reviewed']).toMatchObject({ status: 'rejected', reason: 'support' })
  })

  test('a scored case shows each dimension with its score and why, beside the baseline, read-only', async () => {
    const root = await fixtureRoot('page-scored', { 'fixtures/debate': join(ROOT, 'fixtures/debate-benchmark') })
    const { page } = await chromium.open(await serve(root, ['fixtures/debate']), caseHash('partial-recall'), { waitFor: '#scores' })
    const rows = await page
      .locator('#scores tr')
      .evaluateAll((items) => items.slice(1).map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)))
    expect(rows).toHaveLength(6)
    expect(rows[0]).toEqual(['issue_discovery_recall', '0.75', '1.5 of 2 planted issues found: P1 full (C1), P2 partial (C2)', '0.5'])
    expect(rows[4]![1]).toBe('N/A')
    expect(await page.locator('#save, textarea').count()).toBe(0)
  })

  test('an answer holding HTML shows its characters and runs nothing', async () => {
    const { root, open } = await served()
    const answer = 'Run it. <script>window.__ran = 1</script><img src=x onerror="window.__ran = 2"> Done.'
    const added = await runCli(['add', 'fixtures/lab', '--id', 'markup', '--answer', answer, '--citation', '<b>guide</b>'], root)
    expect(added.code).toBe(0)
    const page = await open(caseHash('markup'))
    expect(await page.textContent('#answer')).toBe(answer)
    expect(await page.locator('#answer img, #answer script').count()).toBe(0)
    expect(await page.evaluate(() => (window as unknown as { __ran?: number }).__ran)).toBeUndefined()
    expect(await page.textContent('main')).toContain('citation: <b>guide</b>')
  })

  test('no token, a foreign Host, a path outside the fixtures, a bad name and an oversized body are refused', async () => {
    const { dir, server } = await served()
    const token = { 'x-rubric-token': server.token }
    expect((await raw(server, '/')).status).toBe(403)
    expect((await raw(server, '/api/overview', { headers: { 'x-rubric-token': 'wrong' } })).status).toBe(403)
    const rebound = await raw(server, `/?token=${server.token}`, { headers: { host: `evil.example:${server.port}` } })
    expect(rebound.status).toBe(421)
    const page = await raw(server, `/?token=${server.token}`)
    expect(page.status).toBe(200)
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    expect(page.headers['access-control-allow-origin']).toBeUndefined()
    // Paths and ids never reach the file system.
    expect((await raw(server, `/assets/..%2F..%2Fpackage.json?token=${server.token}`)).status).toBe(404)
    expect((await raw(server, `/../../package.json?token=${server.token}`)).status).toBe(404)
    const traversal = await raw(server, `/api/case?fixture=0&id=${encodeURIComponent('../../etc/passwd')}`, { headers: token })
    expect(traversal.status).toBe(404)
    expect(JSON.parse(traversal.body).error.code).toBe('CASE_NOT_FOUND')
    expect((await raw(server, '/api/case?fixture=7&id=complete', { headers: token })).status).toBe(404)
    const before = await readFile(join(dir, 'annotations.json'), 'utf8')
    const save = (body: unknown) =>
      raw(server, '/api/review', { method: 'POST', headers: { ...token, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const base = { fixture: 0, id: 'not-reviewed', draft: {}, replace: false }
    const { versions } = JSON.parse((await raw(server, '/api/case?fixture=0&id=not-reviewed', { headers: token })).body) as {
      versions: Record<string, string | null>
    }
    // A save always says which revision of the case it was made from: no version, no write.
    const unversioned = await save({ ...base, versions: {}, draft: { command: { rating: 'meets', reason: 'x', answer_span: '' } } })
    expect(unversioned.status).toBe(400)
    expect(JSON.parse(unversioned.body).error.message).toContain(
      'the save does not say which revision of cases.json › not-reviewed, annotations.json › not-reviewed › review it was made from',
    )
    const badName = await save({ ...base, versions, reviewer: '../elsewhere', draft: { command: { rating: 'meets', reason: 'x', answer_span: '' } } })
    expect(badName.status).toBe(400)
    expect(JSON.parse(badName.body).error.message).toContain('is not a reviewer name')
    const badDraft = await save({ ...base, versions, draft: { command: { rating: 'great', reason: 'x' } } })
    expect(badDraft.status).toBe(422)
    const huge = await raw(server, '/api/review', {
      method: 'POST',
      headers: { ...token, 'content-type': 'application/json' },
      body: Buffer.alloc(2 * 1024 * 1024, 0x20),
    })
    expect(huge.status).toBe(413)
    const foreign = await raw(server, '/api/review', { method: 'POST', headers: { ...token, origin: 'http://evil.example' }, body: '{}' })
    expect(foreign.status).toBe(403)
    expect(await readFile(join(dir, 'annotations.json'), 'utf8')).toBe(before)
  })

  test('the static report opens from file:// and shows the same case the same way, without forms', async () => {
    const { root, open } = await served()
    const result = await runCli(['report', '--html', 'fixtures/lab', '--out', 'out/report.html'], root)
    expect(result.stdout.trim()).toBe('wrote out/report.html')
    // The source is written once for the fixture, not once per case.
    const html = await readFile(join(root, 'out/report.html'), 'utf8')
    expect(html.split('it does not execute it in this example.').length - 1).toBe(1)
    const { page: report, errors } = await chromium.newPage()
    report.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    await report.goto(`${pathToFileURL(join(root, 'out/report.html')).href}${caseHash('wrong-command')}`)
    await report.waitForSelector('#criteria')
    const servedPage = await open(caseHash('wrong-command'))
    const look = (page: Page) =>
      page.evaluate(() => ({
        decision: document.getElementById('decision')!.textContent,
        answer: [...document.querySelectorAll('#answer mark')].map((mark) => [mark.getAttribute('data-criteria'), mark.textContent]),
        source: [...document.querySelectorAll('#source mark')].map((mark) => [mark.getAttribute('data-criteria'), mark.textContent]),
        ratings: [...document.querySelectorAll('.criterion')].map((card) => [
          card.getAttribute('data-criterion'),
          card.querySelector('h4 .badge')!.textContent,
        ]),
      }))
    expect(await look(report)).toEqual(await look(servedPage))
    expect(await report.locator('#save, textarea').count()).toBe(0)
    await report.goto(`${pathToFileURL(join(root, 'out/report.html')).href}#/`)
    await report.waitForSelector('table.cases')
    expect(await report.locator('tr.case-row').count()).toBe(8)
    // The header names only the keys that work in a report, and they do; the page's names rating and saving too.
    expect(await report.textContent('header .keys')).toBe('j/k next/previous case · n next pending · Esc overview')
    expect(await servedPage.textContent('header .keys')).toBe('j/k next/previous case · n next in the review queue · 1/2/3 rate · s save')
    const first = (await report.locator('tr.case-row').first().getAttribute('data-case')) ?? ''
    const second = (await report.locator('tr.case-row').nth(1).getAttribute('data-case')) ?? ''
    await report.click(`a:text-is("${first}")`)
    await report.waitForFunction((id) => document.querySelector('nav.crumbs strong')?.textContent === id, first)
    await report.keyboard.press('j')
    await report.waitForFunction((id) => document.querySelector('nav.crumbs strong')?.textContent === id, second)
    await report.keyboard.press('Escape')
    await report.waitForSelector('table.cases')
    expect(errors).toEqual([])
  })
})

describe('serve and the report around a run', () => {
  test('vitest-rubric serve prints its URL on loopback and stops cleanly on Ctrl-C', async () => {
    const root = await fixtureRoot('serve', { 'fixtures/lab': DOCUCTL })
    const child = spawn(process.execPath, [join(ROOT, 'dist/cli/bin.js'), 'serve', '--port', '0'], { cwd: root })
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve))
    // Serving once it prints its URL; a serve that exits first fails here, not at the test's timeout.
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => stdout.includes('Ctrl-C') && resolve())
      void exit.then((code) => reject(new Error(`serve exited with ${code} before printing its URL`)))
    })
    const url = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(stdout)![0]
    const { page } = await chromium.newPage()
    await page.goto(url)
    await page.waitForSelector('table.cases')
    child.kill('SIGINT')
    expect(await exit).toBe(0)
    expect(stdout).toContain('stopped')
  })

  test("the reporter's htmlReport option writes the report at the end of a run, and the job summary links to it", async () => {
    const root = await fixtureRoot('html-report', { 'fixtures/lab': DOCUCTL })
    const summary = join(root, 'summary.md')
    process.env['GITHUB_STEP_SUMMARY'] = summary
    try {
      await runVitest({
        root,
        plugin: { reporter: { outputFile: false, htmlReport: 'out/rubric.html', reportUrl: 'https://ci.example/artifacts/rubric.html' } },
      })
    } finally {
      delete process.env['GITHUB_STEP_SUMMARY']
    }
    expect(await readFile(summary, 'utf8')).toContain('[The HTML report](https://ci.example/artifacts/rubric.html)')
    const { page } = await chromium.newPage()
    await page.goto(`${pathToFileURL(join(root, 'out/rubric.html')).href}#/f/0/c/not-reviewed`)
    await page.waitForSelector('#decision')
    expect(await page.textContent('#decision')).toBe('pending no review')
  })
})
