import { plural } from '../../core/common/primitives.js'
import { kinds } from '../../core/registry.js'
import { sampleFixture, type SampleResult } from '../../core/sample/sample.js'
import { oneDir, requiredOption, stringOption, usage, type Command } from '../command.js'

/** `vitest-rubric sample <dir> --size <n> --seed <s> [--by split] [--new] [--dry-run] [--json]`: draws cases for human review. */
export const sample: Command = {
  name: 'sample',
  summary: 'draw cases for human review with a known design (sample.json), or extend the sample',
  help: `Usage: vitest-rubric sample <dir> --size <n> --seed <s> [--by split] [--new] [--dry-run] [--json]

Draws n cases for people to review, at random with a known design, and records the design in
<dir>/sample.json: each draw's seed, method, size and time, the number of cases N (and N_h of
each split) with the fingerprint of the case set at the draw, and each drawn case with its
inclusion probability, its stratum and the fingerprint of its answer at the draw. The draw is
the same for the same seed and cases. \`vitest-rubric estimate\` reads the file.

Run it again to extend the sample: it draws more of the cases not drawn yet, and every
inclusion probability becomes what the draws together give (the cases drawn / N, per split
when stratified). That holds only for the same cases: when cases were added, removed or moved
between splits since the draw, an extension is refused; --new starts a new sample instead.

Options:
  --size <n>     how many cases to draw (required)
  --seed <s>     the seed of the draw, any text (required): record it to draw the same again
  --by split     stratified by split: proportional allocation, at least one case of each split
                 (default: a simple random sample of all cases, without replacement)
  --new          replace the sample there is with a new one
  --dry-run      print what would be drawn; write nothing
  --json         print the sample file as it would be written

Exit codes: 0 when drawn; 1 when the fixture is refused or the cases changed since the draw
(SAMPLE_POPULATION_CHANGED); 2 on a usage error.`,
  options: {
    size: { type: 'string' },
    seed: { type: 'string' },
    by: { type: 'string' },
    new: { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
  async run({ values, positionals }, io) {
    const dir = oneDir('sample', positionals)
    const sizeText = requiredOption('sample', values, 'size', 'sample needs --size <n>: how many cases to draw.')
    const seed = requiredOption('sample', values, 'seed', 'sample needs --seed <s>: the draw is made from it, and recorded with it.')
    const size = Number(sizeText)
    if (!/^\d+$/.test(sizeText) || !Number.isSafeInteger(size) || size < 1)
      throw usage('sample', `--size takes a whole number of 1 or more, not ${JSON.stringify(sizeText)}.`)
    const by = stringOption(values, 'by')
    if (by !== undefined && by !== 'split') throw usage('sample', `--by takes "split", not ${JSON.stringify(by)}.`)
    const result = await sampleFixture(kinds, dir, {
      size,
      seed,
      method: by === undefined ? 'uniform' : 'stratified',
      fresh: values['new'] === true,
      dryRun: values['dry-run'] === true,
      cwd: io.cwd,
    })
    io.stdout(values['json'] === true ? JSON.stringify(result.sample, null, 2) : formatSample(result))
    return 0
  },
}

/** What a draw did, in words: the design, the cases per split, where it was written. */
export function formatSample(result: SampleResult): string {
  const draw = result.sample.draws[result.sample.draws.length - 1]!
  const design = draw.method === 'uniform' ? 'uniform (simple random sample without replacement)' : 'stratified by split (proportional allocation)'
  const [done, would] = result.extended
    ? ['extended the sample by', 'would extend the sample by']
    : result.replaced
      ? ['drew a new sample of', 'would draw a new sample of']
      : ['drew', 'would draw']
  const lines = [
    `${result.fixture}: ${result.written ? done : would} ${plural(result.drawn.length, 'case')} of ${draw.population}, ${design}, seed ${JSON.stringify(draw.seed)}`,
  ]
  const bySplit = new Map<string, { total: number; drawn: number; probability: number }>()
  const added = new Set(result.drawn.map((entry) => entry.id))
  for (const entry of result.sample.cases) {
    const figures = bySplit.get(entry.split) ?? { total: 0, drawn: 0, probability: entry.probability }
    figures.total++
    if (added.has(entry.id)) figures.drawn++
    bySplit.set(entry.split, figures)
  }
  for (const [split, figures] of bySplit) {
    lines.push(
      `  ${split}: ${figures.drawn} drawn now, ${figures.total} in the sample of ${draw.splits[split as keyof typeof draw.splits] ?? 0} cases (inclusion probability ${figures.probability.toFixed(4)})`,
    )
  }
  lines.push(`  drawn: ${result.drawn.map((entry) => entry.id).join(', ')}`)
  lines.push(result.written ? `  wrote ${result.file}` : `  dry run: ${result.file} was not written`)
  return lines.join('\n')
}
