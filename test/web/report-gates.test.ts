import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, test } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { DOCUCTL, ROOT } from '../helpers/fixture-copy.js'
import { fixtureRoot, pageBrowser } from '../helpers/page-browser.js'
import { runVitest } from '../helpers/run-vitest.js'

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']

const chromium = pageBrowser()

/** A project of two copies of the bundled fixture: in `lab`, alice and bob reviewed two cases and judge j labelled two; `base` is left as it is. */
async function project(): Promise<string> {
  const root = await fixtureRoot('report-gates', { 'fixtures/lab': DOCUCTL, 'fixtures/base': DOCUCTL })
  const judged = (author: string, support: string) =>
    CRITERIA.flatMap((criterion) => ['--rating', `${criterion}=${criterion === 'support' ? support : 'meets'}`, '--reason', `${criterion}=${author}'s reason.`])
  for (const id of ['complete', 'wrong-command']) {
    for (const [who, support] of [
      [['--reviewer', 'alice'], 'meets'],
      [['--reviewer', 'bob'], id === 'complete' ? 'meets' : 'does_not_meet'],
      [['--judge', 'j', '--origin', 'model-x'], 'meets'],
    ] as const)
      expect((await runCli(['review', 'fixtures/lab', '--case', id, ...who, ...judged(who[1], support)], root)).code).toBe(0)
  }
  return root
}

/** The report's overview, as a reader sees its gates. */
async function gatesShown(file: string): Promise<{ set: string[]; tables: string[][][] }> {
  const { page, errors } = await chromium.newPage()
  await page.goto(`${pathToFileURL(file).href}#/`)
  await page.waitForSelector('table.cases')
  expect(errors).toEqual([])
  const set = await page.locator('#gates-set p, #gates-set li').allTextContents()
  const tables = await page
    .locator('section.fixture')
    .evaluateAll((sections) =>
      sections.map((section) =>
        [...section.querySelectorAll('table.gates tr.gate, p.gates')].map((row) =>
          row.tagName === 'P' ? [row.textContent ?? ''] : [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? ''),
        ),
      ),
    )
  return { set, tables }
}

describe('the gates in the static report', () => {
  test('report --html shows each gate the Vitest config sets: what it requires, its figure, and passed, failed or todo', { timeout: 120_000 }, async () => {
    const root = await project()
    const plugin = pathToFileURL(join(ROOT, 'dist/plugin.js')).href
    await writeFile(
      join(root, 'vitest.config.mjs'),
      `import { rubric } from ${JSON.stringify(plugin)}\nexport default { plugins: [rubric({ agreement: { min: 0.5 }, judges: { j: { minKappa: -1, minCases: 10 } }, compare: { against: 'fixtures/base', margin: 0.05 }, reporter: { outputFile: false } })] }\n`,
    )
    const written = await runCli(['report', '--html', 'fixtures/lab', 'fixtures/base', '--out', 'out/report.html'], root)
    expect(written.stderr).toBe('')
    const { set, tables } = await gatesShown(join(root, 'out/report.html'))
    expect(set).toMatchInlineSnapshot(`
      [
        "Gates set in vitest.config.mjs, as the run checks them:",
        "agreement: on every criterion, the reviewers' Krippendorff's α is at least 0.5; todo while there is no figure",
        "judge j: on every criterion, over at least 10 cases that both judged, the lower bound of κ's 95% interval is at least -1 (in the fixtures holding its labels)",
        "compare: each fixture (B) is not worse than fixtures/base (A) on held-out cases: the lower bound of the 95% interval of B − A (acceptance, paired) is at least −5 points",
      ]
    `)
    expect(tables).toMatchInlineSnapshot(`
      [
        [
          [
            "reviewers agree on command (α ≥ 0.5)",
            "todo",
            "no figure: no variation: every pairable value is "meets"",
          ],
          [
            "reviewers agree on preconditions (α ≥ 0.5)",
            "todo",
            "no figure: no variation: every pairable value is "meets"",
          ],
          [
            "reviewers agree on database_scope (α ≥ 0.5)",
            "todo",
            "no figure: no variation: every pairable value is "meets"",
          ],
          [
            "reviewers agree on verification (α ≥ 0.5)",
            "todo",
            "no figure: no variation: every pairable value is "meets"",
          ],
          [
            "reviewers agree on support (α ≥ 0.5)",
            "failed",
            "alpha 0.000 (no interval: cases to resample: 2, fewer than the 10 a bootstrap interval needs) < 0.5 over 2 cases; disagreements: wrong-command",
          ],
          [
            "judge j agrees with reviewers on command",
            "failed",
            "2 of 10 required cases; kappa 0.000, no interval (cases to resample: 2, fewer than the 10 a bootstrap interval needs), so no lower bound to compare with -1
      reviewers \\ judge            meets  does_not_meet      uncertain
      meets                            1              0              0
      does_not_meet                    1              0              0
      false accepts: wrong-command",
          ],
          [
            "judge j agrees with reviewers on preconditions",
            "failed",
            "2 of 10 required cases; no kappa: no variation: the reviewers and the judge rated every case "meets"
      reviewers \\ judge            meets  does_not_meet      uncertain
      meets                            2              0              0
      does_not_meet                    0              0              0
      false accepts: none",
          ],
          [
            "judge j agrees with reviewers on database_scope",
            "failed",
            "2 of 10 required cases; no kappa: no variation: the reviewers and the judge rated every case "meets"
      reviewers \\ judge            meets  does_not_meet      uncertain
      meets                            2              0              0
      does_not_meet                    0              0              0
      false accepts: none",
          ],
          [
            "judge j agrees with reviewers on verification",
            "failed",
            "2 of 10 required cases; no kappa: no variation: the reviewers and the judge rated every case "meets"
      reviewers \\ judge            meets  does_not_meet      uncertain
      meets                            2              0              0
      does_not_meet                    0              0              0
      false accepts: none",
          ],
          [
            "judge j agrees with reviewers on support",
            "failed",
            "2 of 10 required cases; kappa 0.000, no interval (cases to resample: 2, fewer than the 10 a bootstrap interval needs), so no lower bound to compare with -1
      reviewers \\ judge            meets  does_not_meet      uncertain
      meets                            1              0              0
      does_not_meet                    1              0              0
      false accepts: wrong-command",
          ],
          [
            "lab is not worse than base by more than 5 points on held-out cases",
            "todo",
            "no held-out pair is decided for both systems yet: 0 of 0 tasks decided in both",
          ],
        ],
        [
          [
            "reviewers agree (α ≥ 0.5)",
            "todo",
            "no independent reviews yet: there is no figure to check",
          ],
        ],
      ]
    `)
  })

  test('without a Vitest config, the report says that no gate is set and shows none', { timeout: 60_000 }, async () => {
    const root = await project()
    expect((await runCli(['report', '--html', 'fixtures/lab', '--out', 'out/report.html'], root)).code).toBe(0)
    const { set, tables } = await gatesShown(join(root, 'out/report.html'))
    expect(set).toEqual([
      'Gates: no Vitest config with rubric() was found where this report was written, so no agreement, judge or compare gate is set and none is shown.',
    ])
    expect(tables).toEqual([[]])
    // Who made the judgements, as the fixture says: a report tells a study from an authored example.
    const { page } = await chromium.newPage()
    await page.goto(`${pathToFileURL(join(root, 'out/report.html')).href}#/`)
    await page.waitForSelector('table.cases')
    const annotations = JSON.parse(await readFile(join(root, 'fixtures/lab/annotations.json'), 'utf8'))
    expect(await page.textContent('section.fixture p.origin')).toBe(`Judgements by: ${annotations.origin}`)
  })

  test("the reporter's htmlReport shows the run's own gate checks", { timeout: 120_000 }, async () => {
    const root = await project()
    await runVitest({ root, plugin: { agreement: { min: 0.5 }, reporter: { outputFile: false, htmlReport: 'out/rubric.html' } } })
    const { set, tables } = await gatesShown(join(root, 'out/rubric.html'))
    expect(set).toMatchInlineSnapshot(`
      [
        "Gates set in the Vitest config, as the run checks them:",
        "agreement: on every criterion, the reviewers' Krippendorff's α is at least 0.5; todo while there is no figure",
      ]
    `)
    expect(tables).toMatchInlineSnapshot(`
      [
        [
          [
            "reviewers agree (α ≥ 0.5)",
            "todo",
            "no independent reviews yet: there is no figure to check",
          ],
        ],
        [
          [
            "reviewers agree on command (α ≥ 0.5)",
            "todo",
            "no figure: no variation: every pairable value is "meets"",
          ],
          [
            "reviewers agree on preconditions (α ≥ 0.5)",
            "todo",
            "no figure: no variation: every pairable value is "meets"",
          ],
          [
            "reviewers agree on database_scope (α ≥ 0.5)",
            "todo",
            "no figure: no variation: every pairable value is "meets"",
          ],
          [
            "reviewers agree on verification (α ≥ 0.5)",
            "todo",
            "no figure: no variation: every pairable value is "meets"",
          ],
          [
            "reviewers agree on support (α ≥ 0.5)",
            "failed",
            "alpha 0.000 (no interval: cases to resample: 2, fewer than the 10 a bootstrap interval needs) < 0.5 over 2 cases; disagreements: wrong-command",
          ],
        ],
      ]
    `)
  })
})
