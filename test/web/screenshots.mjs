// Screenshots of the review page for the docs: `npm run screenshots` (after `npm run build`).
// Serves copies of the bundled fixtures and a generated one of 20,000 cases, and writes
// docs/images/page-overview.png, page-case.png, page-adjudication.png, page-reading-adjudicated.png,
// page-kept-form.png, page-compare.png, page-compare-offer.png, page-report-gates.png,
// page-overview-20k.png, page-case-20k.png and page-team.png. `node test/web/screenshots.mjs page-adjudication.png` writes the ones named.
import { execFileSync } from 'node:child_process'
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { pathToFileURL } from 'node:url'
import { join, resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { ensureChromium } from '../../scripts/ensure-chromium.mjs'
import { startServer } from '../../dist/web/server.js'
import { announceTeam, openTeam } from '../../dist/cli/commands/serve-team.js'
import { generateFixture } from '../bench/generate.mjs'

const root = resolve(import.meta.dirname, '../..')
const scratch = await mkdtemp(join(tmpdir(), 'vitest-rubric-shots-'))
const only = process.argv.slice(2)
const wanted = (name) => only.length === 0 || only.includes(name)
await cp(join(root, 'fixtures'), join(scratch, 'fixtures'), { recursive: true })
await cp(join(root, 'examples/compare'), join(scratch, 'examples/compare'), { recursive: true })
await generateFixture(join(scratch, 'fixtures/generated-20k'), wanted('page-overview-20k.png') || wanted('page-case-20k.png') ? 20_000 : 1)
// A copy of its own, so that the other shots are as before: two reviewers who disagree on two criteria of one case, and a judge's label of it: the adjudication view.
const disputed = {
  alice: { verification: 'meets', support: 'meets' },
  bob: { verification: 'uncertain', support: 'does_not_meet' },
  'gpt-judge': { support: 'does_not_meet' },
}
const reasons = {
  alice: { verification: 'It says to check service health afterwards.', support: 'Each step is in the runbook.' },
  bob: { verification: 'A health check is named, not how to read it.', support: 'The approval step is not in the source.' },
  'gpt-judge': { support: 'Release approval is not mentioned in the source.' },
}
await cp(join(root, 'fixtures/docuctl-rollback'), join(scratch, 'fixtures/lab'), { recursive: true })
for (const [author, ratings] of Object.entries(disputed)) {
  const judged = ['command', 'preconditions', 'database_scope', 'verification', 'support'].flatMap((criterion) => [
    '--rating',
    `${criterion}=${ratings[criterion] ?? 'meets'}`,
    '--reason',
    `${criterion}=${reasons[author][criterion] ?? 'As the runbook says.'}`,
    ...(criterion === 'verification' ? ['--span', 'verification=Check service health afterwards.'] : []),
  ])
  const who = author === 'gpt-judge' ? ['--judge', author, '--origin', 'gpt-x-2026-10, prompt r3'] : ['--reviewer', author]
  execFileSync(process.execPath, [join(root, 'dist/cli/bin.js'), 'review', 'fixtures/lab', '--case', 'not-reviewed', ...who, ...judged], { cwd: scratch })
}
// serve --team on a copy of its own: bob has reviewed a case, and alice is handed her next one.
await cp(join(root, 'fixtures/docuctl-rollback'), join(scratch, 'fixtures/team'), { recursive: true })
const people = [
  { name: 'alice', role: 'reviewer' },
  { name: 'bob', role: 'reviewer' },
  { name: 'dana', role: 'adjudicator' },
]
await writeFile(join(scratch, 'team.json'), JSON.stringify({ people }))
const bobsReview = ['command', 'preconditions', 'database_scope', 'verification', 'support'].flatMap((criterion) => [
  '--rating',
  `${criterion}=meets`,
  '--reason',
  `${criterion}=As the runbook says.`,
])
execFileSync(process.execPath, [join(root, 'dist/cli/bin.js'), 'review', 'fixtures/team', '--case', 'not-reviewed', '--reviewer', 'bob', ...bobsReview], {
  cwd: scratch,
})
const team = await openTeam('team.json', scratch)
const teamServer = await startServer({ dirs: ['fixtures/team'], cwd: scratch, port: 0, team: team.tokens, assign: { reviewsPerCase: 2 } })
const teamLinks = await announceTeam(team.team, teamServer, scratch, { cwd: scratch, stdout: () => undefined, stderr: () => undefined })
const server = await startServer({ dirs: ['fixtures/docuctl-rollback', 'fixtures/debate-benchmark'], cwd: scratch, port: 0 })
const adjudicated = await startServer({ dirs: ['fixtures/lab'], cwd: scratch, port: 0 })
const compared = await startServer({ dirs: ['examples/compare/answers-v1', 'examples/compare/answers-v2'], cwd: scratch, port: 0 })
const large = await startServer({ dirs: ['fixtures/generated-20k'], cwd: scratch, port: 0 })
const browser = await chromium.launch({
  executablePath: ensureChromium(),
  args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
})
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
  await mkdir(join(root, 'docs/images'), { recursive: true })
  const shoot = async (url, selector, name, clip) => {
    if (!wanted(name)) return
    await page.goto(url)
    await page.waitForSelector(selector)
    await page.screenshot({ path: join(root, 'docs/images', name), ...(clip ? { clip: { x: 0, y: 0, width: 1200, height: 900 } } : { fullPage: true }) })
  }
  await shoot(server.url, 'table.cases', 'page-overview.png', true)
  await shoot(`${server.url}#/f/0/c/wrong-command`, '#criteria', 'page-case.png', false)
  if (wanted('page-adjudication.png')) {
    await page.goto(adjudicated.url)
    await page.evaluate(() => localStorage.setItem('vitest-rubric.viewer', JSON.stringify({ role: 'adjudicator', name: 'carol' })))
    await page.goto(`${adjudicated.url}#/f/0/c/not-reviewed`)
    await page.reload()
    await page.waitForSelector('#disputes')
    await page.screenshot({ path: join(root, 'docs/images/page-adjudication.png'), fullPage: true })
    await page.evaluate(() => localStorage.removeItem('vitest-rubric.viewer'))
  }
  // Reading the same case: no form, since only an adjudication adopts its review.
  if (wanted('page-reading-adjudicated.png')) {
    await page.goto(adjudicated.url)
    await page.evaluate(() => localStorage.setItem('vitest-rubric.viewer', JSON.stringify({ role: 'reader', name: '' })))
    await page.goto(`${adjudicated.url}#/f/0/c/not-reviewed`)
    await page.reload()
    await page.waitForSelector('#role-hint')
    await page.locator('#role-hint').scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(root, 'docs/images/page-reading-adjudicated.png') })
    await page.evaluate(() => localStorage.removeItem('vitest-rubric.viewer'))
  }
  // Adjudicating while bob revises his review on disk: the form is kept, the case shown as it is now, and what changed.
  if (wanted('page-kept-form.png')) {
    await page.goto(adjudicated.url)
    await page.evaluate(() => localStorage.setItem('vitest-rubric.viewer', JSON.stringify({ role: 'adjudicator', name: 'carol' })))
    await page.goto(`${adjudicated.url}#/f/0/c/not-reviewed`)
    await page.reload()
    await page.waitForSelector('#disputes')
    await page.click(`#dispute-support button.take:has-text("take bob's")`)
    const revised = ['command', 'preconditions', 'database_scope', 'verification', 'support'].flatMap((criterion) => [
      '--rating',
      `${criterion}=${criterion === 'support' ? 'does_not_meet' : 'meets'}`,
      '--reason',
      `${criterion}=${criterion === 'verification' ? 'On a second look, the health check is enough.' : (reasons.bob[criterion] ?? 'As the runbook says.')}`,
    ])
    execFileSync(
      process.execPath,
      [join(root, 'dist/cli/bin.js'), 'review', 'fixtures/lab', '--case', 'not-reviewed', '--reviewer', 'bob', '--replace', ...revised],
      {
        cwd: scratch,
      },
    )
    await page.waitForSelector('#kept')
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: join(root, 'docs/images/page-kept-form.png'), fullPage: true })
    await page.evaluate(() => localStorage.removeItem('vitest-rubric.viewer'))
  }
  await shoot(`${compared.url}#/compare/0/1/held-guarantee`, '#compare-case', 'page-compare.png', false)
  await shoot(compared.url, '#compare-offer', 'page-compare-offer.png', true)
  // The static report of the adjudicated copy, with gates set in a Vitest config.
  if (wanted('page-report-gates.png')) {
    const plugin = pathToFileURL(join(root, 'dist/plugin.js')).href
    await writeFile(
      join(scratch, 'vitest.config.mjs'),
      `import { rubric } from ${JSON.stringify(plugin)}\nexport default { plugins: [rubric({ agreement: { min: 0.6 }, judges: { 'gpt-judge': { minKappa: 0.2, minCases: 10 } } })] }\n`,
    )
    execFileSync(process.execPath, [join(root, 'dist/cli/bin.js'), 'report', '--html', 'fixtures/lab', '--out', 'report.html'], { cwd: scratch })
    await page.goto(`${pathToFileURL(join(scratch, 'report.html')).href}#/`)
    await page.waitForSelector('table.gates')
    await page.screenshot({ path: join(root, 'docs/images/page-report-gates.png'), clip: { x: 0, y: 0, width: 1200, height: 900 } })
  }
  if (wanted('page-team.png')) {
    const alice = teamLinks.find((link) => link.name === 'alice')
    await page.goto(`${new URL(teamServer.url).origin}/?token=${alice.token}`)
    await page.waitForSelector('#assignments table.progress-people')
    await page.keyboard.press('n')
    await page.waitForSelector('#assignment strong')
    // The case opens scrolled to its first criterion; the shot shows the page's head, who is viewing and why the case is next.
    await page.evaluate('document.activeElement?.blur(); window.scrollTo(0, 0)')
    await page.screenshot({ path: join(root, 'docs/images/page-team.png'), clip: { x: 0, y: 0, width: 1200, height: 900 } })
  }
  await shoot(large.url, 'tr.case-row', 'page-overview-20k.png', true)
  await shoot(`${large.url}#/f/0/c/case-000007`, '#criteria', 'page-case-20k.png', false)
} finally {
  await browser.close()
  await server.close()
  await adjudicated.close()
  await compared.close()
  await large.close()
  await teamServer.close()
  await rm(scratch, { recursive: true, force: true })
}
console.log(
  `wrote ${only.length === 0 ? 'docs/images/page-overview.png, page-case.png, page-adjudication.png, page-reading-adjudicated.png, page-kept-form.png, page-compare.png, page-compare-offer.png, page-report-gates.png, page-overview-20k.png, page-case-20k.png and page-team.png' : only.map((name) => `docs/images/${name}`).join(', ')}`,
)
