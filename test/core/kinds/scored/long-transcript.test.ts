import { expect, test } from 'vitest'
import type { Turn } from '../../../../src/core/kinds/scored/schemas.js'
import { runCli } from '../../../helpers/cli.js'
import { copyDebate } from '../../../helpers/scored-copy.js'

// A spread of the transcript (`Math.max(...turns)`) overflows the call stack from about 130,000 turns.
const TURNS = 200_000

test(`a debate transcript of ${TURNS.toLocaleString('en')} turns is decided by evaluate and listed by status, as a short one is`, {
  timeout: 60_000,
}, async () => {
  const copy = await copyDebate()
  const before = JSON.parse((await runCli(['evaluate', '.', '--json'], copy.dir)).stdout).decisions['partial-recall']
  await copy.editCases((cases) => {
    const transcript = cases.cases[0]!.outputs.debate.transcript
    // Filler exchanges in the first round: the spans, the last round and its verdicts stay as they were.
    const filler: Turn[] = Array.from({ length: TURNS - transcript.length }, (_, index) => ({
      round: 1,
      agent: index % 2 === 0 ? 'critique' : 'defense',
      text: `Turn ${index}.`,
    }))
    cases.cases[0]!.outputs.debate.transcript = [...filler, ...transcript]
  })
  await copy.rebind('partial-recall', 'debate')

  const evaluate = await runCli(['evaluate', '.', '--json'], copy.dir)
  expect(evaluate.stderr).toBe('')
  expect(evaluate.code).toBe(0)
  const after = JSON.parse(evaluate.stdout).decisions['partial-recall']
  expect(after).toEqual(before)

  const status = await runCli(['status', '.', '--json'], copy.dir)
  expect(status.stderr).toBe('')
  expect(status.code).toBe(0)
  const [fixture] = JSON.parse(status.stdout)
  expect(fixture.cases[0].findings).toEqual([{ group: 'current', detail: 'accepted' }])
})
