import { basename } from 'node:path'
import { RubricError } from '../common/errors.js'
import { plural, type Split } from '../common/primitives.js'
import type { PanelPolicy } from '../engine/panel-rule.js'
import type { PlannedCheck } from '../contract/results.js'
import { compareFixtures, FixturesNotComparableError } from './compare.js'
import { comparisonText } from './compare-text.js'
import type { JudgeAssistedSplit } from './compare-judge.js'
import { judgeAssistedVerdict } from './gate-judge.js'
import {
  boundAndThreshold,
  DEVELOPMENT_LABEL,
  ONE_SIDED,
  points,
  pointsInterval,
  pointsText,
  versus,
  type PairedFigures,
  type PairedSplitFigures,
  type UndecidedCase,
} from './compare-figures.js'

/** One compare gate: fixture B (the one checked) is not worse than `against` (A) by more than `margin`. */
export interface CompareGate {
  /** Fixture A's directory. */
  readonly against: string
  /** The split compared: held-out cases give the result; development cases are no result. */
  readonly split: Split
  /** The largest drop of B's acceptance rate below A's the gate allows, as a proportion (0.05: 5 points). */
  readonly margin: number
  /** A judge: the gate then reads the judge-assisted (PPI++) interval of B − A over every paired task instead of the decided pairs' Newcombe interval. */
  readonly judge?: string | undefined
}

/** What a compare gate found for one fixture: its check's outcome, and the paired figures it rests on. */
export interface ComparisonGateReport {
  /** The check's name: `answers-v2 is not worse than answers-v1 by more than 5 points on held-out cases`. */
  readonly name: string
  /** Fixture A's and B's directories, as shown. */
  readonly against: string
  readonly fixture: string
  readonly split: Split
  readonly margin: number
  /**
   * `passed`: the lower bound of B − A is at least −margin over the pairs decided in both, and
   * still is with every undecided pair counted against B (the worst case); `failed`: the lower
   * bound over the decided pairs is below −margin, or the fixtures cannot be compared; `todo`: the
   * decided pairs clear the margin but the worst case does not (the result waits on the undecided
   * pairs), no pair of the split is decided for both, or the split is development material, which
   * is no result. The lower bound is that of a two-sided 95% interval: a one-sided test at 2.5%.
   */
  readonly status: 'passed' | 'failed' | 'todo'
  /** Why, with the figures: the check's message. */
  readonly message: string
  /** {@link DEVELOPMENT_LABEL} for the development split; `null` for held-out cases. */
  readonly label: string | null
  /** How many of the split's pairs are decided in both: `8 of 9 tasks decided in both; 1 pending in B`. `null` when not compared. */
  readonly coverage: string | null
  /** Acceptance, paired: the 2×2 table, both rates, B − A and its Newcombe interval. `null` when not compared. */
  readonly acceptance: PairedFigures | null
  /** Acceptance with every pair not decided in both counted against B. `null` when not compared. */
  readonly worst_case: UndecidedCase | null
  /**
   * Whether the outcome holds whatever the undecided pairs turn out to be: `true` without
   * undecided pairs, or when the worst case gives the same outcome; `null` when there is no outcome
   * (not compared, no decided pair, development material). A pass holds regardless when the
   * worst case for B passes too; a fail, when the best case for B (every undecided pair counted
   * for B) fails too.
   */
  readonly holds_regardless: boolean | null
  /** The discordant cases, A accepted and B rejected first. `null` when not compared. */
  readonly discordant: { readonly a_accepted_b_rejected: readonly string[]; readonly b_accepted_a_rejected: readonly string[] } | null
  /** The judge whose decisions the gate reads, with its judge-assisted figures of the split; `null` for a gate without a judge or when not compared. */
  readonly judge_assisted: { readonly judge: string; readonly split: JudgeAssistedSplit } | null
  /** A decision's two outcomes in the fixtures' kind's words, as `compare` prints them: `accepted` and `rejected`, or `passed` and `failed` (scored). */
  readonly outcomes: { readonly accepted: string; readonly rejected: string }
}

/** A decision's two outcomes in a kind's words (`accepted` and `rejected`, or `passed` and `failed`). */
interface DecisionNouns {
  readonly accepted: string
  readonly rejected: string
}

/** The words of a comparison that was not made (the fixtures could not be compared). */
const CRITERIA_NOUNS: DecisionNouns = { accepted: 'accepted', rejected: 'rejected' }

/** Options of {@link compareGate}. */
export interface CompareGateOptions {
  /** Paths in messages are shown relative to this directory. */
  readonly cwd: string
  /** Whether the gate names fixture B itself (its `fixtures` globs): then fixtures that cannot be compared fail rather than being left out. */
  readonly named: boolean
  readonly panel?: PanelPolicy
  readonly seed?: number | string
}

/** The name of a compare gate's check on one fixture. */
export function compareGateName(fixtureDir: string, gate: CompareGate): string {
  const judged = gate.judge === undefined ? '' : `, judge-assisted by ${gate.judge}`
  return `${basename(fixtureDir)} is not worse than ${basename(gate.against)} by more than ${pointsText(gate.margin)} on ${gate.split === 'held_out' ? 'held-out' : 'development'} cases${judged}`
}

/**
 * Compares fixture B (`dir`) with the gate's fixture A, as `vitest-rubric compare A B --split`
 * does, and reads the paired difference of acceptance against the margin. A fixture on another
 * rubric or source is left out (`undefined`) unless the gate names it, when it fails with the
 * differing file; a fixture that cannot be loaded fails with its error.
 */
export async function compareGate(dir: string, gate: CompareGate, options: CompareGateOptions): Promise<ComparisonGateReport | undefined> {
  const name = compareGateName(dir, gate)
  const shown = { name, against: gate.against, fixture: dir, split: gate.split, margin: gate.margin }
  const label = gate.split === 'development' ? DEVELOPMENT_LABEL : null
  let comparison: Awaited<ReturnType<typeof compareFixtures>>
  try {
    comparison = await compareFixtures(gate.against, dir, {
      split: gate.split,
      cwd: options.cwd,
      ...(options.panel === undefined ? {} : { panel: options.panel }),
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(gate.judge === undefined ? {} : { judge: gate.judge }),
    })
  } catch (error) {
    if (!(error instanceof RubricError)) throw error
    if (error instanceof FixturesNotComparableError && !options.named) return undefined
    return {
      ...shown,
      status: 'failed',
      message: error.message,
      label,
      coverage: null,
      acceptance: null,
      worst_case: null,
      holds_regardless: null,
      discordant: null,
      judge_assisted: null,
      outcomes: CRITERIA_NOUNS,
    }
  }
  const section = comparison.splits[0]!
  const judged = comparison.judge_assisted?.splits[0]
  const { nouns: outcomes } = comparisonText(comparison)
  return {
    ...shown,
    against: comparison.a.dir,
    fixture: comparison.b.dir,
    label,
    coverage: section.coverage.line,
    acceptance: section.acceptance,
    worst_case: section.worst_case,
    discordant: section.discordant,
    judge_assisted: gate.judge === undefined || judged === undefined ? null : { judge: gate.judge, split: judged },
    outcomes,
    ...(gate.judge === undefined || judged === undefined ? gateVerdict(section, gate, outcomes) : judgeAssistedVerdict(judged, gate.judge, gate)),
  }
}

/** The split's figures a gate reads. */
export type GatedSplit = Pick<PairedSplitFigures, 'coverage' | 'acceptance' | 'worst_case' | 'best_case' | 'discordant'>

/**
 * What a compare gate decides on one split's figures: passed when the lower bound of B − A over the
 * decided pairs, and the worst case's, are at least −margin; failed when the decided pairs' bound
 * is below it; todo in between (the undecided pairs could undo a pass), without a decided pair, and
 * on development cases. Every bound is compared as computed, never as rounded for display.
 */
export function gateVerdict(
  section: GatedSplit,
  gate: Pick<CompareGate, 'split' | 'margin'>,
  nouns: DecisionNouns = CRITERIA_NOUNS,
): Pick<ComparisonGateReport, 'status' | 'message' | 'holds_regardless'> {
  const figures = section.acceptance
  const worst = section.worst_case
  if (figures.difference === null || figures.difference_interval === null) {
    const splitWords = gate.split === 'held_out' ? 'held-out' : 'development'
    return { holds_regardless: null, status: 'todo', message: `no ${splitWords} pair is decided for both systems yet: ${section.coverage.line}` }
  }
  const lower = figures.difference_interval[0]
  const difference = `B − A = ${points(figures.difference)} points, 95% interval ${pointsInterval(figures.difference_interval)} (Newcombe, paired)`
  if (gate.split === 'development') {
    return { holds_regardless: null, status: 'todo', message: `${DEVELOPMENT_LABEL}: ${difference}; ${section.coverage.line}` }
  }
  const threshold = -gate.margin
  const [bound, least] = boundAndThreshold(lower, threshold)
  // The interval's lower end with the digits the comparison needs, so that no figure reads otherwise.
  const shown = `B − A = ${points(figures.difference)} points, 95% interval [${bound}, ${points(figures.difference_interval[1])}] (Newcombe, paired)`
  const undecided = plural(worst.undecided, 'undecided pair')
  const worstLower = worst.difference_interval?.[0] ?? null
  const bestLower = section.best_case.difference_interval?.[0] ?? null
  if (lower >= threshold) {
    const holds = worst.undecided === 0 || (worstLower !== null && worstLower >= threshold)
    if (holds) {
      const regardless =
        worst.undecided === 0 ? 'every pair is decided' : `it holds regardless of the ${undecided}: counted against B, ${versus(worstLower, threshold)}`
      return {
        holds_regardless: true,
        status: 'passed',
        message: `${shown}: the lower bound ${bound} is at least ${least} (${ONE_SIDED}); ${regardless}; ${section.coverage.line}`,
      }
    }
    // The decided pairs clear the margin and the undecided ones could undo it: no pass yet, and no fail.
    // One line: a todo's message is part of its test's name.
    const message =
      `${shown}: the lower bound ${bound} is at least ${least} (${ONE_SIDED}) on the decided pairs, but not regardless of the ${undecided}: ` +
      `counted against B, ${versus(worstLower, threshold)}; decide ${worst.undecided === 1 ? 'it' : 'them'}; ${section.coverage.line}`
    return { holds_regardless: false, status: 'todo', message }
  }
  // A fail holds regardless when even the best case for B (every undecided pair counted for B) fails.
  const holds = worst.undecided === 0 || bestLower === null || bestLower < threshold
  const regardless =
    worst.undecided === 0 ? '' : `; ${holds ? 'it holds regardless' : 'not regardless'} of the ${undecided}: counted for B, ${versus(bestLower, threshold)}`
  const message = [
    `${shown}: the lower bound ${bound} is below ${least} (${ONE_SIDED}), so B may be more than ${pointsText(gate.margin)} worse than A${regardless}`,
    ...details(section, nouns),
  ].join('\n')
  return { holds_regardless: holds, status: 'failed', message }
}

/** The coverage, the paired table and the discordant cases: the lines under a failed gate, in the kind's words. */
function details(section: GatedSplit, { accepted, rejected }: DecisionNouns): string[] {
  const { table } = section.acceptance
  const list = (ids: readonly string[]) => (ids.length === 0 ? 'none' : ids.join(', '))
  return [
    section.coverage.line,
    `paired table: both ${accepted} ${table.both}, A only ${table.a_only}, B only ${table.b_only}, both ${rejected} ${table.neither}`,
    `A ${accepted}, B ${rejected}: ${list(section.discordant.a_accepted_b_rejected)}`,
    `B ${accepted}, A ${rejected}: ${list(section.discordant.b_accepted_a_rejected)}`,
  ]
}

/** The report as the fixture's check: todo while it has nothing to decide, else passed or failed with the message. */
export function comparisonCheck(report: ComparisonGateReport): PlannedCheck {
  return { name: report.name, ok: report.status === 'passed', message: report.message, ...(report.status === 'todo' ? { todo: true } : {}) }
}
