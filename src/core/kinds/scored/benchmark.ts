import { plural } from '../../common/primitives.js'
import { meanWithError, pairedDifference, wilsonInterval } from '../../stats/index.js'
import type { Interval } from '../../stats/percentile.js'
import { atLeast, type ScoreCard } from './case-rule.js'
import type { ScoredDecision } from './decision.js'
import { formatFigure, formatThreshold, mean } from './dimensions/score.js'
import type { RubricRules } from './rubric.js'

/** One system's benchmark figures, computed over its scoreable cases only. */
export interface SystemFigures {
  /** Cases the per-case rule decided (pass or fail): the denominator of the pass fraction. */
  readonly scoreable: number
  readonly passed: number
  /** Cases with fewer applicable dimensions than the rubric's minimum: flagged for manual review, excluded. */
  readonly unscoreable: number
  readonly notReviewed: number
  readonly refused: number
  /** `passed / scoreable`; `null` without a scoreable case. */
  readonly passFraction: number | null
  /** The mean of the scoreable cases' means; `null` without a scoreable case. */
  readonly mean: number | null
  /** Per dimension, the mean over the scoreable cases where it applies; `null` where it never does. */
  readonly dimensionMeans: Readonly<Record<string, number | null>>
  /** The Wilson 95% interval of the pass fraction; `null` without a scoreable case. */
  readonly passInterval: readonly [number, number] | null
  /** The standard error of the mean case score, √(Σ(sᵢ − s̄)² / (n(n − 1))); `null` for fewer than two cases. */
  readonly meanSe: number | null
}

/**
 * The margin over the baseline as a paired comparison, over the cases scoreable for both systems:
 * the mean of the per-case differences (system − baseline), its standard error and a seeded
 * paired-bootstrap 95% interval. The rubric's own gate compares the two means; this says how far
 * the margin can be trusted.
 */
export interface PairedMargin {
  readonly n: number
  readonly mean: number | null
  readonly se: number | null
  readonly interval: readonly [number, number] | null
  /** Whether the interval's lower bound also reaches the rubric's margin; `null` without an interval. */
  readonly lowerBoundClears: boolean | null
}

/** What the benchmark's figures ask beyond the decisions. */
export interface BenchmarkOptions {
  /** The seed of the paired bootstrap. */
  readonly seed: number | string
  /**
   * `'point'`: the baseline gate compares the margin as the rubric states it (the point estimate).
   * `'lower-bound'`: the paired interval's lower bound must reach the margin too.
   */
  readonly marginGate: 'point' | 'lower-bound'
}

export const DEFAULT_BENCHMARK_OPTIONS: BenchmarkOptions = { seed: 'vitest-rubric', marginGate: 'point' }

/** Whether a benchmark-level check passes, and the figures that say why. */
export interface GateResult {
  readonly passed: boolean
  readonly message: string
}

/** The benchmark-level figures of a scored fixture: what its two checks and the reporter show. */
export interface BenchmarkFigures {
  /** Every figure the gates compare with, as read from the rubric file. */
  readonly thresholds: {
    readonly perDimensionPass: number
    readonly overallCasePass: number
    readonly benchmarkPassFraction: number
    readonly baselineMargin: number
    readonly minApplicable: number
  }
  /** The debate system under test. */
  readonly system: SystemFigures
  /** The trivial single-pass baseline, scored under the rubric's adaptations. */
  readonly baseline: SystemFigures
  /** `system.mean − baseline.mean`; `null` when either is missing. */
  readonly margin: number | null
  /** The same margin, paired case by case, with its uncertainty. */
  readonly paired: PairedMargin
  /** Which estimate the baseline gate compares with the rubric's margin. */
  readonly marginGate: 'point' | 'lower-bound'
  readonly gates: {
    /** Pass fraction ≥ `benchmark_pass_fraction` and mean ≥ `overall_case_pass`. */
    readonly benchmark: GateResult
    /** The system's mean exceeds the baseline's by at least the rubric's margin. */
    readonly baseline: GateResult
  }
}

type Entry = { readonly id: string } & ({ readonly kind: 'card'; readonly card: ScoreCard } | { readonly kind: 'not_reviewed' | 'refused' })

/**
 * The benchmark figures and both gates. Cases flagged for manual review are excluded, as the rubric
 * says. A refused or unreviewed case is not excluded: it is unknown, so a gate over the rest would
 * not be the benchmark's gate, and the gate cannot pass until every case is decided. Each system's
 * mean is taken over its own scoreable cases (the same rubric applied to each).
 */
export function benchmarkFigures(
  decisions: readonly ScoredDecision[],
  rules: RubricRules,
  options: BenchmarkOptions = DEFAULT_BENCHMARK_OPTIONS,
): BenchmarkFigures {
  const systemEntries = decisions.map((decision): Entry => {
    if (decision.status === 'refused') return { id: decision.id, kind: 'refused' }
    if (decision.card === null) return { id: decision.id, kind: 'not_reviewed' }
    return { id: decision.id, kind: 'card', card: decision.card }
  })
  const baselineEntries = decisions.map(({ id, baseline }): Entry => {
    if (baseline.status === 'scored') return { id, kind: 'card', card: baseline.card }
    return { id, kind: baseline.status }
  })
  const system = systemFigures(systemEntries, rules)
  const baseline = systemFigures(baselineEntries, rules)
  const margin = system.mean === null || baseline.mean === null ? null : system.mean - baseline.mean
  const paired = pairedMargin(systemEntries, baselineEntries, rules, options.seed)
  const pointGate = baselineGate(system, baseline, systemEntries, baselineEntries, rules)
  return {
    thresholds: { ...rules.thresholds, baselineMargin: rules.baselineMargin, minApplicable: rules.minApplicable },
    system,
    baseline,
    margin,
    paired,
    marginGate: options.marginGate,
    gates: {
      benchmark: benchmarkGate(system, systemEntries, rules),
      baseline: options.marginGate === 'lower-bound' ? lowerBoundGate(pointGate, paired, rules) : pointGate,
    },
  }
}

function isScoreable(entry: Entry): entry is Entry & { kind: 'card' } {
  return entry.kind === 'card' && entry.card.verdict !== 'manual_review'
}

function pairedMargin(systemEntries: readonly Entry[], baselineEntries: readonly Entry[], rules: RubricRules, seed: number | string): PairedMargin {
  const pairs: [number, number][] = []
  systemEntries.forEach((entry, index) => {
    const other = baselineEntries[index]!
    if (isScoreable(entry) && isScoreable(other)) pairs.push([entry.card.mean ?? 0, other.card.mean ?? 0])
  })
  const difference = pairedDifference(pairs, { seed })
  const interval = difference.low === null || difference.high === null ? null : ([difference.low, difference.high] as const)
  return {
    n: difference.n,
    mean: difference.mean,
    se: difference.se,
    interval,
    lowerBoundClears: interval === null ? null : atLeast(interval[0], rules.baselineMargin),
  }
}

/** The opt-in gate: the point estimate's gate, and the paired interval's lower bound reaching the margin too. */
function lowerBoundGate(point: GateResult, paired: PairedMargin, rules: RubricRules): GateResult {
  const required = formatThreshold(rules.baselineMargin)
  if (paired.interval === null)
    return { passed: false, message: `fails the lower-bound gate: no paired interval (${plural(paired.n, 'case')} scoreable for both); ${point.message}` }
  const low = paired.interval[0]
  const clears = paired.lowerBoundClears === true
  const passed = point.passed && clears
  return {
    passed,
    message:
      `${passed ? 'passes' : 'fails'} the lower-bound gate: paired 95% interval [${formatFigure(low)}, ${formatFigure(paired.interval[1])}] over ${plural(paired.n, 'case')}, ` +
      `lower bound ${formatFigure(low)} ${clears ? '≥' : '<'} ${required}; ${point.message}`,
  }
}

function systemFigures(entries: readonly Entry[], rules: RubricRules): SystemFigures {
  const cards = entries.flatMap((entry) => (entry.kind === 'card' ? [entry.card] : []))
  const scoreable = cards.filter((card) => card.verdict !== 'manual_review')
  const means = scoreable.map((card) => card.mean ?? 0)
  const dimensionMeans = Object.fromEntries(
    rules.dimensions.map((name) => {
      const scores = scoreable.flatMap((card) => {
        const score = card.dimensions[name]?.score
        return score === null || score === undefined ? [] : [score]
      })
      return [name, scores.length === 0 ? null : mean(scores)]
    }),
  )
  return {
    scoreable: scoreable.length,
    passed: scoreable.filter((card) => card.verdict === 'pass').length,
    unscoreable: cards.length - scoreable.length,
    notReviewed: entries.filter((entry) => entry.kind === 'not_reviewed').length,
    refused: entries.filter((entry) => entry.kind === 'refused').length,
    passFraction: scoreable.length === 0 ? null : scoreable.filter((card) => card.verdict === 'pass').length / scoreable.length,
    mean: means.length === 0 ? null : mean(means),
    dimensionMeans,
    passInterval: intervalOf(wilsonInterval(scoreable.filter((card) => card.verdict === 'pass').length, scoreable.length)),
    meanSe: means.length === 0 ? null : meanWithError(means).se,
  }
}

function benchmarkGate(system: SystemFigures, entries: readonly Entry[], rules: RubricRules): GateResult {
  const undecided = undecidedCases(entries)
  if (undecided !== null) {
    return { passed: false, message: `cannot pass: ${undecided}; the gate counts the whole benchmark, so every case must be decided` }
  }
  // Stryker disable next-line ConditionalExpression,LogicalOperator: passFraction and mean are null together, exactly when no case is scoreable; either test alone decides the same
  if (system.passFraction === null || system.mean === null) {
    return { passed: false, message: `cannot pass: no scoreable case (${system.unscoreable} flagged for manual review), so there is no benchmark figure` }
  }
  const { benchmarkPassFraction, overallCasePass } = rules.thresholds
  const fractionOk = atLeast(system.passFraction, benchmarkPassFraction)
  const meanOk = atLeast(system.mean, overallCasePass)
  const passed = fractionOk && meanOk
  return {
    passed,
    message:
      `${passed ? 'passes' : 'fails'}: ${system.passed} of ${system.scoreable} scoreable cases pass, ` +
      `${formatFigure(system.passFraction)} ${fractionOk ? '≥' : '<'} benchmark_pass_fraction ${formatThreshold(benchmarkPassFraction)}; ` +
      `mean score ${formatFigure(system.mean)} ${meanOk ? '≥' : '<'} overall_case_pass ${formatThreshold(overallCasePass)}; ` +
      `${system.unscoreable} ${system.unscoreable === 1 ? 'case' : 'cases'} excluded for manual review`,
  }
}

function baselineGate(
  system: SystemFigures,
  baseline: SystemFigures,
  systemEntries: readonly Entry[],
  baselineEntries: readonly Entry[],
  rules: RubricRules,
): GateResult {
  const required = formatThreshold(rules.baselineMargin)
  const systemUndecided = undecidedCases(systemEntries)
  if (systemUndecided !== null) return { passed: false, message: `cannot compare: the debate system has ${systemUndecided}` }
  const baselineUndecided = undecidedCases(baselineEntries)
  if (baselineUndecided !== null) return { passed: false, message: `cannot compare: the baseline has ${baselineUndecided}` }
  const noMean = (which: string): GateResult => ({ passed: false, message: `cannot compare: ${which} has no scoreable case, so no benchmark mean` })
  if (system.mean === null) return noMean('the debate system')
  if (baseline.mean === null) return noMean('the baseline')
  const margin = system.mean - baseline.mean
  const passed = atLeast(margin, rules.baselineMargin)
  return {
    passed,
    message:
      `${passed ? 'beats' : 'does not beat'} the baseline: debate mean ${formatFigure(system.mean)} − baseline mean ${formatFigure(baseline.mean)} ` +
      `= margin ${formatFigure(margin)} ${passed ? '≥' : '<'} ${required} ` +
      `(debate over ${system.scoreable} scoreable cases, baseline over ${baseline.scoreable})`,
  }
}

/** `1 case refused (a) and 2 cases not reviewed (b, c)`, or `null` when every case is decided. */
function undecidedCases(entries: readonly Entry[]): string | null {
  const refused = entries.filter((entry) => entry.kind === 'refused').map((entry) => entry.id)
  const notReviewed = entries.filter((entry) => entry.kind === 'not_reviewed').map((entry) => entry.id)
  if (refused.length === 0 && notReviewed.length === 0) return null
  const parts: string[] = []
  if (refused.length > 0) parts.push(`${refused.length} ${refused.length === 1 ? 'case' : 'cases'} refused (${listIds(refused)})`)
  if (notReviewed.length > 0) parts.push(`${notReviewed.length} ${notReviewed.length === 1 ? 'case' : 'cases'} not reviewed (${listIds(notReviewed)})`)
  return parts.join(' and ')
}

const LISTED_IDS = 3

function listIds(ids: readonly string[]): string {
  const shown = ids.slice(0, LISTED_IDS).join(', ')
  return ids.length > LISTED_IDS ? `${shown} and ${ids.length - LISTED_IDS} more` : shown
}

function intervalOf(interval: Interval | null): readonly [number, number] | null {
  return interval === null ? null : [interval.low, interval.high]
}
