import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { reviewOnTerminal } from '../../../src/cli/commands/review-terminal.js'
import { addCases } from '../../../src/core/engine/authoring/add.js'
import { fileSource } from '../../../src/core/engine/authoring/draft.js'
import { evaluateFixture } from '../../../src/core/engine/evaluate.js'
import { loadFixture } from '../../../src/core/engine/fixture.js'
import { createRegistry, type KindRegistry } from '../../../src/core/engine/registry.js'
import { kinds } from '../../../src/core/registry.js'
import { KEY, scriptedTerminal } from '../../helpers/terminal.js'
import { verdictFixture } from '../../kinds/verdict/fixture.js'
import { verdictKind } from '../../kinds/verdict/index.js'

// A kind's terminal prompt is its own, as its comparison and its judging are: the verdict kind
// (test/kinds/verdict/) brings its review prompt in its folder, and the terminal review `review`
// runs asks it of a verdict case with no table of prompts anywhere else.

const registry = createRegistry([...kinds.kinds, verdictKind])

async function answers(): Promise<{ cwd: string; dir: string }> {
  const { cwd, dir } = await verdictFixture()
  await addCases(
    dir,
    [
      { id: 'paris', answer: 'Paris.' },
      { id: 'lyon', answer: 'Lyon.' },
    ],
    fileSource('the test'),
    { cwd, kinds: registry },
  )
  return { cwd, dir }
}

const options = (cwd: string, kindsOf: KindRegistry) => ({
  caseId: 'lyon',
  slot: undefined,
  reviewer: undefined,
  replace: false,
  cwd,
  dryRun: false,
  kinds: kindsOf,
})

describe("a third kind's terminal review", () => {
  test('asks the verdict and its reason, shows the decision, and records the review once confirmed', async () => {
    const { cwd, dir } = await answers()
    const script = scriptedTerminal([
      { expect: 'Verdict', keys: KEY.down + KEY.enter },
      { expect: 'Why?', keys: `Lyon is not the capital.${KEY.enter}` },
      { expect: 'Write the review to lab/annotations.json?', keys: KEY.enter },
    ])
    const outcome = await reviewOnTerminal(dir, options(cwd, registry), script.terminal)
    script.finished()

    const screen = script.screen()
    expect(screen).toContain('Does the answer name the capital of France?')
    expect(screen).toContain('Answer: Lyon.')
    expect(screen).toContain('With this review the case is rejected (Lyon is not the capital.).')
    expect(outcome).toMatchObject({ caseId: 'lyon', decision: 'rejected (Lyon is not the capital.)', written: ['lab/annotations.json', 'lab/cases.json'] })

    // The review is the kind's, as written, and it decides the case.
    const annotations = JSON.parse(await readFile(join(cwd, dir, 'annotations.json'), 'utf8')) as { reviews: Record<string, unknown>[] }
    expect(annotations.reviews).toEqual([
      {
        case_id: 'lyon',
        answer_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        rubric_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        verdict: 'no',
        reason: 'Lyon is not the capital.',
      },
    ])
    const decisions = evaluateFixture(await loadFixture(registry, dir, { cwd })).decisions
    expect(decisions.map((decision) => [decision.id, decision.status])).toEqual([
      ['paris', 'pending'],
      ['lyon', 'rejected'],
    ])
  })

  test('of a kind without one is refused, saying to pass the review as a file, and nothing is written', async () => {
    const { cwd, dir } = await answers()
    const { terminal: _, ...untermed } = verdictKind
    const script = scriptedTerminal([])
    const refused = reviewOnTerminal(dir, options(cwd, createRegistry([...kinds.kinds, untermed])), script.terminal)
    await expect(refused).rejects.toMatchObject({ code: 'USAGE' })
    await expect(refused).rejects.toThrowErrorMatchingInlineSnapshot(`
      [UsageError: vitest-rubric review: a verdict review is recorded from a file: pass --from <review.json>.
        fix:      see the usage below.]
    `)
    expect(script.screen()).toBe('')
    expect(JSON.parse(await readFile(join(cwd, dir, 'annotations.json'), 'utf8'))).toMatchObject({ reviews: [] })
  })
})
