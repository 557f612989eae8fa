import { RubricError } from '../common/errors.js'
import { valueAt, type Split } from '../common/primitives.js'
import type { CriteriaDecision } from '../kinds/criteria/decision.js'
import { DEFAULT_SEED } from '../stats/bootstrap.js'
import { coverageOf, figures, standingOf, undecidedCase, type PairedFigures, type PairedSplitFigures } from './compare-figures.js'
import { compareScoredSplit, specMismatches, specText, type ScoredSplitComparison } from './compare-scored.js'
import { judgeAssistedComparison, type JudgeAssistedComparison } from './compare-judge.js'
import { evaluateFixture } from '../engine/evaluate.js'
import type { PanelPolicy } from '../engine/panel-rule.js'
import type { Decision } from '../contract/decision.js'
import type { CaseEntry } from '../engine/fixture.js'
import { loadFixture, type Fixture, type LoadedFixture } from '../registry.js'

export {
  DEVELOPMENT_LABEL,
  type ComparisonCoverage,
  type PairedFigures,
  type PairedSplitFigures,
  type RateFigure,
  type UndecidedCase,
} from './compare-figures.js'
export type { ScoreDifference, ScoredSplitComparison } from './compare-scored.js'
export type { JudgeAssistedComparison, JudgeAssistedRefusal, JudgeAssistedSplit, JudgeGaps } from './compare-judge.js'

/** What to do about a `FIXTURES_NOT_COMPARABLE` error (docs/errors.md). */
export const NOT_COMPARABLE_HINT =
  'compare fixtures made from one rubric and source (vitest-rubric init <B> --from <A>), or bring the two files to the same bytes; see docs/compare.md.'

/** Two fixtures `compareFixtures` cannot compare: their rubric or source differ, or they are of different kinds. */
export class FixturesNotComparableError extends RubricError {}

/** Which split a comparison covers: one of them, or each of them, side by side and never pooled. */
export type CompareSplit = Split | 'all'

/** Options of {@link compareFixtures}. */
export interface CompareOptions {
  /** The split to compare; `'all'` gives each split its own figures. @default 'all' */
  readonly split?: CompareSplit
  /** Paths in messages are shown relative to this directory. @default process.cwd() */
  readonly cwd?: string
  /** Confidence level of the intervals of proportions (Wilson, Newcombe). @default 0.95 */
  readonly level?: number
  /** Scored fixtures: the seed of the paired bootstrap of the mean score difference. @default 'vitest-rubric' */
  readonly seed?: number | string
  /** The several-reviewer rule both fixtures' cases are decided under (the plugin's `reviewers`). @default { minReviews: 0 } */
  readonly panel?: PanelPolicy
  /**
   * A judge whose decisions cover both fixtures' cases: the comparison then also gives the
   * judge-assisted (prediction-powered) B − A of each split over every paired task, from the tasks
   * both fixtures' `sample.json` drew ({@link JudgeAssistedComparison}).
   */
  readonly judge?: string
}

/** One fixture of a comparison. */
export interface ComparedFixture {
  /** `cases.json › name`. */
  readonly name: string
  /** The directory as shown. */
  readonly dir: string
  /** Cases in `cases.json`. */
  readonly cases: number
}

/** The figures of one criterion: the share of pairs meeting it, and the cases B fixed and broke. */
export interface CriterionComparison extends PairedFigures {
  /** Cases that failed the criterion in A and meet it in B. */
  readonly fixed_by_b: readonly string[]
  /** Cases that meet the criterion in A and fail it in B. */
  readonly broken_by_b: readonly string[]
}

/** The comparison of one split of two criteria fixtures. */
export interface SplitComparison extends PairedSplitFigures {
  /** Per criterion, in the rubric's order: meeting it, paired. */
  readonly criteria: Readonly<Record<string, CriterionComparison>>
  /** The discordant cases: accepted by A and rejected by B first, then the reverse. */
  readonly discordant: { readonly a_accepted_b_rejected: readonly string[]; readonly b_accepted_a_rejected: readonly string[] }
}

/** A held-out case whose task is a development case's: the same question and answer text (criteria), the same spec (scored). */
export interface Leak {
  readonly fixture: 'A' | 'B'
  readonly case: string
  /** The development cases with the same text. */
  readonly development: readonly { readonly fixture: 'A' | 'B'; readonly case: string }[]
}

/** What every comparison says, whatever the kind. */
export interface ComparisonBase {
  readonly a: ComparedFixture
  readonly b: ComparedFixture
  /** SHA-256 of the rubric file both fixtures share, byte for byte. */
  readonly rubric_sha256: string
  readonly split: CompareSplit
  readonly level: number
  /** Case ids in one fixture only: listed, never paired. */
  readonly unpaired: { readonly a_only: readonly string[]; readonly b_only: readonly string[] }
  /** Case ids in both fixtures but in different splits: listed, in no split's figures. */
  readonly split_mismatch: readonly { readonly case: string; readonly a: Split; readonly b: Split }[]
  readonly leaks: readonly Leak[]
  /** With the `judge` option: B − A by prediction-powered inference, per split. Absent otherwise. */
  readonly judge_assisted?: JudgeAssistedComparison
}

/** The comparison of two criteria fixtures on one rubric (`vitest-rubric compare`). */
export interface CriteriaFixtureComparison extends ComparisonBase {
  readonly kind: 'criteria'
  /** SHA-256 of the `source.txt` both fixtures share, byte for byte. */
  readonly source_sha256: string
  /** The splits compared, held-out first. */
  readonly splits: readonly SplitComparison[]
}

/** The comparison of the debate systems of two scored fixtures on one `evaluation_rubric.json`. */
export interface ScoredFixtureComparison extends ComparisonBase {
  readonly kind: 'scored'
  /** Case ids in both fixtures whose specs differ: not the same task, so in no split's figures. */
  readonly spec_mismatch: readonly string[]
  /** The seed of the bootstrap intervals. */
  readonly seed: string
  /** The splits compared, held-out first. */
  readonly splits: readonly ScoredSplitComparison[]
}

/** The comparison of two fixtures of one kind. */
export type FixtureComparison = CriteriaFixtureComparison | ScoredFixtureComparison

/**
 * Compares two systems' answers to the same tasks under one rubric: two criteria fixtures with
 * byte-identical `rubric.json` and `source.txt` (or two scored fixtures with the same
 * `evaluation_rubric.json`), cases paired by id. Each split is compared apart; a pair counts when
 * both cases are decided, and the others are counted as coverage. Throws
 * {@link FixturesNotComparableError} when the rubric or the source differ, naming the file.
 */
export async function compareFixtures(dirA: string, dirB: string, options: CompareOptions = {}): Promise<FixtureComparison> {
  const loadOptions = options.cwd === undefined ? {} : { cwd: options.cwd }
  const a = await loadFixture(dirA, loadOptions)
  const b = await loadFixture(dirB, loadOptions)
  checkComparable(a, b)
  let compared: { comparison: FixtureComparison; pairs: Map<Split, [PairedDecision, PairedDecision][]> }
  if (a.kind === 'criteria' && b.kind === 'criteria') compared = compareCriteria(a, b, options)
  else if (a.kind === 'scored' && b.kind === 'scored') compared = compareScored(a, b, options)
  // checkComparable refuses two fixtures of different kinds.
  else throw new Error(`internal error: fixtures of kinds ${a.kind} and ${b.kind} reached the comparison`)
  const { comparison, pairs } = compared
  if (options.judge === undefined) return comparison
  const judged = await judgeAssistedComparison(
    { a, b },
    // A split without a paired task has nothing to estimate.
    comparison.splits.map(({ split }) => ({ split, pairs: pairs.get(split)! })).filter((each) => each.pairs.length > 0),
    { judge: options.judge, cwd: options.cwd ?? process.cwd(), level: comparison.level },
  )
  return { ...comparison, judge_assisted: judged }
}

/** A decision as pairing reads it. */
type PairedDecision = Decision & { readonly id: string; readonly split: Split }

function checkComparable(a: Fixture, b: Fixture): void {
  if (a.kind !== b.kind) {
    throw new FixturesNotComparableError({
      code: 'FIXTURES_NOT_COMPARABLE',
      file: b.displayDir,
      summary: `the two fixtures are of different kinds: ${a.displayDir} is a ${a.kind} fixture, ${b.displayDir} a ${b.kind} one`,
      expected: `a ${a.kind} fixture, as ${a.displayDir} is`,
      found: `a ${b.kind} fixture`,
      hint: NOT_COMPARABLE_HINT,
    })
  }
  for (const role of ['rubric', 'source'] as const) {
    const fileA = a.files[role]
    const fileB = b.files[role]
    if (fileA === undefined || fileB === undefined || fileA.sha256 === fileB.sha256) continue
    throw new FixturesNotComparableError({
      code: 'FIXTURES_NOT_COMPARABLE',
      file: fileB.display,
      summary: `the two fixtures' ${fileA.name} differ: a comparison needs the same rubric${a.kind === 'criteria' ? ' and source' : ''}, byte for byte`,
      expected: `the bytes of ${fileA.display} (SHA-256 ${fileA.sha256})`,
      found: `SHA-256 ${fileB.sha256}`,
      hint: NOT_COMPARABLE_HINT,
    })
  }
}

/** What both kinds pair alike: ids in one fixture only, ids in different splits, and the pairs of each split. */
function pairUp<D extends { readonly id: string; readonly split: Split }>(
  a: readonly D[],
  b: readonly D[],
  excluded: ReadonlySet<string> = new Set(),
): Pick<ComparisonBase, 'unpaired' | 'split_mismatch'> & { pairs: Map<Split, [D, D][]> } {
  const byIdB = new Map(b.map((decision) => [decision.id, decision]))
  const idsA = new Set(a.map((decision) => decision.id))
  const pairs = new Map<Split, [D, D][]>([
    ['held_out', []],
    ['development', []],
  ])
  const splitMismatch: { case: string; a: Split; b: Split }[] = []
  for (const left of a) {
    const right = byIdB.get(left.id)
    if (right === undefined || excluded.has(left.id)) continue
    if (left.split !== right.split) splitMismatch.push({ case: left.id, a: left.split, b: right.split })
    else pairs.get(left.split)!.push([left, right])
  }
  return {
    unpaired: {
      a_only: a.filter((decision) => !byIdB.has(decision.id)).map((decision) => decision.id),
      b_only: b.filter((decision) => !idsA.has(decision.id)).map((decision) => decision.id),
    },
    split_mismatch: splitMismatch,
    pairs,
  }
}

function evaluateOptions(options: CompareOptions): { readonly panel?: PanelPolicy } {
  return options.panel === undefined ? {} : { panel: options.panel }
}

function splitsOf(split: CompareSplit): Split[] {
  return split === 'all' ? ['held_out', 'development'] : [split]
}

function base(a: Fixture, b: Fixture, options: CompareOptions) {
  return {
    a: { name: a.name, dir: a.displayDir, cases: a.cases.length },
    b: { name: b.name, dir: b.displayDir, cases: b.cases.length },
    rubric_sha256: a.files.rubric!.sha256,
    split: options.split ?? 'all',
    level: options.level ?? 0.95,
  }
}

function compareCriteria(
  a: LoadedFixture<'criteria'>,
  b: LoadedFixture<'criteria'>,
  options: CompareOptions,
): { comparison: CriteriaFixtureComparison; pairs: Map<Split, [CriteriaDecision, CriteriaDecision][]> } {
  const level = options.level ?? 0.95
  const criteria = a.rubric.document.criteria.map((criterion) => criterion.id)
  const evaluate = evaluateOptions(options)
  const { pairs, ...paired } = pairUp(evaluateFixture(a, evaluate).decisions, evaluateFixture(b, evaluate).decisions)
  const { a: fixtureA, b: fixtureB, rubric_sha256, split } = base(a, b, options)
  const comparison: CriteriaFixtureComparison = {
    kind: 'criteria',
    a: fixtureA,
    b: fixtureB,
    rubric_sha256,
    source_sha256: a.files.source!.sha256,
    split,
    level,
    ...paired,
    leaks: findLeaks(a, b, criteriaText),
    splits: splitsOf(split).map((each) => compareSplit(each, pairs.get(each)!, criteria, level)),
  }
  return { comparison, pairs }
}

function compareScored(
  a: LoadedFixture<'scored'>,
  b: LoadedFixture<'scored'>,
  options: CompareOptions,
): { comparison: ScoredFixtureComparison; pairs: Map<Split, [PairedDecision, PairedDecision][]> } {
  const level = options.level ?? 0.95
  const seed = options.seed ?? DEFAULT_SEED
  const mismatched = specMismatches(a, b)
  const evaluate = evaluateOptions(options)
  const { pairs, ...paired } = pairUp(evaluateFixture(a, evaluate).decisions, evaluateFixture(b, evaluate).decisions, mismatched)
  const { a: fixtureA, b: fixtureB, rubric_sha256, split } = base(a, b, options)
  const comparison: ScoredFixtureComparison = {
    kind: 'scored',
    a: fixtureA,
    b: fixtureB,
    rubric_sha256,
    split,
    level,
    seed: String(seed),
    ...paired,
    spec_mismatch: [...mismatched],
    leaks: findLeaks(a, b, specText),
    splits: splitsOf(split).map((each) => compareScoredSplit(each, pairs.get(each)!, level, seed)),
  }
  return { comparison, pairs }
}

function compareSplit(split: Split, pairs: readonly [CriteriaDecision, CriteriaDecision][], criteria: readonly string[], level: number): SplitComparison {
  const decided = pairs.filter(([left, right]) => isDecided(left) && isDecided(right))
  const aAccepted = decided.filter(([x, y]) => x.status === 'accepted' && y.status === 'rejected').map(([x]) => x.id)
  const bAccepted = decided.filter(([x, y]) => x.status === 'rejected' && y.status === 'accepted').map(([x]) => x.id)
  const acceptance = figures(
    {
      both: decided.filter(([x, y]) => x.status === 'accepted' && y.status === 'accepted').length,
      aOnly: aAccepted.length,
      bOnly: bAccepted.length,
      neither: decided.filter(([x, y]) => x.status === 'rejected' && y.status === 'rejected').length,
    },
    level,
  )
  const perCriterion: Record<string, CriterionComparison> = {}
  for (const criterion of criteria) {
    const meets = (decision: CriteriaDecision) => decision.status !== 'refused' && decision.ratings[criterion] === 'meets'
    const fixed = decided.filter(([x, y]) => !meets(x) && meets(y)).map(([x]) => x.id)
    const broken = decided.filter(([x, y]) => meets(x) && !meets(y)).map(([x]) => x.id)
    const both = decided.filter(([x, y]) => meets(x) && meets(y)).length
    perCriterion[criterion] = {
      ...figures({ both, aOnly: broken.length, bOnly: fixed.length, neither: decided.length - both - fixed.length - broken.length }, level),
      fixed_by_b: fixed,
      broken_by_b: broken,
    }
  }
  return {
    split,
    ...standingOf(split),
    coverage: coverageOf(pairs, isDecided),
    acceptance,
    worst_case: undecidedCase(pairs, isDecided, level),
    best_case: undecidedCase(pairs, isDecided, level, 'a'),
    criteria: perCriterion,
    discordant: { a_accepted_b_rejected: aAccepted, b_accepted_a_rejected: bAccepted },
  }
}

// A graded decision judged every criterion, none uncertain: its ratings are complete.
function isDecided(decision: { readonly status: string }): boolean {
  return decision.status === 'accepted' || decision.status === 'rejected'
}

/** The question and answer text of a case, as written; `undefined` when the case does not have them (it is refused). */
function criteriaText(value: unknown): string | undefined {
  const question = valueAt(value, ['input', 'question'])
  const text = valueAt(value, ['input', 'answer', 'text'])
  if (typeof question !== 'string' || typeof text !== 'string') return undefined
  return JSON.stringify([question, text])
}

function findLeaks(a: Fixture, b: Fixture, textOf: (value: CaseEntry['value']) => string | undefined): Leak[] {
  const fixtures = [
    ['A', a],
    ['B', b],
  ] as const
  const development = new Map<string, { fixture: 'A' | 'B'; case: string }[]>()
  for (const [name, fixture] of fixtures) {
    for (const entry of fixture.cases) {
      const text = entry.split === 'development' ? textOf(entry.value) : undefined
      if (text === undefined) continue
      const list = development.get(text)
      if (list === undefined) development.set(text, [{ fixture: name, case: entry.id }])
      else list.push({ fixture: name, case: entry.id })
    }
  }
  const leaks: Leak[] = []
  for (const [name, fixture] of fixtures) {
    for (const entry of fixture.cases) {
      const text = entry.split === 'held_out' ? textOf(entry.value) : undefined
      const matches = text === undefined ? undefined : development.get(text)
      if (matches !== undefined) leaks.push({ fixture: name, case: entry.id, development: matches })
    }
  }
  return leaks
}
