import { plural } from '../common/primitives.js'
import type { FixtureComparison, ScoredSplitComparison, SplitComparison } from './compare.js'
import { differenceLine, idList, interval, percent, points, pointsInterval, pValue, worstCaseLine } from './compare-figures.js'
import { scoreLine } from './compare-scored.js'
import { judgeAssistedLines } from './compare-judge-text.js'

/** The words of a comparison that depend on its kind. */
interface KindWords {
  /** A decision's two outcomes. */
  readonly nouns: { readonly accepted: string; readonly rejected: string }
  /** What a held-out case that leaks shares with a development case. */
  readonly leaked: string
  /** What the two fixtures share, byte for byte, and what is compared. */
  readonly same: (comparison: FixtureComparison) => string
}

const WORDS: Readonly<Record<FixtureComparison['kind'], KindWords>> = {
  criteria: {
    nouns: { accepted: 'accepted', rejected: 'rejected' },
    leaked: 'the question and answer text',
    same: (comparison) =>
      `same rubric.json (SHA-256 ${comparison.rubric_sha256}) and source.txt (SHA-256 ${comparison.kind === 'criteria' ? comparison.source_sha256 : ''})`,
  },
  scored: {
    nouns: { accepted: 'passed', rejected: 'failed' },
    leaked: 'the spec',
    same: (comparison) =>
      `same evaluation_rubric.json (SHA-256 ${comparison.rubric_sha256}); the debate system of each fixture is compared, its baseline left out`,
  },
}

/** The head of a split's per-criterion table. */
export const CRITERION_HEAD = ['criterion', 'A meets', 'B meets', 'B − A', '95% interval', 'McNemar p', 'fixed by B', 'broken by B'] as const

/** One split of a comparison, worded: each line as `compare` prints it and the page shows it. */
export interface SplitText {
  readonly split: string
  readonly standing: 'result' | 'development'
  /** The development label, or `null` for held-out cases. */
  readonly label: string | null
  readonly coverage: string
  readonly leaks: readonly string[]
  /** `result: B − A = …` (held-out) or `development figures: …`. */
  readonly difference: string
  readonly worstCase: string | null
  /** Each system's rate with its interval; `null` without a decided pair. */
  readonly rates: string | null
  readonly table: { readonly both: number; readonly a_only: number; readonly b_only: number; readonly neither: number } | null
  /** The discordant cases, A's win first: `null` without a decided pair. */
  readonly discordant: readonly [string, string] | null
  /** Per criterion, under {@link CRITERION_HEAD}: criteria fixtures with decided pairs. */
  readonly criteria: readonly { readonly criterion: string; readonly cells: readonly string[] }[]
  /** The mean score line (scored fixtures). */
  readonly scores: string | null
  /** The judge-assisted (PPI++) lines of B − A, when the comparison was asked with a judge; `null` otherwise. */
  readonly judgeAssisted: readonly string[] | null
}

/** A comparison, worded once for every front end: the CLI prints it, the page shows it. */
export interface ComparisonText {
  readonly nouns: KindWords['nouns']
  /** `A: name (dir), n cases` and the same for B. */
  readonly sides: readonly [string, string]
  readonly same: string
  /** The unpaired cases, and each pair refused. */
  readonly notes: readonly string[]
  readonly splits: readonly SplitText[]
  readonly footer: string
}

export function comparisonText(comparison: FixtureComparison): ComparisonText {
  const words = WORDS[comparison.kind]
  const side = (name: 'A' | 'B', of: FixtureComparison['a']) => `${name}: ${of.name} (${of.dir}), ${plural(of.cases, 'case')}`
  return {
    nouns: words.nouns,
    sides: [side('A', comparison.a), side('B', comparison.b)],
    same: words.same(comparison),
    notes: [
      `in A only: ${idList(comparison.unpaired.a_only)}; in B only: ${idList(comparison.unpaired.b_only)}`,
      ...comparison.split_mismatch.map((mismatch) => `not paired: ${mismatch.case} is ${mismatch.a} in A but ${mismatch.b} in B`),
      ...(comparison.kind === 'scored' ? comparison.spec_mismatch.map((id) => `not paired: ${id} has a different spec in A and in B`) : []),
      ...populationNotes(comparison),
    ],
    splits: comparison.splits.map((section) => splitText(section, comparison, words)),
    footer:
      `figures per split, never pooled; intervals at ${100 * comparison.level}%; definitions and how to read them: docs/compare.md` +
      (comparison.judge_assisted === undefined ? '' : '; the judge-assisted figures: docs/statistics.md#judge-assisted-paired-comparison'),
  }
}

function splitText(section: SplitComparison | ScoredSplitComparison, comparison: FixtureComparison, words: KindWords): SplitText {
  const { nouns } = words
  const development = section.standing === 'development'
  const { acceptance } = section
  const decided = acceptance.n > 0
  const leaks = development
    ? []
    : comparison.leaks.map((leak) => {
        const sources = leak.development.map((match) => `${match.case} in ${match.fixture}`).join(', ')
        return `leak: held-out case ${leak.case} in ${leak.fixture} has ${words.leaked} of development case ${sources}`
      })
  return {
    split: section.split,
    standing: section.standing,
    label: section.label,
    coverage: section.coverage.line,
    leaks,
    difference: `${development ? 'development figures' : 'result'}: ${differenceLine(acceptance)}`,
    worstCase: worstCaseLine(section.worst_case, nouns),
    rates: decided
      ? `${nouns.accepted}: A ${acceptance.a.passed} of ${acceptance.n}, ${percent(acceptance.a.rate)} ${interval(acceptance.a.interval)}; B ${acceptance.b.passed} of ${acceptance.n}, ${percent(acceptance.b.rate)} ${interval(acceptance.b.interval)}`
      : null,
    table: decided ? acceptance.table : null,
    discordant: decided
      ? [
          `A ${nouns.accepted}, B ${nouns.rejected}: ${idList(section.discordant.a_accepted_b_rejected)}`,
          `B ${nouns.accepted}, A ${nouns.rejected}: ${idList(section.discordant.b_accepted_a_rejected)}`,
        ]
      : null,
    criteria:
      'criteria' in section && decided
        ? Object.entries(section.criteria).map(([criterion, item]) => ({
            criterion,
            cells: [
              `${item.a.passed}/${item.n}`,
              `${item.b.passed}/${item.n}`,
              item.difference === null ? '—' : points(item.difference),
              pointsInterval(item.difference_interval),
              pValue(item.mcnemar.p_value),
              idList(item.fixed_by_b),
              idList(item.broken_by_b),
            ],
          }))
        : [],
    scores: 'scores' in section ? scoreLine(section) : null,
    judgeAssisted: judgedLines(comparison, section.split),
  }
}

function judgedLines(comparison: FixtureComparison, split: string): readonly string[] | null {
  const judged = comparison.judge_assisted
  const section = judged?.splits.find((each) => each.split === split)
  return judged === undefined || section === undefined ? null : judgeAssistedLines(section, judged.judge)
}

/** A fixture whose cases changed since its sample was drawn, for the judge-assisted figures. */
function populationNotes(comparison: FixtureComparison): string[] {
  const judged = comparison.judge_assisted
  if (judged === undefined) return []
  return (['a', 'b'] as const).flatMap((side) => {
    const changed = judged.population_changed[side]
    const answers = judged.answers_changed[side]
    return [
      ...(changed === null
        ? []
        : [
            `judge-assisted: the cases of ${side.toUpperCase()} changed since the last draw of ${judged.samples[side]} (${changed.atDraw} then, ${changed.now} now): ` +
              'the inclusion probabilities describe the cases as they were; draw both samples again with `vitest-rubric sample <dir> --size <n> --seed <s> --new`',
          ]),
      ...(answers.length === 0
        ? []
        : [
            `judge-assisted: ${answers.length} sampled ${answers.length === 1 ? 'task has' : 'tasks have'} another answer in ${side.toUpperCase()} than at the draw of ${judged.samples[side]} ` +
              `(${answers.slice(0, 10).join(', ')}${answers.length > 10 ? ', …' : ''}): a review made before describes the answer drawn; they wait for review again`,
          ]),
    ]
  })
}
