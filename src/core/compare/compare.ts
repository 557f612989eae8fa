import { RubricError } from '../common/errors.js'
import type { Split } from '../common/primitives.js'
import type { KindComparison } from '../contract/kind.js'
import { DEFAULT_SEED } from '../stats/bootstrap.js'
import { coverageOf, figures, standingOf, undecidedCase, type PairedSplitFigures } from './compare-figures.js'
import type { CompareSplit, ComparisonBase, Leak, SomeFixtureComparison } from './comparison.js'
import { judgeAssistedComparison, type JudgeAssistedComparison } from './compare-judge.js'
import { evaluateFixture } from '../engine/evaluate.js'
import type { PanelPolicy } from '../engine/panel-rule.js'
import type { Decision } from '../contract/decision.js'
import { kindContext, loadFixture, type SomeFixture } from '../engine/fixture.js'
import type { KindRegistry } from '../engine/registry.js'
import { kinds, type FixtureComparison } from '../registry.js'

export {
  DEVELOPMENT_LABEL,
  type ComparisonCoverage,
  type PairedFigures,
  type PairedSplitFigures,
  type RateFigure,
  type UndecidedCase,
} from './compare-figures.js'
export type { ComparedFixture, ComparisonBase, CompareSplit, KindFixtureComparison, Leak, SomeFixtureComparison } from './comparison.js'
export type { JudgeAssistedComparison, JudgeAssistedRefusal, JudgeAssistedSplit, JudgeGaps } from './compare-judge.js'
export type { FixtureComparison } from '../registry.js'

/** What to do about a `FIXTURES_NOT_COMPARABLE` error (docs/errors.md). */
export const NOT_COMPARABLE_HINT =
  'compare fixtures made from one rubric and source (vitest-rubric init <B> --from <A>), or bring the two files to the same bytes; see docs/compare.md.'

/** Two fixtures `compareFixtures` cannot compare: their rubric or source differ, or they are of different kinds. */
export class FixturesNotComparableError extends RubricError {}

/** Options of {@link compareFixtures}. */
export interface CompareOptions {
  /** The split to compare; `'all'` gives each split its own figures. @default 'all' */
  readonly split?: CompareSplit
  /** Paths in messages are shown relative to this directory. @default process.cwd() */
  readonly cwd?: string
  /** Confidence level of the intervals of proportions (Wilson, Newcombe). @default 0.95 */
  readonly level?: number
  /** The seed of anything a kind's comparison draws at random: a scored comparison's paired bootstrap of the mean score difference. @default 'vitest-rubric' */
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

/**
 * Compares two systems' answers to the same tasks under one rubric: two criteria fixtures with
 * byte-identical `rubric.json` and `source.txt` (or two scored fixtures with the same
 * `evaluation_rubric.json`), cases paired by id. Each split is compared apart; a pair counts when
 * both cases are decided, and the others are counted as coverage. Throws
 * {@link FixturesNotComparableError} when the rubric or the source differ, naming the file.
 */
export async function compareFixtures(dirA: string, dirB: string, options: CompareOptions = {}): Promise<FixtureComparison> {
  // Cast: a shipped kind's comparison is built by its own definition, so it is that kind's member of the union.
  return (await compareKindFixtures(dirA, dirB, { ...options, kinds })) as FixtureComparison
}

/**
 * {@link compareFixtures} over the kinds of `options.kinds`: the figures every kind shares are
 * computed here, and the kind's definition (its `compare`) gives its own.
 * @internal
 */
export async function compareKindFixtures(
  dirA: string,
  dirB: string,
  options: CompareOptions & {
    readonly kinds: KindRegistry
    /** The decisions to pair in place of each fixture's own: what a blind reviewer is shown of each case, never more. */
    readonly shown?: { readonly a: readonly Decision[]; readonly b: readonly Decision[] }
  },
): Promise<SomeFixtureComparison> {
  const loadOptions = options.cwd === undefined ? {} : { cwd: options.cwd }
  const a = await loadFixture(options.kinds, dirA, loadOptions)
  const b = await loadFixture(options.kinds, dirB, loadOptions)
  const compare = comparisonOf(a, b)
  const level = options.level ?? 0.95
  const parameters = { level, seed: options.seed ?? DEFAULT_SEED }
  const contexts = { a: kindContext(a), b: kindContext(b) }
  const shared = compare.shared({ context: contexts.a, cases: a.cases }, { context: contexts.b, cases: b.cases }, parameters)
  const evaluate = options.panel === undefined ? {} : { panel: options.panel }
  const decisions = options.shown ?? { a: evaluateFixture(a, evaluate).decisions, b: evaluateFixture(b, evaluate).decisions }
  const { pairs, ...paired } = pairUp(decisions.a, decisions.b, shared.notPaired)
  const split = options.split ?? 'all'
  const comparison: SomeFixtureComparison = {
    kind: a.kind,
    a: { name: a.name, dir: a.displayDir, cases: a.cases.length },
    b: { name: b.name, dir: b.displayDir, cases: b.cases.length },
    rubric_sha256: a.files.rubric.sha256,
    ...shared.figures,
    split,
    level,
    ...paired,
    leaks: findLeaks(a, b, compare.leakText),
    splits: (split === 'all' ? (['held_out', 'development'] as const) : [split]).map((each) =>
      compareSplit(each, pairs.get(each)!, level, (decided) => compare.split(decided, contexts.a, parameters)),
    ),
  }
  if (options.judge === undefined) return comparison
  const judged = await judgeAssistedComparison(
    { a, b },
    // A split without a paired task has nothing to estimate.
    comparison.splits.map(({ split }) => ({ split, pairs: pairs.get(split)! })).filter((each) => each.pairs.length > 0),
    { judge: options.judge, cwd: options.cwd ?? process.cwd(), level },
  )
  return { ...comparison, judge_assisted: judged }
}

/** A decision as pairing reads it. */
type PairedDecision = Decision & { readonly id: string; readonly split: Split }

/** The comparison of the two fixtures' kind, once they are known to be comparable: of one kind, on the same rubric (and source). */
function comparisonOf(a: SomeFixture, b: SomeFixture): KindComparison<unknown, Decision> {
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
      summary: `the two fixtures' ${fileA.name} differ: a comparison needs the same rubric${a.files.source === undefined ? '' : ' and source'}, byte for byte`,
      expected: `the bytes of ${fileA.display} (SHA-256 ${fileA.sha256})`,
      found: `SHA-256 ${fileB.sha256}`,
      hint: NOT_COMPARABLE_HINT,
    })
  }
  const compare = a.definition.compare
  if (compare === undefined) {
    throw new FixturesNotComparableError({
      code: 'FIXTURES_NOT_COMPARABLE',
      file: a.displayDir,
      summary: `fixtures of the ${a.kind} kind cannot be compared: the kind defines no comparison`,
      expected: 'fixtures of a kind that defines a comparison (`compare` in its definition)',
      found: `two ${a.kind} fixtures`,
      hint: 'compare fixtures of another kind, or give the kind a comparison; see docs/compare.md.',
    })
  }
  return compare
}

/** What every kind pairs alike: ids in one fixture only, ids in different splits, and the pairs of each split. */
function pairUp<D extends { readonly id: string; readonly split: Split }>(
  a: readonly D[],
  b: readonly D[],
  excluded: ReadonlySet<string>,
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

/**
 * One split of two fixtures: its coverage, the paired acceptance over the pairs decided in both
 * with its worst and best cases, the discordant cases, and the kind's own figures of the decided
 * pairs (`kindFigures`), before the discordant cases.
 * @internal
 */
export function compareSplit<D extends PairedDecision, S extends object>(
  split: Split,
  pairs: readonly (readonly [D, D])[],
  level: number,
  kindFigures: (decided: readonly (readonly [D, D])[]) => S,
): PairedSplitFigures & S {
  const decided = pairs.filter(([left, right]) => isDecided(left) && isDecided(right))
  const aAccepted = decided.filter(([x, y]) => x.status === 'accepted' && y.status === 'rejected').map(([x]) => x.id)
  const bAccepted = decided.filter(([x, y]) => x.status === 'rejected' && y.status === 'accepted').map(([x]) => x.id)
  const both = decided.filter(([x, y]) => x.status === 'accepted' && y.status === 'accepted').length
  return {
    split,
    ...standingOf(split),
    coverage: coverageOf(pairs, isDecided),
    acceptance: figures(
      { both, aOnly: aAccepted.length, bOnly: bAccepted.length, neither: decided.length - both - aAccepted.length - bAccepted.length },
      level,
    ),
    worst_case: undecidedCase(pairs, isDecided, level),
    best_case: undecidedCase(pairs, isDecided, level, 'a'),
    ...kindFigures(decided),
    discordant: { a_accepted_b_rejected: aAccepted, b_accepted_a_rejected: bAccepted },
  }
}

// A decided case (accepted or rejected) was graded in full: nothing of it is pending or refused.
function isDecided(decision: { readonly status: string }): boolean {
  return decision.status === 'accepted' || decision.status === 'rejected'
}

function findLeaks(a: SomeFixture, b: SomeFixture, textOf: (value: unknown) => string | undefined): Leak[] {
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
