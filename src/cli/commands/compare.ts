import { compareFixtures, DEVELOPMENT_LABEL, type CompareSplit, type SomeFixtureComparison } from '../../core/compare/compare.js'
import type { KindRegistry } from '../../core/engine/registry.js'
import { comparisonText, type ComparisonText, type SplitText } from '../../core/compare/compare-text.js'
import { MIN_PPI_DISCORDANT } from '../../core/stats/ppi-difference.js'
import { MIN_PPI_REVIEWS } from '../../core/stats/ppi.js'
import { stringOption, usage, type Command, optionalJudge } from '../command.js'

const SPLITS: readonly CompareSplit[] = ['held_out', 'development', 'all']

/** `vitest-rubric compare <A> <B> [--split held_out|development|all] [--judge <name>] [--json] [--seed <s>]`: two systems on one rubric, paired by case. */
export const compare: Command = {
  name: 'compare',
  summary: 'compare two systems on one rubric: paired acceptance and per-criterion figures, held-out apart from development',
  help: `Usage: vitest-rubric compare <A> <B> [--split held_out|development|all] [--judge <name>] [--json] [--seed <s>]

Compares two criteria fixtures that answer the same tasks under the same rubric: system A's
answers and system B's. Their rubric.json and source.txt must be byte-identical (both hashes are
printed); otherwise the comparison is refused, naming the file that differs. Cases are paired by
id; a case in one fixture only is listed, never dropped silently.

A pair counts when both cases are decided (accepted or rejected). Pairs with a pending or refused
side are counted as the comparison's coverage, and never become a win or a loss: the figures
assume they would come out as the decided pairs did. Beside them, the worst case for B counts
every such pair against B (B rejected, A accepted where undecided). Each split is
compared apart: held-out cases give the result; development cases are printed as
"${DEVELOPMENT_LABEL}". A held-out case whose question and answer text
are a development case's is flagged as a leak.

For each split: the paired 2×2 table (both accepted, A only, B only, both rejected), each
system's acceptance rate with its Wilson 95% interval, the difference B − A with Newcombe's
score interval for paired proportions (method 10), McNemar's exact test on the discordant pairs,
the same figures per criterion (meeting it, with the cases B fixed and broke), and the discordant
cases, A accepted and B rejected first.

Two scored fixtures (the same evaluation_rubric.json; a case whose spec differs is not paired)
compare their debate systems: the paired pass figures as above, and the paired difference of
per-case mean scores over the cases scoreable in both, with its standard error and a seeded
percentile bootstrap interval that resamples those cases (none below 10). How to read the
figures: docs/compare.md.

With --judge, each split also gets B − A over EVERY paired task by prediction-powered
inference (PPI++): the judge's decision on both answers to every task (judges/<name>.json in
each fixture), corrected by the human decisions of the tasks drawn in both fixtures' samples
(sample.json, drawn by \`vitest-rubric sample\` in each with the same --size, --seed and method,
so that they are one draw of the tasks). Beside it: the human-only interval on the same pairs,
the judge-only difference (biased by the judge's errors), the effective reviews, the pending
pairs with the interval's worst case over them, and the reviewed tasks outside the sample left
out. Where it cannot be trusted it says why instead: the samples drew different tasks, a judge
decision is stale or missing, fewer than ${MIN_PPI_REVIEWS} sampled tasks decided in both, fewer than
${MIN_PPI_DISCORDANT} of them decided differently. Definitions: docs/statistics.md.

Options:
  --split <split>   held_out, development or all (the default: each split on its own)
  --json            print the comparison as JSON (docs/compare.md)
  --judge <name>    add the judge-assisted B − A of each split, from the judge's decisions on
                    every task and the two samples' reviews
  --seed <s>        the seed of a scored comparison's bootstrap (default "vitest-rubric"); a
                    criteria comparison draws nothing at random

Exit codes: 0 when compared (a judge-assisted estimate refused is reported, not an error); 1
when the fixtures are refused or not comparable, or with --judge when a fixture has no
sample.json (SAMPLE_MISSING) or an invalid one; 2 on a usage error (a judge without labels).`,
  options: { json: { type: 'boolean', default: false }, split: { type: 'string' }, seed: { type: 'string' }, judge: { type: 'string' } },
  async run({ values, positionals }, io) {
    if (positionals.length !== 2) throw usage('compare', 'compare takes exactly two fixture directories, A and B.')
    const given = stringOption(values, 'split') ?? 'all'
    const split = SPLITS.find((each) => each === given)
    if (split === undefined) throw usage('compare', `--split takes held_out, development or all, not ${JSON.stringify(given)}.`)
    const seed = stringOption(values, 'seed')
    const judge = optionalJudge(stringOption(values, 'judge'))
    const comparison = await compareFixtures(positionals[0]!, positionals[1]!, {
      cwd: io.cwd,
      split,
      ...(seed === undefined ? {} : { seed }),
      ...(judge === undefined ? {} : { judge }),
    })
    io.stdout(values['json'] === true ? JSON.stringify(comparison, null, 2) : formatComparison(comparison))
    return 0
  },
}

function formatSplit(section: SplitText, text: ComparisonText): string[] {
  const { nouns } = text
  const development = section.standing === 'development'
  const lines = [`${section.split}: ${development ? DEVELOPMENT_LABEL : 'the result'}`, `  ${section.coverage}`, ...section.leaks.map((leak) => `  ${leak}`)]
  lines.push(`  ${section.difference}`)
  if (section.worstCase !== null) lines.push(`  ${section.worstCase}`)
  if (section.rates !== null) lines.push(`  ${section.rates}`)
  const t = section.table
  if (t !== null) lines.push(`  paired table: both ${nouns.accepted} ${t.both}, A only ${t.a_only}, B only ${t.b_only}, both ${nouns.rejected} ${t.neither}`)
  if (section.discordant !== null) lines.push(...section.discordant.map((line) => `  ${line}`))
  if (section.scores !== null) lines.push(`  ${section.scores}`)
  if (section.judgeAssisted !== null) lines.push(...section.judgeAssisted.map((line) => `  ${line}`))
  if (section.criteria.length > 0) {
    const width = Math.max(text.itemHead[0]?.length ?? 0, ...section.criteria.map((row) => row.criterion.length)) + 2
    const widths = text.itemWidths
    // The first column as wide as its longest cell, the next as the kind says, the rest as one: `fixed by B / broken by B`.
    const row = (cells: readonly string[]) =>
      `  ${cells[0]!.padEnd(width)}${widths.map((each, i) => (cells[i + 1] ?? '').padEnd(each)).join('')}${cells.slice(widths.length + 1).join(' / ')}`
    lines.push(row(text.itemHead))
    for (const each of section.criteria) lines.push(row([each.criterion, ...each.cells]))
  }
  return lines
}

/** The comparison as text: what was compared, then each split, held-out first. */
export function formatComparison(comparison: SomeFixtureComparison, registry?: KindRegistry): string {
  const text = comparisonText(comparison, registry)
  const lines = [...text.sides, text.same, ...text.notes]
  for (const section of text.splits) lines.push('', ...formatSplit(section, text))
  lines.push('', text.footer)
  return lines.join('\n')
}
