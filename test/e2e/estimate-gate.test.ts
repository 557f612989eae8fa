import { runBuiltCli } from '../helpers/cli.js'
import { copyFile, cp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import type { FixtureEstimate } from '../../src/core/sample/fixture-estimate.js'
import type { PpiEstimate } from '../../src/core/stats/ppi.js'
import { generateFixture } from '../bench/generate.mjs'
import { main } from '../../src/cli/main.js'
import { runVitest, type VitestRun } from '../helpers/run-vitest.js'
import { removeFileScratch, scratchDir } from '../helpers/scratch.js'

afterAll(removeFileScratch)
afterEach(() => {
  vi.unstubAllEnvs()
})

/** The built command line, in a process of its own. */
const bin = runBuiltCli

/** A quarter of the cases rejected, one in twenty pending (with an uncertain review). */
const outcomeOf = (index: number) => (index % 20 === 6 ? 'pending' : index % 4 === 1 ? 'rejected' : 'accepted')
/** 200 development cases, 200 held out. */
const splitOf = (index: number) => (index < 200 ? undefined : 'held_out')

/** A judge that fails `verification` where the human rejected the case, and errs on one case in ten. */
const JUDGE = `export const description = 'index judge r1'
export default async function judge({ answer, criterion }) {
  const index = Number(/^Answer (\\d+):/.exec(answer.text)[1])
  const rejected = index % 20 !== 6 && index % 4 === 1
  const errs = index % 10 === 3
  if (criterion.id === 'verification' && rejected !== errs) return { rating: 'does_not_meet', reason: 'No health check.', span: '' }
  return { rating: 'meets', reason: 'Met.', span: 'check service health' }
}
`

let template: string

beforeAll(async () => {
  template = await scratchDir('estimate-gate-template', 'file')
  await generateFixture(join(template, 'fixtures/lab'), 400, { fingerprint, outcomeOf, splitOf })
  await writeFile(join(template, 'judge.mjs'), JUDGE)
  expect((await bin(template, 'judge', 'fixtures/lab', '--judge', 'ix', '--run', 'judge.mjs')).code).toBe(0)
}, 120_000)

/** A copy of the judged project, with a sample of `size` drawn by split. */
async function project(size: number | null): Promise<string> {
  const root = await scratchDir('estimate-gate')
  await cp(template, root, { recursive: true })
  if (size !== null) expect((await bin(root, 'sample', 'fixtures/lab', '--size', String(size), '--seed', '7', '--by', 'split')).code).toBe(0)
  return root
}

/** The held-out figures `vitest-rubric estimate` gives. */
async function heldOut(root: string): Promise<PpiEstimate> {
  const report = JSON.parse((await bin(root, 'estimate', 'fixtures/lab', '--judge', 'ix', '--json')).stdout)
  return report.splits.find((item: { split: string }) => item.split === 'held_out').result
}

// The generated fixture holds rejected cases, which fail their tests: the runs' exit codes say nothing of the gate, its test's state does.
const gateTests = (run: VitestRun) => run.tests.filter((item) => item.name.startsWith('acceptance rate on '))
const f = (value: number) => value.toFixed(3)

describe('the estimate gate', { timeout: 180_000 }, () => {
  test('passes when the lower bound clears min, and fails below it with the figures of `estimate`', async () => {
    const root = await project(160)
    const figures = await heldOut(root)
    expect(figures.status).toBe('estimate')
    expect(figures.pending / figures.sampled).toBeLessThanOrEqual(0.1)

    const passing = await runVitest({ root, plugin: { estimate: { judge: 'ix', min: 0.5 } } })
    expect(gateTests(passing).map((item) => `${item.name}: ${item.state}`)).toEqual([
      'acceptance rate on held-out cases (PPI++ with judge ix) is at least 0.5: passed',
    ])

    const failing = await runVitest({ root, plugin: { estimate: [{ judge: 'ix', min: 0.95 }] } })
    const [check] = gateTests(failing)
    expect(check!.state).toBe('failed')
    expect(check!.errors[0]).toBe(
      [
        `PPI++ ${f(figures.estimate)}, 95% interval [${f(figures.low)}, ${f(figures.high)}]: the lower bound ${f(figures.low)} is below 0.950, ` +
          `so the acceptance rate on held-out cases may be below 0.95; ${figures.sampled} of 200 cases sampled, ${figures.decided} decided, ${figures.pending} pending` +
          (figures.worstCase === null
            ? ''
            : `; worst case over the ${figures.pending} pending sampled case${figures.pending === 1 ? '' : 's'} [${f(figures.worstCase.low)}, ${f(figures.worstCase.high)}]`),
        `human-only on the same sample ${f(figures.classical.estimate)} [${f(figures.classical.low)}, ${f(figures.classical.high)}]; judge-only ${f(figures.judgeOnly.rate)} (biased by the judge's errors); effective reviews ${figures.effectiveReviews.toFixed(1)}`,
      ].join('\n'),
    )
  })

  test('is todo while too few sampled cases are reviewed; fails without a sample, saying how to draw one', async () => {
    const small = await project(20)
    const waiting = await runVitest({ root: small, plugin: { estimate: { judge: 'ix', min: 0.5 } } })
    const [todo] = gateTests(waiting)
    expect(todo!.state).toBe('todo')
    expect(todo!.name).toMatch(
      /^acceptance rate on held-out cases \(PPI\+\+ with judge ix\) is at least 0\.5 — no estimate: \d+ sampled cases are decided \(\d+ pending\); an estimate needs at least 30: review more of the sample/,
    )

    const unsampled = await project(null)
    const missing = await runVitest({ root: unsampled, plugin: { estimate: { judge: 'ix', min: 0.5 } } })
    const [failed] = gateTests(missing)
    expect(failed!.state).toBe('failed')
    expect(failed!.errors[0]).toContain('fixtures/lab/sample.json: the fixture has no sample')
    expect(failed!.errors[0]).toContain('vitest-rubric sample fixtures/lab --size <n> --seed <s>')
  })

  test('a gate on a judge no fixture has labels of fails the run at startup, naming the judge it likely meant', async () => {
    const root = await project(null)
    const run = await runVitest({ root, plugin: { estimate: { judge: 'iX', min: 0.5 } } })
    expect(gateTests(run)).toEqual([])
    expect(run.stderr).toContain('vitest-rubric: the estimate gate on judge "iX" checks nothing: no fixture under ')
    expect(run.stderr).toContain('Did you mean "ix" (fixtures/lab/judges/ix.json)?')
    expect(run.exitCode).toBe(1)
  })

  test('a fixture split into chunks is checked as a whole, where the chunks meet: a failed estimate fails the run, saying why', async () => {
    const root = await project(160)
    const figures = await heldOut(root)
    const run = await runVitest({ root, plugin: { estimate: { judge: 'ix', min: 0.95 }, chunks: { size: 150 } } })
    // No chunk module declares the check: it needs every case.
    expect(gateTests(run)).toEqual([])
    expect(run.stderr).toContain(
      ` fixtures/lab (split into 3 chunks): the check "acceptance rate on held-out cases (PPI++ with judge ix) is at least 0.95" failed:\n   PPI++ ${f(figures.estimate)}, 95% interval [${f(figures.low)}, ${f(figures.high)}]: the lower bound ${f(figures.low)} is below 0.950`,
    )
    expect(run.exitCode).toBe(1)
  })

  test('the reporter shows each split beside the human-only and judge-only figures, in the terminal, the JSON report and the job summary', async () => {
    const root = await project(160)
    const report = JSON.parse((await bin(root, 'estimate', 'fixtures/lab', '--judge', 'ix', '--json')).stdout)
    const summary = join(await scratchDir('summary'), 'summary.md')
    vi.stubEnv('GITHUB_STEP_SUMMARY', summary)
    const run = await runVitest({ root, plugin: { reporter: { outputFile: 'report.json' } }, cli: { reporters: ['default'] } })

    const json = JSON.parse(await readFile(join(root, 'report.json'), 'utf8'))
    const estimate = json.fixtures[0].estimate as FixtureEstimate
    expect(estimate.judge).toBe('ix')
    expect(estimate.judgeChosen).toBe('only')
    expect(estimate.sample).toEqual(report.sample)
    expect(estimate.splits.map((item) => item.result)).toEqual(report.splits.map((item: { result: unknown }) => item.result))
    expect(estimate.splits.map((item) => item.pending)).toEqual(report.splits.map((item: { pending: unknown[] }) => item.pending.length))

    const line = (split: string) => {
      const { result, sampled, pending } = estimate.splits.find((item) => item.split === split)!
      if (result.status !== 'estimate') throw new Error(`no estimate for ${split}`)
      const worst = result.worstCase === null ? '' : ` (worst case over them [${f(result.worstCase.low)}, ${f(result.worstCase.high)}])`
      return (
        `      ${split.padEnd(18)}PPI++ ${f(result.estimate)} [${f(result.low)}, ${f(result.high)}] · human-only ${f(result.classical.estimate)} [${f(result.classical.low)}, ${f(result.classical.high)}] · ` +
        `judge-only ${f(result.judgeOnly.rate)} (biased) · ${result.decided} of ${sampled} sampled decided, ${pending} pending${worst} · effective reviews ${result.effectiveReviews.toFixed(1)}`
      )
    }
    const block = run.stdout.slice(run.stdout.indexOf('    estimate '))
    expect(block.split('\n').slice(0, 3)).toEqual([
      '    estimate            judge ix · fixtures/lab/sample.json: 160 cases, stratified · acceptance rate over every case, 95% intervals',
      line('development'),
      line('held_out'),
    ])

    const markdown = await readFile(summary, 'utf8')
    const held = estimate.splits.find((item) => item.split === 'held_out')!
    const result = held.result as PpiEstimate
    expect(markdown).toContain(
      '**Estimate** of `fixtures/lab`: the acceptance rate over every case, judge-assisted (PPI++), judge ix · fixtures/lab/sample.json: 160 cases, stratified; 95% intervals.',
    )
    expect(markdown).toContain(
      `| held_out | 200 | ${held.sampled} | ${result.decided} | ${held.pending} | ${f(result.estimate)} | [${f(result.low)}, ${f(result.high)}]` +
        `${result.worstCase === null ? '' : `, worst case [${f(result.worstCase.low)}, ${f(result.worstCase.high)}]`} | ` +
        `${f(result.classical.estimate)} [${f(result.classical.low)}, ${f(result.classical.high)}] | ${f(result.judgeOnly.rate)} | ${result.effectiveReviews.toFixed(1)} |`,
    )
  })

  test('a fixture without a sample has no estimate in the report', async () => {
    const root = await project(null)
    await rm(join(root, 'judge.mjs'))
    const run = await runVitest({ root, plugin: { reporter: { outputFile: 'report.json' } }, cli: { reporters: ['default'] } })
    expect(JSON.parse(await readFile(join(root, 'report.json'), 'utf8')).fixtures[0].estimate).toBeNull()
    expect(run.stdout).not.toContain('    estimate ')
  })
})

async function evaluate(cwd: string, ...argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await main(['evaluate', 'fixtures/lab', ...argv], { stdout: (text) => (stdout += `${text}\n`), stderr: (text) => (stderr += `${text}\n`), cwd })
  return { code, stdout, stderr }
}

describe('evaluate shows the estimate', { timeout: 180_000 }, () => {
  test('--json gains an estimate per split with the judge named, else the first by name; the text a line per split', async () => {
    const root = await project(160)
    const report = JSON.parse((await bin(root, 'estimate', 'fixtures/lab', '--judge', 'ix', '--json')).stdout)
    // A second judge with the same labels: the choice, not the figures, differs.
    await copyFile(join(root, 'fixtures/lab/judges/ix.json'), join(root, 'fixtures/lab/judges/kw.json'))

    const first = JSON.parse((await evaluate(root, '--json')).stdout)
    expect(first.estimate).toMatchObject({ judge: 'ix', judgeChosen: 'first', judges: ['ix', 'kw'], sample: report.sample })
    expect(first.estimate.splits.map((item: { result: unknown }) => item.result)).toEqual(report.splits.map((item: { result: unknown }) => item.result))
    const named = JSON.parse((await evaluate(root, '--json', '--judge', 'kw')).stdout)
    expect(named.estimate).toMatchObject({ judge: 'kw', judgeChosen: 'named' })

    const text = await evaluate(root)
    expect(text.code).toBe(0)
    const held = first.estimate.splits[1]
    const r = held.result as PpiEstimate
    expect(text.stdout).toContain(
      '  estimate (acceptance rate over every case, 95% intervals): judge ix (the first by name of ix, kw) · fixtures/lab/sample.json: 160 cases, stratified\n',
    )
    expect(text.stdout).toContain(
      `    held_out: PPI++ ${f(r.estimate)} [${f(r.low)}, ${f(r.high)}] · human-only ${f(r.classical.estimate)} [${f(r.classical.low)}, ${f(r.classical.high)}] · ` +
        `judge-only ${f(r.judgeOnly.rate)} (biased) · ${r.decided} of ${held.sampled} sampled decided, ${held.pending} pending`,
    )

    const unknown = await evaluate(root, '--judge', 'zz')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('there are no labels by the judge "zz"')
  })

  test('a fixture without a sample has no estimate key', async () => {
    const root = await project(null)
    expect(Object.keys(JSON.parse((await evaluate(root, '--json')).stdout))).not.toContain('estimate')
  })
})
