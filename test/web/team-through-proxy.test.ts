import { execFile } from 'node:child_process'
import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { describe, expect, onTestFinished, test } from 'vitest'
import { NULL_FINGERPRINT, fingerprint } from '../../src/core/json/canonical-json.js'
import { parsePublicOrigin } from '../../src/web/public-origin.js'
import { generateFixture } from '../bench/generate.mjs'
import { launchBrowser } from '../helpers/browser.js'
import { runCli } from '../helpers/cli.js'
import { behindNginx, findNginx } from '../helpers/nginx.js'
import { scratchDir } from '../helpers/scratch.js'
import { servedTeam } from '../helpers/served-team.js'

// Three people, two reviewers (alice, bob) and an adjudicator (dana), each with their own link in
// their own Chromium context, review and adjudicate a 200-case fixture through nginx, which
// terminates TLS as docs/review-page.md configures it, with `serve --team --commit`. Then the same
// work is done from the command line on a copy of the fixture, and both decide alike.
//
// Which saves go through the page's UI, and which through the page's own fetch (the same routes,
// with the page's own token, from inside the page):
// - bob presses n and reviews 3 cases with the mouse and keyboard (UI);
// - alice opens those 3 cases, sees none of bob's judgements, and reviews them in the UI;
// - then alice and bob, at once, each ask for their next case and save it through the page's fetch
//   until none is left for them (API: 197 cases each);
// - dana adopts 3 cases in the UI (two disputed, taking one reviewer's judgement; one agreed), then
//   the other 197 through the page's fetch (API).

const PUBLIC = 'review.example.org'
const CASES = 200
const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support'] as const
const SPAN = 'check service health'
const nginx = findNginx()
const run = promisify(execFile)

type Rating = 'meets' | 'does_not_meet'
type Draft = Record<string, { rating: Rating; reason: string; answer_span: string }>

const idOf = (index: number) => `case-${String(index).padStart(6, '0')}`
const indexOf = (id: string) => Number(id.slice('case-'.length))

/** How a reviewer rates a case: both fail verification of every 7th; they disagree on support of every 10th. */
function rating(reviewer: string, index: number, criterion: string): Rating {
  if (criterion === 'verification' && index % 7 === 3) return 'does_not_meet'
  if (criterion === 'support' && index % 10 === 5 && reviewer === 'bob') return 'does_not_meet'
  return 'meets'
}

/** A reviewer's review of a case; each reason names its reviewer, so a leak to another reviewer shows. */
function draftOf(reviewer: string, index: number): Draft {
  return Object.fromEntries(
    CRITERIA.map((criterion) => {
      const rated = rating(reviewer, index, criterion)
      return [criterion, { rating: rated, reason: `${reviewer}'s reason on ${criterion}.`, answer_span: rated === 'meets' ? SPAN : '' }]
    }),
  )
}

/** Whose review dana adopts where the reviewers disagree: bob's on cases 5, 25, 45…, alice's on 15, 35, 55… */
const takenOf = (index: number): 'alice' | 'bob' | undefined => (index % 10 !== 5 ? undefined : index % 20 === 5 ? 'bob' : 'alice')

/** A git repository holding the 200 cases, none reviewed, at `fixtures/lab`, and the team file. */
async function teamRepository(): Promise<string> {
  const root = await scratchDir('team-proxy')
  await generateFixture(join(root, 'fixtures/lab'), CASES, { fingerprint })
  // No case reviewed yet: the generator's reviews are dropped, and each case records that it has none.
  const casesPath = join(root, 'fixtures/lab/cases.json')
  const cases = JSON.parse(await readFile(casesPath, 'utf8')) as { cases: { expected: { review_sha256: string } }[] }
  for (const each of cases.cases) each.expected.review_sha256 = NULL_FINGERPRINT
  await writeFile(casesPath, JSON.stringify(cases, null, 2))
  await writeFile(join(root, 'fixtures/lab/annotations.json'), JSON.stringify({ origin: 'two reviewers and an adjudicator', reviews: [] }, null, 2))
  const people = [
    { name: 'alice', role: 'reviewer' },
    { name: 'bob', role: 'reviewer' },
    { name: 'dana', role: 'adjudicator' },
  ]
  await writeFile(join(root, 'team.json'), JSON.stringify({ people }, null, 2))
  await writeFile(join(root, '.gitignore'), '.vitest-rubric/\n')
  for (const argv of [
    ['init', '-q'],
    ['config', 'user.name', 'serve'],
    ['config', 'user.email', 'serve@example.org'],
    ['add', '.'],
    ['commit', '-qm', 'the fixture'],
  ])
    await run('git', argv, { cwd: root })
  return root
}

/** A copy of the fixture as it is before anyone reviewed it, for the same work from the CLI. */
async function unreviewedCopy(from: string): Promise<string> {
  const root = await scratchDir('team-cli')
  await cp(join(from, 'fixtures/lab'), join(root, 'fixtures/lab'), { recursive: true })
  return root
}

/** The same work from the command line: each review with `review --reviewer`, then `adjudicate`. */
async function sameWorkFromTheCli(root: string): Promise<void> {
  const cli = async (...argv: string[]) => {
    const result = await runCli(argv, root)
    expect(result.code, result.stderr).toBe(0)
  }
  for (let index = 0; index < CASES; index++)
    for (const reviewer of ['alice', 'bob']) {
      const draft = draftOf(reviewer, index)
      const judged = CRITERIA.flatMap((criterion) => [
        '--rating',
        `${criterion}=${draft[criterion]!.rating}`,
        '--reason',
        `${criterion}=${draft[criterion]!.reason}`,
      ])
      const spans = CRITERIA.flatMap((criterion) => (draft[criterion]!.answer_span === '' ? [] : ['--span', `${criterion}=${SPAN}`]))
      await cli('review', 'fixtures/lab', '--case', idOf(index), '--reviewer', reviewer, ...judged, ...spans)
    }
  await cli('adjudicate', 'fixtures/lab', '--consensus', '--adjudicator', 'dana', '--min-reviews', '2')
  for (let index = 0; index < CASES; index++) {
    const taken = takenOf(index)
    if (taken !== undefined) await cli('adjudicate', 'fixtures/lab', '--case', idOf(index), '--adjudicator', 'dana', '--take', taken)
  }
}

async function decisions(root: string): Promise<unknown> {
  const result = await runCli(['evaluate', 'fixtures/lab', '--json', '--min-reviews', '2'], root)
  return (JSON.parse(result.stdout) as { decisions: unknown }).decisions
}

/** A person's page, in a browser context of their own, opened by their link at the public origin. */
async function personPage(browser: Browser, token: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true })
  onTestFinished(() => context.close())
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(`https://${PUBLIC}/?token=${token}`)
  await page.waitForSelector('#overview, #assignments')
  return { context, page, errors }
}

/** Fills the case form with `draft` and saves it, as a person does with the mouse and keyboard. */
async function saveInPage(page: Page, draft: Draft): Promise<void> {
  for (const [index, criterion] of CRITERIA.entries()) {
    const judged = draft[criterion]!
    await page.click(`#rating-${index}-${judged.rating}`)
    await page.fill(`#reason-${index}`, judged.reason)
    await page.fill(`#span-${index}`, judged.answer_span)
  }
  await page.click('#save')
  await saved(page)
}

/** Waits for the answer to a save, and expects it saved. */
async function saved(page: Page): Promise<void> {
  const status = page.locator('#save-status')
  // A status that never becomes an answer (a form the page would not send, say) is named, not left to a bare timeout.
  const answered = await page
    .waitForFunction(() => /^(saved|not saved|refused)/.test(document.getElementById('save-status')?.textContent ?? ''))
    .then(() => true)
    .catch(() => false)
  expect(await status.textContent(), answered ? 'the save answered' : 'the save never answered: the status shown').toMatch(/^saved/)
}

/** Waits until the page shows case `id` (its name in the crumbs), not the case drawn before. */
async function showing(page: Page, id: string): Promise<void> {
  const shown = await page
    .waitForFunction((wanted) => document.querySelector('nav.crumbs strong')?.textContent === wanted && document.getElementById('save') !== null, id)
    .then(() => true)
    .catch(() => false)
  // A page that never shows the case is described (its address, crumbs and alerts), not left to a bare timeout.
  if (!shown) {
    const seen = await page.evaluate(() => ({
      hash: location.hash,
      crumbs: document.querySelector('nav.crumbs')?.textContent ?? null,
      alerts: [...document.querySelectorAll('[role="alert"]')].map((item) => item.textContent),
      save: document.getElementById('save') !== null,
    }))
    expect(seen, `the page shows ${id}`).toEqual({ hash: expect.stringContaining(id), crumbs: expect.stringContaining(id), alerts: [], save: true })
  }
}

/** The case the page shows, from its address (`#/f/0/c/<id>`). */
async function shownCase(page: Page): Promise<string> {
  return decodeURIComponent(((await page.evaluate('location.hash')) as string).split('/').pop()!)
}

interface Worked {
  /** The cases saved, in order. */
  readonly saved: string[]
  /** The cases whose answer, read before the person's own save, held another reviewer's reason. */
  readonly leaks: string[]
}

/**
 * Runs in the page: with the page's own token, asks for the next case (a reviewer) or goes through
 * `cases` (the adjudicator), reads it, and saves `drafts[id]` through the route the page uses,
 * until none is left. A save refused because the case changed meanwhile (the other reviewer saved
 * the same case a moment before) is read again and saved again, as the page offers.
 */
function workInPage(page: Page, work: { route: '/api/review' | '/api/adjudicate'; drafts: Record<string, Draft>; other: string; cases?: readonly string[] }) {
  return page.evaluate(async ({ route, drafts, other, cases }): Promise<Worked> => {
    const token = document.querySelector<HTMLMetaElement>('meta[name="rubric-token"]')!.content
    const call = async (path: string, body?: unknown): Promise<{ status: number; text: string }> => {
      const response = await fetch(path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'x-rubric-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      return { status: response.status, text: await response.text() }
    }
    const saved: string[] = []
    const leaks: string[] = []
    const queue = cases === undefined ? undefined : [...cases]
    for (;;) {
      let id: string | undefined
      if (queue !== undefined) id = queue.shift()
      else {
        const asked = await call('/api/next?fixture=0')
        if (asked.status !== 200) throw new Error(`/api/next: ${asked.status} ${asked.text}`)
        id = (JSON.parse(asked.text) as { next: { id: string } | null }).next?.id
      }
      if (id === undefined) return { saved, leaks }
      for (let attempt = 0; ; attempt++) {
        const read = await call(`/api/case?fixture=0&id=${encodeURIComponent(id)}`)
        if (read.status !== 200) throw new Error(`/api/case ${id}: ${read.status} ${read.text}`)
        // Before their own save, a reviewer is served the others' reviews as hidden, and no word of them.
        if (route === '/api/review' && ((JSON.parse(read.text) as { reviewers: unknown }).reviewers !== 'hidden' || read.text.includes(`${other}'s reason`)))
          leaks.push(id)
        const { versions } = JSON.parse(read.text) as { versions: Record<string, string | null> }
        const answer = await call(route, { fixture: 0, id, versions, replace: false, draft: drafts[id] })
        if (answer.status === 200) break
        if (answer.status !== 409 || attempt === 3) throw new Error(`${route} ${id}: ${answer.status} ${answer.text}`)
      }
      saved.push(id)
    }
  }, work)
}

describe.skipIf(nginx === undefined)('a team of three through nginx, every save a commit', () => {
  test('two reviewers and an adjudicator review and adjudicate 200 cases; the fixture decides as the same work from the CLI', async () => {
    const root = await teamRepository()
    const cli = await unreviewedCopy(root)
    const team = await servedTeam(root, {
      publicOrigin: parsePublicOrigin(`https://${PUBLIC}`),
      commit: true,
      assign: { reviewsPerCase: 2 },
      // The scripted saves come faster than people's; proxy.test.ts tests the limit itself.
      rateLimit: { perSecond: 1000, burst: 1000 },
    })
    const proxy = await behindNginx(nginx!, team.server.port, { tls: PUBLIC })
    // Chromium reaches the public host at nginx's loopback port; the certificate is the test's own.
    const browser = await launchBrowser([`--host-resolver-rules=MAP ${PUBLIC}:443 127.0.0.1:${proxy.port}`])
    onTestFinished(() => browser.close())
    // Each open page reads the overview again after every save it hears of: dana opens hers once the
    // reviews are done, and the reviewers close theirs then, as people who finished their part do.
    const [alice, bob] = await Promise.all(['alice', 'bob'].map((name) => personPage(browser, team.tokens[name]!)))
    const drafts = (reviewer: string) => Object.fromEntries(Array.from({ length: CASES }, (_, index) => [idOf(index), draftOf(reviewer, index)]))

    // bob, in the UI: n hands him a case with why it is next; he rates it and saves, three times.
    const bobsUi: string[] = []
    for (let turn = 0; turn < 3; turn++) {
      const before = (await bob!.page.evaluate('location.hash')) as string
      await bob!.page.evaluate('document.activeElement?.blur()')
      await bob!.page.keyboard.press('n')
      await bob!.page.waitForFunction((was) => location.hash !== was && document.querySelector('#assignment strong') !== null, before)
      expect(await bob!.page.textContent('#assignment')).toContain('not reviewed by bob')
      const id = await shownCase(bob!.page)
      await showing(bob!.page, id)
      await saveInPage(bob!.page, draftOf('bob', indexOf(id)))
      bobsUi.push(id)
    }
    expect(new Set(bobsUi).size).toBe(3)

    // alice, in the UI, on the cases bob saved: blind to his review until she has saved hers.
    for (const id of bobsUi) {
      await alice!.page.goto(`https://${PUBLIC}/?token=${team.tokens['alice']}#/f/0/c/${id}`)
      await showing(alice!.page, id)
      expect(await alice!.page.locator('.hidden-reviews').count()).toBe(1)
      expect(await alice!.page.textContent('body')).not.toContain("bob's reason")
      await saveInPage(alice!.page, draftOf('alice', indexOf(id)))
      // Her own review complete, the page shows the others' judgements: the check above could fail.
      await alice!.page.waitForFunction(() => document.body.textContent?.includes("bob's reason") === true)
    }

    // Both at once, through the page's own fetch, each asking for their next case until none is left.
    const [alicesApi, bobsApi] = await Promise.all([
      workInPage(alice!.page, { route: '/api/review', drafts: drafts('alice'), other: 'bob' }),
      workInPage(bob!.page, { route: '/api/review', drafts: drafts('bob'), other: 'alice' }),
    ])
    expect(alicesApi.leaks).toEqual([])
    expect(bobsApi.leaks).toEqual([])
    const byAlice = [...bobsUi, ...alicesApi.saved]
    const byBob = [...bobsUi, ...bobsApi.saved]
    // Each reviewer reviewed every case once: no case was handed to anyone twice, and none to a third.
    expect(new Set(byAlice).size).toBe(byAlice.length)
    expect(new Set(byBob).size).toBe(byBob.length)
    expect([byAlice.length, byBob.length]).toEqual([CASES, CASES])

    for (const person of [alice, bob]) expect(person!.errors).toEqual([])
    await Promise.all([alice!.context.close(), bob!.context.close()])
    const dana = await personPage(browser, team.tokens['dana']!)

    // dana, in the UI: two disputed cases, taking one reviewer's judgement of support, and one agreed case.
    const disputed = [5, 15].map(idOf)
    for (const id of [...disputed, idOf(0)]) {
      await dana.page.goto(`https://${PUBLIC}/?token=${team.tokens['dana']}#/f/0/c/${id}`)
      await showing(dana.page, id)
      const taken = takenOf(indexOf(id))
      if (taken !== undefined) await dana.page.click(`#dispute-support button.take:has-text("take ${taken}'s")`)
      await dana.page.click('#save')
      await saved(dana.page)
    }
    const danasUi = [...disputed, idOf(0)]
    const rest = Array.from({ length: CASES }, (_, index) => idOf(index)).filter((id) => !danasUi.includes(id))
    const adopted = Object.fromEntries(rest.map((id) => [id, draftOf(takenOf(indexOf(id)) ?? 'alice', indexOf(id))]))
    const danasApi = await workInPage(dana.page, { route: '/api/adjudicate', drafts: adopted, other: '', cases: rest })
    expect(danasApi.saved).toHaveLength(CASES - 3)
    expect(dana.errors).toEqual([])
    // The overview's progress, as the server counts it: every case has its two reviews, none is reserved.
    const progress = await dana.page.evaluate(async () => {
      const token = document.querySelector<HTMLMetaElement>('meta[name="rubric-token"]')!.content
      return (await fetch('/api/assignments', { headers: { 'x-rubric-token': token } })).json()
    })
    expect(progress).toMatchObject({
      people: [
        { name: 'alice', reviews: CASES, reservations: 0 },
        { name: 'bob', reviews: CASES, reservations: 0 },
      ],
      fixtures: [{ index: 0, complete: CASES, total: CASES, reserved: 0 }],
    })

    // Every save a commit, authored by the person who saved; nothing else was committed.
    const { stdout: log } = await run('git', ['log', '--format=%an <%ae>|%s', '--reverse'], { cwd: root })
    const commits = log.trim().split('\n').slice(1)
    expect(commits).toHaveLength(CASES * 3)
    for (const line of commits) {
      const [author, subject] = line.split('|') as [string, string]
      const by = /^(review|adjudicate): fixtures\/lab case (case-\d{6}) by (\w+) \((new|adopted)\)$/.exec(subject)
      expect(by, subject).not.toBeNull()
      expect(author).toBe(`${by![3]} <${by![3]}@vitest-rubric.invalid>`)
      expect(by![1] === 'review' ? ['alice', 'bob'] : ['dana']).toContain(by![3])
    }
    const reviewCommits = commits.filter((line) => line.includes('|review: '))
    expect(reviewCommits).toHaveLength(CASES * 2)
    const { stdout: clean } = await run('git', ['status', '--porcelain', '--', 'fixtures'], { cwd: root })
    expect(clean).toBe('')

    // The same work from the command line decides every case alike.
    await sameWorkFromTheCli(cli)
    const served = await decisions(root)
    expect(Object.keys(served as object)).toHaveLength(CASES)
    expect(served).toEqual(await decisions(cli))
  }, 600_000)
})
