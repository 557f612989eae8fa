import { expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { runCli } from '../helpers/cli.js'
import { copyFixture } from '../helpers/fixture-copy.js'
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
