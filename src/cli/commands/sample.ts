import { isOneOf, plural, type Split } from '../../core/common/primitives.js'
import { kinds } from '../../core/registry.js'
import { designOf } from '../../core/sample/draw.js'
import { sampleFixture, type SampleResult } from '../../core/sample/sample.js'
import { SAMPLE_STRATA } from '../../core/sample/sample-file.js'
import { sampleLike } from '../../core/sample/sample-like.js'
import { oneDir, requiredOption, stringOption, usage, type Command } from '../command.js'
import { checkReviewer } from '../../core/engine/authoring/authors.js'

/** `vitest-rubric sample <dir> --size <n> --seed <s> [--by …] [--method active] [--judge <name>] [--new]`, or `--like <dir>`: draws cases for human review. */
export const sample: Command = {
  name: 'sample',
  summary: 'draw cases for human review with a known design (sample.json), or extend the sample',
  help: `Usage: vitest-rubric sample <dir> --size <n> --seed <s> [--by split|decision|criterion | --method active] [--judge <name>] [--new] [--dry-run] [--json]
       vitest-rubric sample <dir> --like <other dir> [--new] [--dry-run] [--json]

Draws n cases for people to review, at random with a known design, and records the design in
<dir>/sample.json: each draw's seed, method, size and time, the number of cases N (and N_h of
each split) with the fingerprint of the case set at the draw, and each drawn case with its
inclusion probability, its stratum and the fingerprint of its answer at the draw. The draw is
the same for the same seed, cases and judge's labels. \`vitest-rubric estimate\` reads the file.

Run it again to extend the sample: it draws more of the cases not drawn yet, and every
inclusion probability becomes what the draws together give (the cases drawn / N, per split
when stratified). That holds only for the same cases: when cases were added, removed or moved
between splits since the draw, an extension is refused; --new starts a new sample instead.
An active sample is extended by a further draw, each case on its own again, by the judge's
labels as they are now (--method active --judge <the same judge>); --size is then how many
cases it adds in expectation, and each case's probability becomes 1 − (1 − π)(1 − π2), π the
draws so far and π2 this one's. A sample stratified by the judge (--by decision, --by
criterion) is drawn once.

Options:
  --size <n>          how many cases to draw, or to add to the sample (required; for --method
                      active, the expected number)
  --seed <s>          the seed of the draw, any text (required): record it to draw the same again
  --by split          stratified by split: proportional allocation, at least one case of each split
                      (default: a simple random sample of all cases, without replacement)
  --by decision       stratified, within each split, by the judge's decision (accepted, rejected,
                      pending): proportional allocation, at least two cases a stratum
  --by criterion      stratified, within each split, by the criterion the judge is least sure of
                      (by decision or criterion, a stratum of one case joins its split's largest)
  --method active     each case drawn on its own, with probability min(1, s·(0.2/N + 0.8·u/Σu)),
                      u the judge's uncertainty of the case (1 − its least confidence), s so that
                      the probabilities add up to n
  --judge <name>      the judge whose labels --by decision, --by criterion and --method active read
                      (--by criterion and --method active need labels that give a confidence)
  --like <dir>        copy the design of <dir>'s sample (same tasks, probabilities and strata), so
                      that \`compare <dir> <this> --judge\` can pair the two
  --new               replace the sample there is with a new one (also one refused as invalid)
  --dry-run           print what would be drawn; write nothing
  --json              print the sample file as it would be written

Exit codes: 0 when drawn; 1 when the fixture is refused, the cases changed since the draw
(SAMPLE_POPULATION_CHANGED) or the judge gives no confidence (SAMPLE_NO_CONFIDENCE); 2 on a
usage error.`,
  options: {
    size: { type: 'string' },
    seed: { type: 'string' },
    by: { type: 'string' },
    method: { type: 'string' },
    judge: { type: 'string' },
    like: { type: 'string' },
    new: { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
  async run({ values, positionals }, io) {
    const dir = oneDir('sample', positionals)
    const like = stringOption(values, 'like')
    if (like !== undefined) {
      const given = ['size', 'seed', 'by', 'method', 'judge'].filter((name) => values[name] !== undefined)
      if (given.length > 0)
        throw usage('sample', `--like copies the design of another sample: ${given.map((name) => `--${name}`).join(', ')} cannot be given with it.`)
      const result = await sampleLike(kinds, dir, like, { fresh: values['new'] === true, dryRun: values['dry-run'] === true, cwd: io.cwd })
      io.stdout(values['json'] === true ? JSON.stringify(result.sample, null, 2) : formatSample(result))
      return 0
    }
    const sizeText = requiredOption('sample', values, 'size', 'sample needs --size <n>: how many cases to draw.')
    const seed = requiredOption('sample', values, 'seed', 'sample needs --seed <s>: the draw is made from it, and recorded with it.')
    const size = Number(sizeText)
    if (!/^\d+$/.test(sizeText) || size < 1) throw usage('sample', `--size takes a whole number of 1 or more, not ${JSON.stringify(sizeText)}.`)
    if (!Number.isSafeInteger(size))
      throw usage('sample', `--size ${sizeText} is more cases than a fixture can hold; give a whole number up to the number of cases to draw.`)
    const by = stringOption(values, 'by')
    if (by !== undefined && !isOneOf(SAMPLE_STRATA, by)) throw usage('sample', `--by takes "split", "decision" or "criterion", not ${JSON.stringify(by)}.`)
    const method = stringOption(values, 'method')
    if (method !== undefined && method !== 'active' && method !== 'uniform')
      throw usage('sample', `--method takes "active" (or "uniform", the default), not ${JSON.stringify(method)}.`)
    if (method === 'active' && by !== undefined)
      throw usage('sample', '--method active draws each case on its own: it has no strata, so --by cannot be given with it.')
    const result = await sampleFixture(kinds, dir, {
      size,
      seed,
      method: method === 'active' ? 'active' : by === undefined ? 'uniform' : 'stratified',
      ...(by === undefined ? {} : { strata: by }),
      ...(stringOption(values, 'judge') === undefined ? {} : { judge: checkReviewer(stringOption(values, 'judge')!, '--judge') }),
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
  const design =
    draw.method === 'uniform'
      ? 'uniform (simple random sample without replacement)'
      : draw.method === 'active'
        ? `active by judge ${draw.judge ?? '?'}'s uncertainty (Poisson, expected size ${draw.expected_size ?? draw.size}, floor ${draw.floor ?? ''})`
        : `${designOf(draw.method, draw.strata).words}${draw.judge === undefined ? '' : ` of judge ${draw.judge}`} (proportional allocation)`
  const [done, would] = result.extended
    ? ['extended the sample by', 'would extend the sample by']
    : result.replaced
      ? ['drew a new sample of', 'would draw a new sample of']
      : ['drew', 'would draw']
  const copied = draw.like === undefined ? '' : `, the design of ${draw.like.file}`
  const lines = [
    `${result.fixture}: ${result.written ? done : would} ${plural(result.drawn.length, 'case')} of ${draw.population}, ${design}, seed ${JSON.stringify(draw.seed)}${copied}`,
  ]
  const bySplit = new Map<Split, { total: number; drawn: number; low: number; high: number }>()
  const added = new Set(result.drawn.map((entry) => entry.id))
  for (const entry of result.sample.cases) {
    const figures = bySplit.get(entry.split) ?? { total: 0, drawn: 0, low: entry.probability, high: entry.probability }
    figures.total++
    figures.low = Math.min(figures.low, entry.probability)
    figures.high = Math.max(figures.high, entry.probability)
    if (added.has(entry.id)) figures.drawn++
    bySplit.set(entry.split, figures)
  }
  for (const [split, figures] of bySplit) {
    const probability =
      figures.low === figures.high
        ? `inclusion probability ${figures.low.toFixed(4)}`
        : `inclusion probabilities ${figures.low.toFixed(4)} to ${figures.high.toFixed(4)}`
    lines.push(`  ${split}: ${figures.drawn} drawn now, ${figures.total} in the sample of ${draw.splits[split] ?? 0} cases (${probability})`)
  }
  for (const [small, into] of Object.entries(draw.merged_strata ?? {})) {
    lines.push(`  stratum ${small} has fewer than 2 cases: merged into ${into}, so that every stratum gives a variance`)
  }
  lines.push(
    `  drawn: ${result.drawn.length === 0 ? 'none (each case is drawn on its own; the probabilities are brought up all the same)' : result.drawn.map((entry) => entry.id).join(', ')}`,
  )
  lines.push(result.written ? `  wrote ${result.file}` : `  dry run: ${result.file} was not written`)
  return lines.join('\n')
}
