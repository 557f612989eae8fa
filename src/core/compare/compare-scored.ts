import { CanonicalJsonError } from '../common/errors.js'
import { plural, type Split } from '../common/primitives.js'
import { canonicalJson } from '../json/canonical-json.js'
import type { ScoredDecision } from '../kinds/scored/decision.js'
import { DEFAULT_BOOTSTRAP_SAMPLES, MIN_BOOTSTRAP_CASES } from '../stats/bootstrap.js'
import { pairedDifference } from '../stats/intervals.js'
import { coverageOf, figures, standingOf, undecidedCase, type PairedSplitFigures } from './compare-figures.js'
import type { LoadedFixture } from '../registry.js'

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

/** The comparison of one split of two scored fixtures. */
export interface ScoredSplitComparison extends PairedSplitFigures {
  readonly scores: ScoreDifference
  /** Passed by A and failed by B first, then the reverse. */
  readonly discordant: { readonly a_accepted_b_rejected: readonly string[]; readonly b_accepted_a_rejected: readonly string[] }
}

// The per-case rule decided the case: its mean is a score of the benchmark (manual review and no review are not).
function isScoreable(decision: { readonly status: string }): boolean {
  return decision.status === 'accepted' || decision.status === 'rejected'
}

function meanOf(decision: ScoredDecision): number {
  return decision.status === 'accepted' || decision.status === 'rejected' ? (decision.card.mean ?? 0) : 0
}

/**
 * One split of two scored fixtures: the paired pass figures and the paired difference of mean
 * scores, with the same bootstrap as the baseline margin (pairs resampled, seeded).
 * @internal
 */
export function compareScoredSplit(
  split: Split,
  pairs: readonly [ScoredDecision, ScoredDecision][],
  level: number,
  seed: number | string,
): ScoredSplitComparison {
  const decided = pairs.filter(([left, right]) => isScoreable(left) && isScoreable(right))
  const aAccepted = decided.filter(([x, y]) => x.status === 'accepted' && y.status === 'rejected').map(([x]) => x.id)
  const bAccepted = decided.filter(([x, y]) => x.status === 'rejected' && y.status === 'accepted').map(([x]) => x.id)
  const both = decided.filter(([x, y]) => x.status === 'accepted' && y.status === 'accepted').length
  const acceptance = figures(
    { both, aOnly: aAccepted.length, bOnly: bAccepted.length, neither: decided.length - both - aAccepted.length - bAccepted.length },
    level,
  )
  return {
    split,
    ...standingOf(split),
    coverage: coverageOf(pairs, isScoreable),
    acceptance,
    worst_case: undecidedCase(pairs, isScoreable, level),
    best_case: undecidedCase(pairs, isScoreable, level, 'a'),
    scores: scoreDifference(
      decided.map(([x, y]) => [meanOf(x), meanOf(y)] as const),
      seed,
    ),
    discordant: { a_accepted_b_rejected: aAccepted, b_accepted_a_rejected: bAccepted },
  }
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

/** The case ids, in A's order, paired in both fixtures whose specs differ: not the same task, so not a pair. @internal */
export function specMismatches(a: LoadedFixture<'scored'>, b: LoadedFixture<'scored'>): Set<string> {
  const specs = new Map(b.cases.map((entry) => [entry.id, specText(entry.value)]))
  const mismatched = new Set<string>()
  for (const entry of a.cases) {
    if (!specs.has(entry.id)) continue
    const left = specText(entry.value)
    if (left === undefined || left !== specs.get(entry.id)) mismatched.add(entry.id)
  }
  return mismatched
}

/** A case's spec as canonical JSON; `undefined` when it has none that can be written so (the case is refused). @internal */
export function specText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !('spec' in value)) return undefined
  try {
    return canonicalJson(value.spec)
  } catch (error) {
    if (error instanceof CanonicalJsonError) return undefined
    throw error
  }
}

/** The paired difference of mean scores, in words: the means, the difference, its SE and bootstrap interval, or why there is none. @internal */
export function scoreLine(section: ScoredSplitComparison): string {
  const { scores } = section
  if (scores.difference === null) return 'mean score: no figure: no case is scoreable for both systems'
  const figure = (value: number | null) => (value === null ? '—' : value.toFixed(4))
  const signed = (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value).toFixed(4)}`
  const interval =
    scores.interval === null
      ? `no interval: ${scores.interval_reason ?? ''}`
      : `95% paired bootstrap interval [${signed(scores.interval[0])}, ${signed(scores.interval[1])}] (${plural(scores.bootstrap?.replicates ?? 0, 'replicate')} resampling the ${plural(scores.n, 'case')}, seed ${JSON.stringify(scores.bootstrap?.seed ?? '')})`
  return `mean score over ${plural(scores.n, 'case')} scoreable in both: A ${figure(scores.a_mean)}, B ${figure(scores.b_mean)}; B − A = ${signed(scores.difference)}, SE ${figure(scores.se)}; ${interval}`
}
