import { join } from 'node:path'
import { expect, test } from 'vitest'
import { formatComparison } from '../../../src/cli/commands/compare.js'
import { compareFixtures } from '../../../src/core/compare/compare.js'
import { comparisonText } from '../../../src/core/compare/compare-text.js'
import { ROOT } from '../../helpers/fixture-copy.js'

/** Every line of the comparison's words, as the page shows them. */
function pageLines(text: ReturnType<typeof comparisonText>): string[] {
  return [
    ...text.sides,
    text.same,
    ...text.notes,
    ...text.splits.flatMap((split) => [
      split.coverage,
      split.difference,
      ...split.leaks,
      ...(split.worstCase === null ? [] : [split.worstCase]),
      ...(split.rates === null ? [] : [split.rates]),
      ...(split.discordant ?? []),
      ...(split.scores === null ? [] : [split.scores]),
    ]),
    text.footer,
  ]
}

test.each([
  ['criteria', 'examples/compare/answers-v1', 'examples/compare/answers-v2'],
  ['scored', 'fixtures/debate-benchmark', 'fixtures/debate-benchmark'],
])('%s: the page and `compare` word a comparison alike: every line the page shows is a line compare prints', async (_, a, b) => {
  const comparison = await compareFixtures(join(ROOT, a), join(ROOT, b), { cwd: ROOT })
  const printed = formatComparison(comparison)
    .split('\n')
    .map((line) => line.trim())
  const text = comparisonText(comparison)
  expect(pageLines(text).filter((line) => !printed.includes(line))).toEqual([])
  // And each criterion's row: its cells, in the columns compare prints.
  for (const split of text.splits)
    for (const row of split.criteria)
      expect(printed.some((line) => line.startsWith(row.criterion) && row.cells.every((cell) => line.includes(cell)))).toBe(true)
  expect(text.splits.some((split) => split.rates !== null)).toBe(true)
})
