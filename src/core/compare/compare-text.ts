import { plural } from '../common/primitives.js'
import type { KindComparisonText } from '../contract/kind.js'
import type { KindRegistry } from '../engine/registry.js'
import { kinds } from '../registry.js'
import type { SomeFixtureComparison } from './comparison.js'
import { differenceLine, idList, interval, percent, worstCaseLine } from './compare-figures.js'
import { judgeAssistedLines } from './compare-judge-text.js'

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
  /** Per item (a criteria fixture's criteria), under {@link ComparisonText.itemHead}: empty without a decided pair, or for a kind without items. */
  readonly criteria: readonly { readonly criterion: string; readonly cells: readonly string[] }[]
  /** The line of the kind's own figures of the split (a scored fixture's mean score); `null` for a kind without one. */
  readonly scores: string | null
  /** The judge-assisted (PPI++) lines of B − A, when the comparison was asked with a judge; `null` otherwise. */
  readonly judgeAssisted: readonly string[] | null
}

/** A comparison, worded once for every front end: the CLI prints it, the page shows it. */
export interface ComparisonText {
  readonly nouns: KindComparisonText<object, object>['nouns']
  /** `A: name (dir), n cases` and the same for B. */
  readonly sides: readonly [string, string]
  readonly same: string
  /** The unpaired cases, and each pair refused. */
  readonly notes: readonly string[]
  /** The head of each split's per-item table; empty for a kind without one. */
  readonly itemHead: readonly string[]
  /** How wide `compare` prints each column of the per-item table after the first; the columns past them are printed as one. */
  readonly itemWidths: readonly number[]
  readonly splits: readonly SplitText[]
  readonly footer: string
}

/** The words of a comparison, from its kind's definition in `registry` (the shipped kinds unless told). */
export function comparisonText(comparison: SomeFixtureComparison, registry: KindRegistry = kinds): ComparisonText {
  const words = registry.get(comparison.kind)?.compare?.text
  // A comparison is only made of fixtures whose kind defines one.
  if (words === undefined) throw new TypeError(`no kind named ${JSON.stringify(comparison.kind)} defines a comparison`)
  const side = (name: 'A' | 'B', of: SomeFixtureComparison['a']) => `${name}: ${of.name} (${of.dir}), ${plural(of.cases, 'case')}`
  return {
    nouns: words.nouns,
    sides: [side('A', comparison.a), side('B', comparison.b)],
    same: words.same(comparison),
    notes: [
      `in A only: ${idList(comparison.unpaired.a_only)}; in B only: ${idList(comparison.unpaired.b_only)}`,
      ...comparison.split_mismatch.map((mismatch) => `not paired: ${mismatch.case} is ${mismatch.a} in A but ${mismatch.b} in B`),
      ...words.notes(comparison),
      ...populationNotes(comparison),
    ],
    itemHead: words.items?.head ?? [],
    itemWidths: words.items?.widths ?? [],
    splits: comparison.splits.map((section) => splitText(section, comparison, words)),
    footer:
      `figures per split, never pooled; intervals at ${100 * comparison.level}%; definitions and how to read them: docs/compare.md` +
      (comparison.judge_assisted === undefined ? '' : '; the judge-assisted figures: docs/statistics.md#judge-assisted-paired-comparison'),
  }
}

function splitText(section: SomeFixtureComparison['splits'][number], comparison: SomeFixtureComparison, words: KindComparisonText<object, object>): SplitText {
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
    criteria: decided ? words.rows(section).map((row) => ({ criterion: row.item, cells: row.cells })) : [],
    scores: words.line(section),
    judgeAssisted: judgedLines(comparison, section.split),
  }
}

function judgedLines(comparison: SomeFixtureComparison, split: string): readonly string[] | null {
  const judged = comparison.judge_assisted
  const section = judged?.splits.find((each) => each.split === split)
  return judged === undefined || section === undefined ? null : judgeAssistedLines(section, judged.judge)
}

/** A fixture whose cases changed since its sample was drawn, for the judge-assisted figures. */
function populationNotes(comparison: SomeFixtureComparison): string[] {
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
