import { plural } from '../../core/common/primitives.js'
import {
  compareFixtures,
  DEVELOPMENT_LABEL,
  type CompareSplit,
  type FixtureComparison,
  type ScoredSplitComparison,
  type SplitComparison,
} from '../../core/compare/compare.js'
import { differenceLine, idList as list, interval, percent, points, pointsInterval, pValue, worstCaseLine } from '../../core/compare/compare-figures.js'
import { scoreLine } from '../../core/compare/compare-scored.js'
import { stringOption, usage, type Command } from '../command.js'

const SPLITS: readonly CompareSplit[] = ['held_out', 'development', 'all']

/** `vitest-rubric compare <A> <B> [--split held_out|development|all] [--json] [--seed <s>]`: two systems on one rubric, paired by case. */
export const compare: Command = {
  name: 'compare',
  summary: 'compare two systems on one rubric: paired acceptance and per-criterion figures, held-out apart from development',
  help: `Usage: vitest-rubric compare <A> <B> [--split held_out|development|all] [--json] [--seed <s>]

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

Options:
  --split <split>   held_out, development or all (the default: each split on its own)
  --json            print the comparison as JSON (docs/compare.md)
  --seed <s>        the seed of a scored comparison's bootstrap (default "vitest-rubric"); a
                    criteria comparison draws nothing at random

Exit codes: 0 when compared; 1 when the fixtures are refused or not comparable; 2 on a usage error.`,
  options: { json: { type: 'boolean', default: false }, split: { type: 'string' }, seed: { type: 'string' } },
  async run({ values, positionals }, io) {
    if (positionals.length !== 2) throw usage('compare', 'compare takes exactly two fixture directories, A and B.')
    const given = stringOption(values, 'split') ?? 'all'
    const split = SPLITS.find((each) => each === given)
    if (split === undefined) throw usage('compare', `--split takes held_out, development or all, not ${JSON.stringify(given)}.`)
    const seed = stringOption(values, 'seed')
    const comparison = await compareFixtures(positionals[0]!, positionals[1]!, {
      cwd: io.cwd,
      split,
      ...(seed === undefined ? {} : { seed }),
    })
    io.stdout(values['json'] === true ? JSON.stringify(comparison, null, 2) : formatComparison(comparison))
    return 0
  },
}

function formatSplit(section: SplitComparison | ScoredSplitComparison, comparison: FixtureComparison): string[] {
  const noun = comparison.kind === 'criteria' ? { accepted: 'accepted', rejected: 'rejected' } : { accepted: 'passed', rejected: 'failed' }
  const development = section.standing === 'development'
  const lines = [`${section.split}: ${development ? DEVELOPMENT_LABEL : 'the result'}`, `  ${section.coverage.line}`]
  if (!development) {
    for (const leak of comparison.leaks) {
      const sources = leak.development.map((match) => `${match.case} in ${match.fixture}`).join(', ')
      const what = comparison.kind === 'criteria' ? 'the question and answer text' : 'the spec'
      lines.push(`  leak: held-out case ${leak.case} in ${leak.fixture} has ${what} of development case ${sources}`)
    }
  }
  const { acceptance } = section
  lines.push(`  ${development ? 'development figures' : 'result'}: ${differenceLine(acceptance)}`)
  const worst = worstCaseLine(section.worst_case, noun)
  if (worst !== null) lines.push(`  ${worst}`)
  if (acceptance.n > 0) {
    lines.push(
      `  ${noun.accepted}: A ${acceptance.a.passed} of ${acceptance.n}, ${percent(acceptance.a.rate)} ${interval(acceptance.a.interval)}; B ${acceptance.b.passed} of ${acceptance.n}, ${percent(acceptance.b.rate)} ${interval(acceptance.b.interval)}`,
    )
    const t = acceptance.table
    lines.push(`  paired table: both ${noun.accepted} ${t.both}, A only ${t.a_only}, B only ${t.b_only}, both ${noun.rejected} ${t.neither}`)
    lines.push(`  A ${noun.accepted}, B ${noun.rejected}: ${list(section.discordant.a_accepted_b_rejected)}`)
    lines.push(`  B ${noun.accepted}, A ${noun.rejected}: ${list(section.discordant.b_accepted_a_rejected)}`)
  }
  if ('scores' in section) {
    lines.push(`  ${scoreLine(section)}`)
    return lines
  }
  if (acceptance.n > 0) {
    const names = Object.keys(section.criteria)
    const width = Math.max('criterion'.length, ...names.map((name) => name.length)) + 2
    lines.push(
      `  ${'criterion'.padEnd(width)}${'A meets'.padEnd(9)}${'B meets'.padEnd(9)}${'B − A'.padEnd(8)}${'95% interval'.padEnd(17)}McNemar p  fixed by B / broken by B`,
    )
    for (const [name, item] of Object.entries(section.criteria)) {
      lines.push(
        `  ${name.padEnd(width)}${`${item.a.passed}/${item.n}`.padEnd(9)}${`${item.b.passed}/${item.n}`.padEnd(9)}${points(item.difference!).padEnd(8)}` +
          `${pointsInterval(item.difference_interval).padEnd(17)}${pValue(item.mcnemar.p_value).padEnd(11)}${list(item.fixed_by_b)} / ${list(item.broken_by_b)}`,
      )
    }
  }
  return lines
}

/** The comparison as text: what was compared, then each split, held-out first. */
export function formatComparison(comparison: FixtureComparison): string {
  const lines = [
    `A: ${comparison.a.name} (${comparison.a.dir}), ${plural(comparison.a.cases, 'case')}`,
    `B: ${comparison.b.name} (${comparison.b.dir}), ${plural(comparison.b.cases, 'case')}`,
    comparison.kind === 'criteria'
      ? `same rubric.json (SHA-256 ${comparison.rubric_sha256}) and source.txt (SHA-256 ${comparison.source_sha256})`
      : `same evaluation_rubric.json (SHA-256 ${comparison.rubric_sha256}); the debate system of each fixture is compared, its baseline left out`,
    `in A only: ${list(comparison.unpaired.a_only)}; in B only: ${list(comparison.unpaired.b_only)}`,
  ]
  for (const mismatch of comparison.split_mismatch) lines.push(`not paired: ${mismatch.case} is ${mismatch.a} in A but ${mismatch.b} in B`)
  if (comparison.kind === 'scored') for (const id of comparison.spec_mismatch) lines.push(`not paired: ${id} has a different spec in A and in B`)
  for (const section of comparison.splits) lines.push('', ...formatSplit(section, comparison))
  lines.push('', `figures per split, never pooled; intervals at ${100 * comparison.level}%; definitions and how to read them: docs/compare.md`)
  return lines.join('\n')
}
