import { runBuiltCli } from '../helpers/cli.js'
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fingerprint } from '../../src/core/json/canonical-json.js'
import type { SampleFile } from '../../src/core/sample/sample-file.js'
import { ppiMean } from '../../src/core/stats/ppi.js'
import { generateFixture } from '../bench/generate.mjs'
import { ROOT } from '../helpers/fixture-copy.js'
import { removeFileScratch, scratchDir } from '../helpers/scratch.js'

afterAll(removeFileScratch)

/** The built command line, in a process of its own. */
const bin = runBuiltCli

const N = 400
const DEVELOPMENT = 360
/** A quarter rejected (verification fails), one in twenty pending: its review rates `support` uncertain. */
const outcomeOf = (index: number) => (index % 20 === 6 ? 'pending' : index % 4 === 1 ? 'rejected' : 'accepted')
const splitOf = (index: number) => (index < DEVELOPMENT ? undefined : 'held_out')
/** The reviews also fail `command` on one case in seven. */
const failsOf = (index: number, criterion: string) => criterion === 'command' && index % 7 === 2

/**
 * The judge: it fails `verification` where the review does, except on one case in ten; fails
 * `command` where the review does, except on one case in eleven; is uncertain of `preconditions`
 * on one case in fifty; and rates every other criterion `meets`.
 */
const JUDGE = `export const description = 'criterion judge r1'
export default async function judge({ answer, criterion }) {
  const index = Number(/^Answer (\\d+):/.exec(answer.text)[1])
  const rejected = index % 20 !== 6 && index % 4 === 1
  if (criterion.id === 'verification' && rejected !== (index % 10 === 3)) return { rating: 'does_not_meet', reason: 'No health check.', span: '' }
  if (criterion.id === 'command' && (index % 7 === 2) !== (index % 11 === 5)) return { rating: 'does_not_meet', reason: 'Wrong command.', span: '' }
  if (criterion.id === 'preconditions' && index % 50 === 0) return { rating: 'uncertain', reason: 'Unclear.', span: '' }
  return { rating: 'meets', reason: 'Met.', span: 'check service health' }
}
`

/** Each criterion's labels, worked out from the generator's and the judge's rules rather than read back. */
const humanLabel: Record<string, (index: number) => 0 | 1 | null> = {
  verification: (index) => (outcomeOf(index) === 'rejected' ? 0 : 1),
  command: (index) => (index % 7 === 2 ? 0 : 1),
  support: (index) => (outcomeOf(index) === 'pending' ? null : 1),
}
const judgeLabel: Record<string, (index: number) => 0 | 1 | null> = {
  verification: (index) => ((outcomeOf(index) === 'rejected') !== (index % 10 === 3) ? 0 : 1),
  command: (index) => ((index % 7 === 2) !== (index % 11 === 5) ? 0 : 1),
  support: () => 1,
}

const indexOf = (id: string) => Number(id.slice('case-'.length))

let root: string

beforeAll(async () => {
  root = await scratchDir('criterion-estimate', 'file')
  await generateFixture(join(root, 'lab'), N, { fingerprint, outcomeOf, splitOf, failsOf })
  await writeFile(join(root, 'judge.mjs'), JUDGE)
  expect((await bin(root, 'judge', 'lab', '--judge', 'cj', '--run', 'judge.mjs')).code).toBe(0)
  expect((await bin(root, 'sample', 'lab', '--size', '120', '--seed', '7')).code).toBe(0)
}, 120_000)

describe('vitest-rubric estimate: each criterion’s meets rate', { timeout: 120_000 }, () => {
  test("gives each criterion ppiMean's estimate on its own labels, with an interval holding the split's true meets rate", async () => {
    const sample = JSON.parse(await readFile(join(root, 'lab/sample.json'), 'utf8')) as SampleFile
    const json = await bin(root, 'estimate', 'lab', '--judge', 'cj', '--json')
    expect(json.code).toBe(0)
    const development = JSON.parse(json.stdout).splits[0]
    expect(development.split).toBe('development')
    expect(Object.keys(development.criteria)).toEqual(['command', 'preconditions', 'database_scope', 'verification', 'support'])

    const devIndices = Array.from({ length: DEVELOPMENT }, (_, index) => index)
    const sampled = sample.cases.filter((entry) => entry.split === 'development').sort((a, b) => indexOf(a.id) - indexOf(b.id))
    for (const criterion of ['verification', 'command']) {
      // A uniform draw, conditional on how many fell in the split: each weighed by n_h/N_h.
      const direct = ppiMean({
        judge: devIndices.map(judgeLabel[criterion]!),
        sample: sampled.map((entry) => ({
          index: indexOf(entry.id),
          probability: sampled.length / DEVELOPMENT,
          human: humanLabel[criterion]!(indexOf(entry.id)),
        })),
      })
      expect(direct.status).toBe('estimate')
      expect(development.criteria[criterion]).toEqual({ ...direct, judgeUncertain: 0, judgeMissing: 0, judgeStale: 0 })
      const truth = devIndices.filter((index) => humanLabel[criterion]!(index) === 1).length / DEVELOPMENT
      expect(development.criteria[criterion].low).toBeLessThanOrEqual(truth)
      expect(development.criteria[criterion].high).toBeGreaterThanOrEqual(truth)
    }
    // The two criteria have rates of their own, not the acceptance rate's.
    expect(development.criteria.command.estimate).not.toBe(development.criteria.verification.estimate)
  })

  test('an uncertain human judgement makes the sampled case pending for that criterion only', async () => {
    const sample = JSON.parse(await readFile(join(root, 'lab/sample.json'), 'utf8')) as SampleFile
    const development = JSON.parse((await bin(root, 'estimate', 'lab', '--judge', 'cj', '--json')).stdout).splits[0]
    const sampled = sample.cases.filter((entry) => entry.split === 'development')
    const uncertain = sampled.filter((entry) => outcomeOf(indexOf(entry.id)) === 'pending').length
    expect(uncertain).toBeGreaterThan(0)
    expect(development.criteria.support).toMatchObject({ sampled: sampled.length, pending: uncertain, decided: sampled.length - uncertain })
    for (const criterion of ['command', 'verification', 'database_scope']) {
      expect(development.criteria[criterion]).toMatchObject({ pending: 0, decided: sampled.length })
    }
    // Every decided review rates `support` meets: refused, with ppiMean's reason, not a number.
    expect(development.criteria.support).toMatchObject({ status: 'unsupported', reason: 'too-few-per-label' })
  })

  test("counts the judge's uncertain ratings of a criterion and refuses its estimate, and prints the table", async () => {
    const development = JSON.parse((await bin(root, 'estimate', 'lab', '--judge', 'cj', '--json')).stdout).splits[0]
    const uncertain = Array.from({ length: DEVELOPMENT }, (_, index) => index).filter((index) => index % 50 === 0).length
    expect(development.criteria.preconditions).toMatchObject({ status: 'unsupported', reason: 'judge-missing', judgeUncertain: uncertain, judgeMissing: 0 })

    const text = await bin(root, 'estimate', 'lab', '--judge', 'cj', '--split', 'development')
    expect(text.code).toBe(0)
    const f = (value: number) => value.toFixed(3)
    const command = development.criteria.command
    expect(text.stdout).toContain('meets rate by criterion (each its own 95% interval, no multiplicity correction):')
    expect(text.stdout).toMatch(
      new RegExp(
        `\\n {6}command +${f(command.estimate)} \\[${f(command.low)}, ${f(command.high)}\\] +${f(command.classical.estimate)} \\[${f(command.classical.low)}, ${f(command.classical.high)}\\] +${f(command.judgeOnly.rate)} +${command.effectiveReviews.toFixed(1)} +0\\n`,
      ),
    )
    expect(text.stdout).toContain(`no estimate: ${development.criteria.preconditions.message}  (judge labels: ${uncertain} uncertain)`)
    // The table follows the acceptance rate's block.
    expect(text.stdout.indexOf('judge-assisted (PPI++)')).toBeLessThan(text.stdout.indexOf('meets rate by criterion'))
  })

  test("a scored fixture keeps its acceptance-rate estimate and has no criterion's meets rate", async () => {
    const scored = await scratchDir('criterion-estimate-scored')
    await cp(join(ROOT, 'fixtures/debate-benchmark'), join(scored, 'db'), { recursive: true })
    // The reviews themselves as a judge's labels: a scored judge's file has their format.
    await mkdir(join(scored, 'db/judges'))
    await cp(join(scored, 'db/annotations.json'), join(scored, 'db/judges/x.json'))
    expect((await bin(scored, 'sample', 'db', '--size', '3', '--seed', '1')).code).toBe(0)
    const json = await bin(scored, 'estimate', 'db', '--judge', 'x', '--json')
    expect(json.code).toBe(0)
    const splits = JSON.parse(json.stdout).splits
    expect(splits.length).toBeGreaterThan(0)
    for (const item of splits) {
      expect(item.criteria).toBeNull()
      expect(item.result.status).toMatch(/^(estimate|unsupported)$/)
    }
    const text = await bin(scored, 'estimate', 'db', '--judge', 'x')
    expect(text.code).toBe(0)
    expect(text.stdout).not.toContain('meets rate by criterion')
  })
})
