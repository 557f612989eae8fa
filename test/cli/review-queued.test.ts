import { expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture } from '../helpers/fixture-copy.js'
import { copyDebate, withdrawReview, type AnnotationsJson } from '../helpers/scored-copy.js'
import { KEY, scriptedTerminal } from '../helpers/terminal.js'

const CRITERIA = ['command', 'preconditions', 'database_scope', 'verification', 'support']
/** Every criterion meets, with a reason and no span. */
const meetsAll = CRITERIA.flatMap((criterion) => [
  { expect: `Rating of ${criterion}`, keys: KEY.enter },
  { expect: `${criterion}?`, keys: `Met.${KEY.enter}` },
  { expect: 'The span of the answer', keys: KEY.enter },
])

/** `vitest-rubric <args>` in `cwd` on the scripted terminal, to its end: the exit code and what it printed. */
async function onTerminal(args: readonly string[], cwd: string, script: ReturnType<typeof scriptedTerminal>): Promise<{ code: number; stdout: string }> {
  let stdout = ''
  const code = await main([...args], { stdout: (text) => (stdout += `${text}\n`), stderr: () => {}, cwd, terminal: script.terminal })
  script.finished()
  return { code, stdout }
}

test('review on a terminal without --case: the queue’s cases in turn, each said with why, the next offered after each review', async () => {
  const fixture = await copyFixture()
  expect((await runCli(['sample', '.', '--size', '8', '--seed', 'all'], fixture.dir)).code).toBe(0)
  const queue = JSON.parse((await runCli(['next', '.', '--reviewer', 'alice', '--json'], fixture.dir)).stdout)
  const [first, second] = queue.entries.map((entry: { caseId: string }) => entry.caseId) as string[]
  expect(queue.entries.map((entry: { reason: string }) => entry.reason)).toEqual(['sampled', 'sampled'])
  const script = scriptedTerminal([
    ...meetsAll,
    { expect: 'Write the review', keys: KEY.enter },
    { expect: 'Review the next case in the queue', keys: KEY.enter },
    ...meetsAll,
    { expect: 'Write the review', keys: KEY.enter },
  ])
  const { code, stdout } = await onTerminal(['review', '.', '--reviewer', 'alice'], fixture.dir, script)
  expect(code).toBe(0)
  // The offer says which case and why, as drawn on a terminal of 80 columns.
  expect(script.screen().replace(/[\s│◆◇●○]+/g, ' ')).toContain(
    `Review the next case in the queue, ${second} (sampled, not reviewed: drawn in draw 1; not reviewed by alice)?`,
  )
  const lines = stdout.split('\n')
  expect(lines).toContain(`next in the queue for alice (1 of 2): ${first}, sampled, not reviewed: drawn in draw 1; not reviewed by alice`)
  expect(lines).toContain(`next in the queue for alice (the last): ${second}, sampled, not reviewed: drawn in draw 1; not reviewed by alice`)
  expect(lines.filter((line) => line.includes('recorded'))).toHaveLength(2)
  expect(lines).toContain(`docuctl-rollback-contrasts (.): nothing left to review in the queue for alice (--replace takes stale and unsettled reviews too)`)
  // Both reviews are alice's, and her queue is empty.
  expect(JSON.parse((await runCli(['next', '.', '--reviewer', 'alice', '--json'], fixture.dir)).stdout).total).toBe(0)
})

test('declining the next case stops there, with what was reviewed written', async () => {
  const fixture = await copyFixture()
  const script = scriptedTerminal([
    ...meetsAll,
    { expect: 'Write the review', keys: KEY.enter },
    { expect: 'Review the next case in the queue', keys: `n${KEY.enter}` },
  ])
  const { code, stdout } = await onTerminal(['review', '.', '--reviewer', 'alice'], fixture.dir, script)
  expect(code).toBe(0)
  expect(stdout).toMatch(/^next in the queue for alice \(1 of 2\): \S+, not reviewed: not reviewed by alice\n/)
  expect(JSON.parse((await runCli(['next', '.', '--reviewer', 'alice', '--json'], fixture.dir)).stdout).total).toBe(1)
})

/** A scored case's debate review and then its baseline review: no claim, the first resolution offered, no empirical test, the verdict given. */
const scoredReviews = (verdicts: { debate: string; baseline: string }) => [
  { expect: 'Does the critique make a claim?', keys: 'n' },
  { expect: "The resolution type of the critique's final explicit statement", keys: KEY.enter },
  { expect: "The resolution type of the defense's final explicit statement", keys: KEY.enter },
  { expect: 'Did the debate take more rounds than necessary?', keys: 'n' },
  { expect: 'Why is the resolution so?', keys: `Read in full.${KEY.enter}` },
  { expect: 'Does the debate close on an empirical test?', keys: 'n' },
  { expect: 'The final verdict, an exact excerpt of the turns of the last round', keys: `${verdicts.debate}${KEY.enter}` },
  { expect: 'Write the review to reviews/alice.json?', keys: 'y' },
  { expect: 'Does the self-critique make a claim?', keys: 'n' },
  { expect: 'The resolution type the self-critique reaches', keys: KEY.enter },
  { expect: 'Why is the resolution so?', keys: `Read in full.${KEY.enter}` },
  { expect: 'Does the self-critique propose an empirical test?', keys: 'n' },
  { expect: 'The final verdict, an exact excerpt of the answer', keys: `${verdicts.baseline}${KEY.enter}` },
  { expect: 'Write the review to reviews/alice.json?', keys: 'y' },
]

test('review on a terminal without --case, on a scored fixture: the queue’s cases in turn, each with its debate and baseline reviews, the next offered after each case', async () => {
  const copy = await copyDebate()
  // Two cases pending: one a person decides (too few dimensions apply), one whose adopted reviews are withdrawn.
  const adopted = (await copy.readJson<AnnotationsJson>('annotations.json')).reviews
  const verdictsOf = (caseId: string) => ({
    debate: adopted.find((review) => review.case_id === caseId && review.system === 'debate')!.final_verdict as string,
    baseline: adopted.find((review) => review.case_id === caseId && review.system === 'baseline')!.final_verdict as string,
  })
  for (const system of ['debate', 'baseline'] as const) await withdrawReview(copy, 'zero-planted-issues', system, true)
  expect((await runCli(['sample', '.', '--size', '10', '--seed', 'all'], copy.dir)).code).toBe(0)
  const queue = JSON.parse((await runCli(['next', '.', '--reviewer', 'alice', '--json'], copy.dir)).stdout)
  const [first, second] = queue.entries.map((entry: { caseId: string }) => entry.caseId) as string[]
  expect(new Set([first, second])).toEqual(new Set(['zero-planted-issues', 'unscoreable-silent-critique']))
  expect(queue.entries.map((entry: { reason: string }) => entry.reason)).toEqual(['sampled', 'sampled'])
  const script = scriptedTerminal([
    ...scoredReviews(verdictsOf(first!)),
    { expect: 'Review the next case in the queue', keys: KEY.enter },
    ...scoredReviews(verdictsOf(second!)),
  ])
  const { code, stdout } = await onTerminal(['review', '.', '--reviewer', 'alice'], copy.dir, script)
  expect(code).toBe(0)
  expect(script.screen().replace(/[\s│◆◇●○]+/g, ' ')).toContain(
    `Review the next case in the queue, ${second} (sampled, not reviewed: drawn in draw 1; not reviewed by alice)?`,
  )
  const lines = stdout.split('\n')
  expect(lines).toContain(
    `next in the queue for alice (1 of 2): ${first}, sampled, not reviewed: drawn in draw 1; not reviewed by alice; its reviews of debate, then baseline`,
  )
  expect(lines).toContain(
    `next in the queue for alice (the last): ${second}, sampled, not reviewed: drawn in draw 1; not reviewed by alice; its reviews of debate, then baseline`,
  )
  expect(lines.filter((line) => line.includes('recorded'))).toHaveLength(4)
  expect(lines).toContain(`debate-benchmark (.): nothing left to review in the queue for alice (--replace takes stale and unsettled reviews too)`)
  // Each case has alice's review of both systems, and her queue is empty.
  const alice = (await copy.readJson<AnnotationsJson>('reviews/alice.json')).reviews
  expect(alice.map((review) => `${review.case_id}/${review.system}`).sort()).toEqual(
    [first, second].flatMap((caseId) => [`${caseId}/baseline`, `${caseId}/debate`]).sort(),
  )
  expect(JSON.parse((await runCli(['next', '.', '--reviewer', 'alice', '--json'], copy.dir)).stdout).total).toBe(0)
})
