// How two scored fixtures are compared: their debate systems, the baseline left out. Beside the
// paired pass figures every kind gets, the paired difference of per-case mean scores; a case whose
// spec differs in the two fixtures is not the same task, so not a pair.
import { CanonicalJsonError } from '../../common/errors.js'
import { plural } from '../../common/primitives.js'
import type { ComparisonBase } from '../../compare/comparison.js'
import type { PairedSplitFigures } from '../../compare/compare-figures.js'
import type { ComparedSide, KindComparison } from '../../contract/kind.js'
import { canonicalJson } from '../../json/canonical-json.js'
import { DEFAULT_BOOTSTRAP_SAMPLES, MIN_BOOTSTRAP_CASES } from '../../stats/bootstrap.js'
import { pairedDifference } from '../../stats/intervals.js'
import type { ScoredDecision } from './decision.js'
import type { ScoredRubric } from './rubric.js'

/** The paired difference of per-case mean scores, B − A, over the cases scoreable for both. */
export interface ScoreDifference {
  /** Pairs scoreable in both (passed or failed by the per-case rule). */
  readonly n: number
  /** Mean of A's per-case mean scores over the pairs; `null` without pairs. */
  readonly a_mean: number | null
  readonly b_mean: number | null
  /** Mean of the per-case differences B − A; `null` without pairs. */
  readonly difference: number | null
  /** Its standard error, √(Σ(dᵢ − d̄)² / (n(n − 1))); `null` for fewer than two pairs. */
  readonly se: number | null
  /** Seeded percentile bootstrap interval of the difference; `null` with `interval_reason`. */
  readonly interval: readonly [number, number] | null
  readonly interval_reason: string | null
  /** What the bootstrap resampled: the pairs (cases), each drawn with both systems' scores. `null` when nothing was drawn. */
  readonly bootstrap: { readonly resampled: 'cases'; readonly cases: number; readonly replicates: number; readonly seed: string } | null
}

/** What a scored comparison says of the two fixtures beside what every comparison says. */
export interface ScoredSharedFigures {
  /** The seed of the bootstrap intervals. */
  readonly seed: string
  /** Case ids in both fixtures whose specs differ: not the same task, so in no split's figures. */
  readonly spec_mismatch: readonly string[]
}

/** What a scored comparison says of a split beside what every comparison says. */
export interface ScoredSplitFigures {
  readonly scores: ScoreDifference
}

/** The comparison of one split of two scored fixtures. */
export interface ScoredSplitComparison extends PairedSplitFigures, ScoredSplitFigures {}

/** The comparison of the debate systems of two scored fixtures on one `evaluation_rubric.json`. */
export interface ScoredFixtureComparison extends ComparisonBase, ScoredSharedFigures {
  readonly kind: 'scored'
  /** The splits compared, held-out first. */
  readonly splits: readonly ScoredSplitComparison[]
}

function meanOf(decision: ScoredDecision): number {
  return decision.status === 'accepted' || decision.status === 'rejected' ? (decision.card.mean ?? 0) : 0
}

function scoreDifference(means: readonly (readonly [number, number])[], seed: number | string): ScoreDifference {
  const n = means.length
  // pairedDifference gives the mean of first − second: B's score goes first.
  const difference = pairedDifference(
    means.map(([a, b]): [number, number] => [b, a]),
    { seed },
  )
  const average = (side: 0 | 1) => (n === 0 ? null : means.reduce((sum, pair) => sum + pair[side], 0) / n)
  const enough = n >= MIN_BOOTSTRAP_CASES && difference.low !== null && difference.high !== null
  return {
    n,
    a_mean: average(0),
    b_mean: average(1),
    difference: difference.mean,
    se: difference.se,
    interval: enough ? [difference.low!, difference.high!] : null,
    interval_reason: enough
      ? null
      : n === 0
        ? 'no case is scoreable for both systems'
        : `cases to resample: ${n}, fewer than the ${MIN_BOOTSTRAP_CASES} a bootstrap interval needs`,
    bootstrap: enough ? { resampled: 'cases', cases: n, replicates: DEFAULT_BOOTSTRAP_SAMPLES, seed: String(seed) } : null,
  }
}

/** The case ids, in A's order, paired in both fixtures whose specs differ: not the same task, so not a pair. */
function specMismatches(a: ComparedSide<ScoredRubric>, b: ComparedSide<ScoredRubric>): Set<string> {
  const specs = new Map(b.cases.map((entry) => [entry.id, specText(entry.value)]))
  const mismatched = new Set<string>()
  for (const entry of a.cases) {
    if (!specs.has(entry.id)) continue
    const left = specText(entry.value)
    if (left === undefined || left !== specs.get(entry.id)) mismatched.add(entry.id)
  }
  return mismatched
}

/** A case's spec as canonical JSON; `undefined` when it has none that can be written so (the case is refused). */
function specText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !('spec' in value)) return undefined
  try {
    return canonicalJson(value.spec)
  } catch (error) {
    if (error instanceof CanonicalJsonError) return undefined
    throw error
  }
}

/** The paired difference of mean scores, in words: the means, the difference, its SE and bootstrap interval, or why there is none. */
function scoreLine({ scores }: ScoredSplitFigures): string {
  if (scores.difference === null) return 'mean score: no figure: no case is scoreable for both systems'
  const figure = (value: number | null) => (value === null ? '—' : value.toFixed(4))
  const signed = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value).toFixed(4)}`
  const interval =
    scores.interval === null
      ? `no interval: ${scores.interval_reason ?? ''}`
      : `95% paired bootstrap interval [${signed(scores.interval[0])}, ${signed(scores.interval[1])}] (${plural(scores.bootstrap?.replicates ?? 0, 'replicate')} resampling the ${plural(scores.n, 'case')}, seed ${JSON.stringify(scores.bootstrap?.seed ?? '')})`
  return `mean score over ${plural(scores.n, 'case')} scoreable in both: A ${figure(scores.a_mean)}, B ${figure(scores.b_mean)}; B − A = ${signed(scores.difference)}, SE ${figure(scores.se)}; ${interval}`
}

/**
 * Two scored fixtures compared: their debate systems' pass figures, and the paired difference of
 * per-case mean scores over the pairs scoreable in both (passed or failed by the per-case rule),
 * with the same bootstrap as the baseline margin (pairs resampled, seeded).
 */
export const scoredComparison: KindComparison<ScoredRubric, ScoredDecision, ScoredSharedFigures, ScoredSplitFigures> = {
  leakText: specText,
  shared: (a, b, { seed }) => {
    const mismatched = specMismatches(a, b)
    return { figures: { seed: String(seed), spec_mismatch: [...mismatched] }, notPaired: mismatched }
  },
  split: (decided, _context, { seed }) => ({
    scores: scoreDifference(
      decided.map(([x, y]) => [meanOf(x), meanOf(y)] as const),
      seed,
    ),
  }),
  text: {
    nouns: { accepted: 'passed', rejected: 'failed' },
    leaked: 'the spec',
    same: (shared) => `same evaluation_rubric.json (SHA-256 ${shared.rubric_sha256}); the debate system of each fixture is compared, its baseline left out`,
    notes: (shared) => shared.spec_mismatch.map((id) => `not paired: ${id} has a different spec in A and in B`),
    items: null,
    rows: () => [],
    line: scoreLine,
  },
}
