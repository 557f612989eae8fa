import { copyFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, test } from 'vitest'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import type { FixtureEstimate } from '../../src/core/sample/fixture-estimate.js'
import { generateFixture } from '../bench/generate.mjs'
import { runCli } from '../helpers/cli.js'
import { ROOT } from '../helpers/fixture-copy.js'
import { pageBrowser, serve } from '../helpers/page-browser.js'
import { scratchDir } from '../helpers/scratch.js'

const chromium = pageBrowser()

/** A quarter of the cases rejected, one in twenty pending; 200 development cases and 200 held out. */
const outcomeOf = (index: number) => (index % 20 === 6 ? 'pending' : index % 4 === 1 ? 'rejected' : 'accepted')
const splitOf = (index: number) => (index < 200 ? undefined : 'held_out')
/** A judge that fails `verification` where the human rejected the case, and errs on one case in ten. */
const JUDGE = `export const description = 'index judge r1'
export default async function judge({ answer, criterion }) {
  const index = Number(/^Answer (\\d+):/.exec(answer.text)[1])
  const rejected = index % 20 !== 6 && index % 4 === 1
  if (criterion.id === 'verification' && rejected !== (index % 10 === 3)) return { rating: 'does_not_meet', reason: 'No health check.', span: '' }
  return { rating: 'meets', reason: 'Met.', span: 'check service health' }
}
`

/** A judged fixture with a sample of 160 drawn by split, and the estimate `evaluate --json` gives of it. */
async function sampledProject(): Promise<{ root: string; estimate: FixtureEstimate }> {
  const root = await scratchDir('estimate-page')
  await generateFixture(join(root, 'fixtures/lab'), 400, { fingerprint, outcomeOf, splitOf })
  await writeFile(join(root, 'judge.mjs'), JUDGE)
  expect((await runCli(['judge', 'fixtures/lab', '--judge', 'ix', '--run', 'judge.mjs'], root)).code).toBe(0)
  expect((await runCli(['sample', 'fixtures/lab', '--size', '160', '--seed', '7', '--by', 'split'], root)).code).toBe(0)
  const evaluated = await runCli(['evaluate', 'fixtures/lab', '--json'], root)
  return { root, estimate: JSON.parse(evaluated.stdout).estimate }
}

const percent = (value: number) => `${(100 * value).toFixed(1)}%`

/** The estimate table's caption and rows, as a reader sees them, and where each plot draws its PPI++ interval and the judge-only rate. */
async function shown(page: import('playwright-core').Page) {
  return {
    caption: await page.textContent('.estimate-table caption'),
    rows: await page
      .locator('tr.estimate-row')
      .evaluateAll((rows) =>
        rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.querySelector('svg')?.getAttribute('aria-label') ?? cell.textContent)),
      ),
    // Each plot's PPI++ interval and judge-only rate, read back as rates through its axis's labelled ticks.
    plots: await page.locator('svg.estimate-plot').evaluateAll((plots) =>
      plots.map((plot) => {
        const ticks = [...plot.querySelectorAll('text.axis-label')].map(
          (tick) => [Number(tick.getAttribute('data-rate')), Number(tick.getAttribute('x'))] as const,
        )
        const [first, last] = [ticks[0]!, ticks[ticks.length - 1]!]
        const rateAt = (x: string | null | undefined) => first[0] + ((Number(x) - first[1]) / (last[1] - first[1])) * (last[0] - first[0])
        return [
          rateAt(plot.querySelector('.ppi.span')?.getAttribute('x1')),
          rateAt(plot.querySelector('.ppi.span')?.getAttribute('x2')),
          rateAt(plot.querySelector('.judge')?.getAttribute('x1')),
        ]
      }),
    ),
  }
}

describe('the overview’s estimate', { timeout: 180_000 }, () => {
  test('shows each split’s PPI++ estimate beside the human-only and judge-only figures, and plots them on one axis; a blind reviewer sees none', async () => {
    const { root, estimate } = await sampledProject()
    const server = await serve(root, ['fixtures/lab'])
    const { page } = await chromium.open(server, '', { waitFor: 'tr.estimate-row' })
    const expected = estimate.splits.map((split) => {
      const r = split.result
      if (r.status !== 'estimate') throw new Error(`no estimate for ${split.split}`)
      return {
        row: [
          split.split,
          `${percent(r.estimate)} (${percent(r.low)}–${percent(r.high)})${r.worstCase === null ? '' : `; worst case over the pending: ${percent(r.worstCase.low)}–${percent(r.worstCase.high)}`}`,
          `${percent(r.classical.estimate)} (${percent(r.classical.low)}–${percent(r.classical.high)})`,
          percent(r.judgeOnly.rate),
          // The plot, by what it says to a screen reader.
          `${split.split}: PPI++ ${percent(r.estimate)} (${percent(r.low)}–${percent(r.high)}); human-only ${percent(r.classical.estimate)} (${percent(r.classical.low)}–${percent(r.classical.high)}); judge-only ${percent(r.judgeOnly.rate)}`,
          `${r.decided} of ${split.sampled} decided${split.pending > 0 ? `, ${split.pending} pending` : ''} (of 200 cases)`,
        ],
        plot: [r.low, r.high, r.judgeOnly.rate],
      }
    })
    const figures = await shown(page)
    expect(figures.caption).toBe(
      'acceptance rate over every case, judge-assisted (PPI++, 95% intervals): judge ix · fixtures/lab/sample.json: 160 cases, stratified',
    )
    expect(figures.rows).toEqual(expected.map((item) => item.row))
    // Drawn to a tenth of a pixel: a rate is read back within 0.001.
    for (const [index, plot] of figures.plots.entries()) for (const [j, rate] of plot.entries()) expect(rate).toBeCloseTo(expected[index]!.plot[j]!, 3)

    const blind = await chromium.open(server, '', { viewer: { role: 'reviewer', name: 'alice' }, waitFor: 'tr.case-row' })
    expect(await blind.page.locator('.estimate').count()).toBe(0)
  })

  test('the static report shows the same figures, read from the file', async () => {
    const { root, estimate } = await sampledProject()
    expect((await runCli(['report', '--html', 'fixtures/lab', '--out', 'report.html'], root)).code).toBe(0)
    const { page } = await chromium.newPage()
    await page.goto(`${pathToFileURL(join(root, 'report.html')).href}#/`)
    await page.waitForSelector('tr.estimate-row')
    const figures = await shown(page)
    expect(figures.rows.map((row) => row[0])).toEqual(estimate.splits.map((split) => split.split))
    const held = estimate.splits[1]!.result
    if (held.status !== 'estimate') throw new Error('no held-out estimate')
    expect(figures.rows[1]![3]).toBe(percent(held.judgeOnly.rate))
    for (const [j, rate] of [held.low, held.high, held.judgeOnly.rate].entries()) expect(figures.plots[1]![j]).toBeCloseTo(rate, 3)
  })

  test('report --html with an estimate gate in the Vitest config: its requirement, its check, and the estimate with the gate’s judge', async () => {
    const { root } = await sampledProject()
    // A second judge with the same labels, first by name: the gate's judge is shown all the same.
    await copyFile(join(root, 'fixtures/lab/judges/ix.json'), join(root, 'fixtures/lab/judges/aa.json'))
    const plugin = pathToFileURL(join(ROOT, 'dist/plugin.js')).href
    await writeFile(
      join(root, 'vitest.config.mjs'),
      `import { rubric } from ${JSON.stringify(plugin)}\nexport default { plugins: [rubric({ estimate: { judge: 'ix', min: 0.6 }, reporter: { outputFile: false } })] }\n`,
    )
    const written = await runCli(['report', '--html', 'fixtures/lab', '--out', 'report.html'], root)
    expect(written.stderr).toBe('')
    const { page } = await chromium.newPage()
    await page.goto(`${pathToFileURL(join(root, 'report.html')).href}#/`)
    await page.waitForSelector('tr.estimate-row')
    expect(await page.locator('#gates-set li').allTextContents()).toEqual([
      "estimate: in the fixtures holding judge ix's labels, the lower bound of the 95% interval of the judge-assisted (PPI++, judge ix) acceptance rate on held-out cases is at least 0.6; todo while more than 10% of the sampled cases are pending or too few are reviewed",
    ])
    const gate = await page
      .locator('table.gates tr.gate')
      .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)))
    expect(gate.map((row) => row.slice(0, 2))).toEqual([['acceptance rate on held-out cases (PPI++ with judge ix) is at least 0.6', 'passed']])
    expect(await page.textContent('.estimate-table caption')).toBe(
      'acceptance rate over every case, judge-assisted (PPI++, 95% intervals): judge ix · fixtures/lab/sample.json: 160 cases, stratified',
    )
  })
})
