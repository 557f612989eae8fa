import { RubricError } from '../common/errors.js'
import type { Split } from '../common/primitives.js'
import type { CriteriaDecision } from '../kinds/criteria/decision.js'
import { pairedProportions, type PairedCounts, type PairedProportions } from '../stats/paired.js'
import { evaluateFixture } from './evaluate.js'
import { loadFixture, type Fixture, type LoadedFixture } from './fixture.js'

/** What to do about a `FIXTURES_NOT_COMPARABLE` error (docs/errors.md). */
export const NOT_COMPARABLE_HINT = 'compare fixtures made from one rubric and source (vitest-rubric init <B> --from <A>), or bring the two files to the same bytes; see docs/compare.md.'

/** Two fixtures `compareFixtures` cannot compare: their rubric or source differ, or their kind is not compared (yet). */
export class FixturesNotComparableError extends RubricError {}

/** Which split a comparison covers: one of them, or each of them, side by side and never pooled. */
export type CompareSplit = Split | 'all'

/** Options of {@link compareFixtures}. */
export interface CompareOptions {
  /** The split to compare; `'all'` gives each split its own figures. @default 'all' */
  readonly split?: CompareSplit
  /** Paths in messages are shown relative to this directory. @default process.cwd() */
  readonly cwd?: string
  /** Confidence level of every interval. @default 0.95 */
  readonly level?: number
}

/** The label of every comparison over development cases: they tuned the systems, so they measure nothing beyond themselves. */
export const DEVELOPMENT_LABEL = 'development material: not a result beyond these examples'

/** One fixture of a comparison. */
export interface ComparedFixture {
  /** `cases.json › name`. */
  readonly name: string
  /** The directory as shown. */
  readonly dir: string
  /** Cases in `cases.json`. */
  readonly cases: number
}

/** The paired figures of one 2×2 table, as `compare --json` prints them (docs/compare.md). */
export interface PairedFigures {
  /** Pairs counted: both decided (for a criterion, both judged). */
  readonly n: number
  readonly table: { readonly both: number; readonly a_only: number; readonly b_only: number; readonly neither: number }
  readonly a: RateFigure
  readonly b: RateFigure
  /** B − A, as a proportion; `null` without pairs. */
  readonly difference: number | null
  /** Newcombe's method 10 interval of B − A; `null` without pairs. */
  readonly difference_interval: readonly [number, number] | null
  readonly mcnemar: { readonly discordant: number; readonly p_value: number }
  /** Why a figure is `null`; `null` when none is. */
  readonly reason: string | null
}

/** A system's pass rate over the pairs with its Wilson interval. */
export interface RateFigure {
  readonly passed: number
  readonly rate: number | null
  readonly interval: readonly [number, number] | null
}

/** The figures of one criterion: the share of pairs meeting it, and the cases B fixed and broke. */
export interface CriterionComparison extends PairedFigures {
  /** Cases that failed the criterion in A and meet it in B. */
  readonly fixed_by_b: readonly string[]
  /** Cases that meet the criterion in A and fail it in B. */
  readonly broken_by_b: readonly string[]
}

/** How many of a split's pairs both systems decided, and why the others are left out. */
export interface ComparisonCoverage {
  /** Cases present in both fixtures, in this split. */
  readonly paired: number
  /** Pairs decided (accepted or rejected) in both: the ones counted. */
  readonly decided: number
  readonly pending: { readonly a: number; readonly b: number }
  readonly refused: { readonly a: number; readonly b: number }
  /** `41 of 50 tasks decided in both; 6 pending in B, 3 refused in A`. */
  readonly line: string
}

/** The comparison of one split. */
export interface SplitComparison {
  readonly split: Split
  /** `'result'` for held-out cases; `'development'` for development material, which is no result. */
  readonly standing: 'result' | 'development'
  /** {@link DEVELOPMENT_LABEL} for development cases; `null` for held-out ones. */
  readonly label: string | null
  readonly coverage: ComparisonCoverage
  /** Acceptance of the case, paired. */
  readonly acceptance: PairedFigures
  /** Per criterion, in the rubric's order: meeting it, paired. */
  readonly criteria: Readonly<Record<string, CriterionComparison>>
  /** The discordant cases: accepted by A and rejected by B first, then the reverse. */
  readonly discordant: { readonly a_accepted_b_rejected: readonly string[]; readonly b_accepted_a_rejected: readonly string[] }
}

/** A held-out case whose question and answer text are those of a development case. */
export interface Leak {
  readonly fixture: 'A' | 'B'
  readonly case: string
  /** The development cases with the same question and answer text. */
  readonly development: readonly { readonly fixture: 'A' | 'B'; readonly case: string }[]
}

/** The comparison of two criteria fixtures on one rubric (`vitest-rubric compare`). */
export interface FixtureComparison {
  readonly kind: 'criteria'
  readonly a: ComparedFixture
  readonly b: ComparedFixture
  /** SHA-256 of the `rubric.json` both fixtures share, byte for byte. */
  readonly rubric_sha256: string
  /** SHA-256 of the `source.txt` both fixtures share, byte for byte. */
  readonly source_sha256: string
  readonly split: CompareSplit
  readonly level: number
  /** Case ids in one fixture only: listed, never paired. */
  readonly unpaired: { readonly a_only: readonly string[]; readonly b_only: readonly string[] }
  /** Case ids in both fixtures but in different splits: listed, in no split's figures. */
  readonly split_mismatch: readonly { readonly case: string; readonly a: Split; readonly b: Split }[]
  readonly leaks: readonly Leak[]
  /** The splits compared, held-out first. */
  readonly splits: readonly SplitComparison[]
}

/**
 * Compares two systems' answers to the same tasks under one rubric: two criteria fixtures with
 * byte-identical `rubric.json` and `source.txt`, cases paired by id. Each split is compared
 * apart; a pair counts when both cases are decided, and the others are counted as coverage.
 * Throws {@link FixturesNotComparableError} when the rubric or the source differ, naming the file.
 */
export async function compareFixtures(dirA: string, dirB: string, options: CompareOptions = {}): Promise<FixtureComparison> {
  const loadOptions = options.cwd === undefined ? {} : { cwd: options.cwd }
  const a = await loadFixture(dirA, loadOptions)
  const b = await loadFixture(dirB, loadOptions)
  return compareLoaded(comparableCriteria(a, b), b as LoadedFixture<'criteria'>, options)
}

function comparableCriteria(a: Fixture, b: Fixture): LoadedFixture<'criteria'> {
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
  if (a.kind !== 'criteria') {
    throw new FixturesNotComparableError({
      code: 'FIXTURES_NOT_COMPARABLE',
      file: a.displayDir,
      summary: `comparing scored fixtures is not supported yet: compare compares criteria fixtures (rubric.json) only`,
      hint: 'compare two criteria fixtures; for a scored benchmark, its baseline margin (vitest-rubric evaluate) is the paired comparison available now.',
    })
  }
  for (const role of ['rubric', 'source'] as const) {
    const fileA = a.files[role]!
    const fileB = b.files[role]!
    if (fileA.sha256 !== fileB.sha256) {
      throw new FixturesNotComparableError({
        code: 'FIXTURES_NOT_COMPARABLE',
        file: fileB.display,
        summary: `the two fixtures' ${fileA.name} differ: a comparison needs the same rubric and source, byte for byte`,
        expected: `the bytes of ${fileA.display} (SHA-256 ${fileA.sha256})`,
        found: `SHA-256 ${fileB.sha256}`,
        hint: NOT_COMPARABLE_HINT,
      })
    }
  }
  return a
}

function compareLoaded(a: LoadedFixture<'criteria'>, b: LoadedFixture<'criteria'>, options: CompareOptions): FixtureComparison {
  const split = options.split ?? 'all'
  const level = options.level ?? 0.95
  const decisionsA = new Map(evaluateFixture(a).decisions.map((decision) => [decision.id, decision]))
  const decisionsB = new Map(evaluateFixture(b).decisions.map((decision) => [decision.id, decision]))
  const criteria = a.rubric.document.criteria.map((criterion) => criterion.id)

  const pairs = new Map<Split, [CriteriaDecision, CriteriaDecision][]>([['held_out', []], ['development', []]])
  const splitMismatch: { case: string; a: Split; b: Split }[] = []
  for (const [id, left] of decisionsA) {
    const right = decisionsB.get(id)
    if (right === undefined) continue
    if (left.split !== right.split) splitMismatch.push({ case: id, a: left.split, b: right.split })
    else pairs.get(left.split)!.push([left, right])
  }
  const splits: Split[] = split === 'all' ? ['held_out', 'development'] : [split]
  return {
    kind: 'criteria',
    a: { name: a.name, dir: a.displayDir, cases: a.cases.length },
    b: { name: b.name, dir: b.displayDir, cases: b.cases.length },
    rubric_sha256: a.files.rubric!.sha256,
    source_sha256: a.files.source!.sha256,
    split,
    level,
    unpaired: {
      a_only: [...decisionsA.keys()].filter((id) => !decisionsB.has(id)),
      b_only: [...decisionsB.keys()].filter((id) => !decisionsA.has(id)),
    },
    split_mismatch: splitMismatch,
    leaks: findLeaks(a, b),
    splits: splits.map((each) => compareSplit(each, pairs.get(each)!, criteria, level)),
  }
}

function compareSplit(split: Split, pairs: readonly [CriteriaDecision, CriteriaDecision][], criteria: readonly string[], level: number): SplitComparison {
  const decided = pairs.filter(([left, right]) => isDecided(left) && isDecided(right))
  const count = (status: 'pending' | 'refused', side: 0 | 1) => pairs.filter((pair) => pair[side].status === status).length
  const pending = { a: count('pending', 0), b: count('pending', 1) }
  const refused = { a: count('refused', 0), b: count('refused', 1) }
  const left = [
    [pending.a, 'pending in A'],
    [pending.b, 'pending in B'],
    [refused.a, 'refused in A'],
    [refused.b, 'refused in B'],
  ] as const
  const gaps = left.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`)
  const line = `${decided.length} of ${pairs.length} task${pairs.length === 1 ? '' : 's'} decided in both${gaps.length === 0 ? '' : `; ${gaps.join(', ')}`}`

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
  const development = split === 'development'
  return {
    split,
    standing: development ? 'development' : 'result',
    label: development ? DEVELOPMENT_LABEL : null,
    coverage: { paired: pairs.length, decided: decided.length, pending, refused, line },
    acceptance,
    criteria: perCriterion,
    discordant: { a_accepted_b_rejected: aAccepted, b_accepted_a_rejected: bAccepted },
  }
}

// A graded decision judged every criterion, none uncertain: its ratings are complete.
function isDecided(decision: CriteriaDecision): boolean {
  return decision.status === 'accepted' || decision.status === 'rejected'
}

function figures(counts: PairedCounts, level: number): PairedFigures {
  const paired: PairedProportions = pairedProportions(counts, { level })
  const pair = (interval: { low: number; high: number } | null) => (interval === null ? null : ([interval.low, interval.high] as const))
  return {
    n: paired.n,
    table: { both: counts.both, a_only: counts.aOnly, b_only: counts.bOnly, neither: counts.neither },
    a: { passed: paired.a.passed, rate: paired.a.rate, interval: pair(paired.a.interval) },
    b: { passed: paired.b.passed, rate: paired.b.rate, interval: pair(paired.b.interval) },
    difference: paired.difference,
    difference_interval: pair(paired.differenceInterval),
    mcnemar: { discordant: paired.mcnemar.discordant, p_value: paired.mcnemar.pValue },
    reason: paired.reason,
  }
}

/** The question and answer text of a case, as written; `undefined` when the case does not have them (it is refused). */
function caseText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const input = (value as { input?: unknown }).input
  if (typeof input !== 'object' || input === null) return undefined
  const { question, answer } = input as { question?: unknown; answer?: unknown }
  const text = typeof answer === 'object' && answer !== null ? (answer as { text?: unknown }).text : undefined
  if (typeof question !== 'string' || typeof text !== 'string') return undefined
  return JSON.stringify([question, text])
}

function findLeaks(a: LoadedFixture<'criteria'>, b: LoadedFixture<'criteria'>): Leak[] {
  const fixtures = [['A', a], ['B', b]] as const
  const development = new Map<string, { fixture: 'A' | 'B'; case: string }[]>()
  for (const [name, fixture] of fixtures) {
    for (const entry of fixture.cases) {
      const text = entry.split === 'development' ? caseText(entry.value) : undefined
      if (text === undefined) continue
      const list = development.get(text)
      if (list === undefined) development.set(text, [{ fixture: name, case: entry.id }])
      else list.push({ fixture: name, case: entry.id })
    }
  }
  const leaks: Leak[] = []
  for (const [name, fixture] of fixtures) {
    for (const entry of fixture.cases) {
      const text = entry.split === 'held_out' ? caseText(entry.value) : undefined
      const matches = text === undefined ? undefined : development.get(text)
      if (matches !== undefined) leaks.push({ fixture: name, case: entry.id, development: matches })
    }
  }
  return leaks
}
