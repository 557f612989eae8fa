import { cp } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ROOT } from '../helpers/fixture-copy.js'
import { runVitest } from '../helpers/run-vitest.js'
import { scratchDir } from '../helpers/scratch.js'

test("rubric({ marginGate: 'lower-bound' }): the baseline check needs the paired interval's lower bound to clear the margin", { timeout: 60_000 }, async () => {
  const root = await scratchDir('uncertainty')
  await cp(join(ROOT, 'fixtures/debate-benchmark'), join(root, 'fixtures/debate'), { recursive: true })
  const name = 'beats the trivial baseline by ≥ 0.10'
  const point = await runVitest({ root })
  expect(point.tests.find((item) => item.name === name)?.state).toBe('passed')
  expect(point.stdout).toContain('the baseline gate compares the point estimate, as the rubric states it')

  const strict = await runVitest({ root, plugin: { marginGate: 'lower-bound' } })
  const check = strict.tests.find((item) => item.name === name)!
  expect(check.state).toBe('failed')
  expect(check.errors[0]).toMatch(/lower bound 0\.06\d* < 0\.10/)
  expect(strict.stdout).toContain("the baseline gate compares the paired interval's lower bound (marginGate: lower-bound)")
  // The seed is an option: another seed, another interval, the same estimate.
  const seeded = await runVitest({ root, plugin: { seed: 42 } })
  const line = (run: typeof point) => run.stdout.split('\n').find((text) => text.includes('paired margin'))!
  expect(line(seeded)).not.toBe(line(point))
  expect(line(seeded)).toContain('paired margin 0.2815 over 8 cases')
  // A number is read as its decimal string, as the command line's --seed 42 reads it: one seed, one interval.
  const text = await runVitest({ root, plugin: { seed: '42' } })
  expect(line(text)).toBe(line(seeded))
})
